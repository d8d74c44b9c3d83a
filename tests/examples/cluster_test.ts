import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test("examples/cluster.ts --demo-only rolls a Deployment out and through an image update", async () => {
  const out = await runExample("cluster.ts", "--demo-only");
  const { stdout, stderr } = out;
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, /rolled out: 3 pods Running nginx:1\.27/);
  assert.match(stdout, /rolled out: 3 pods Running nginx:1\.28; ReplicaSets web-\w+=0, web-\w+=3/);
  assert.match(stdout, /cluster demo: rollout and update passed/);
});
