import assert from "node:assert/strict";

Deno.test("examples/cluster.ts --demo-only rolls a Deployment out and through an image update", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../examples/cluster.ts", import.meta.url).pathname,
      "--demo-only",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, /rolled out: 3 pods Running nginx:1\.27/);
  assert.match(stdout, /rolled out: 3 pods Running nginx:1\.28; ReplicaSets web-\w+=0, web-\w+=3/);
  assert.match(stdout, /cluster demo: rollout and update passed/);
});
