import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test("examples/cluster.ts --demo-only rolls a Deployment out and through an image update", async () => {
  const out = await runExample("cluster.ts", "--demo-only");
  const { stdout, stderr } = out;
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, /rolled out: 3 pods Running nginx:1\.27/);
  const after = /rolled out: 3 pods Running nginx:1\.28; ReplicaSets (.*)/.exec(stdout)?.[1] ?? "";
  assert.deepEqual(after.split(", ").map((r) => r.replace(/^web-\w+=/, "")).sort(), ["0", "3"]);
  assert.match(stdout, /cluster demo: rollout and update passed/);
});
