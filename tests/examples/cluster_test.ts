import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test("examples/cluster.ts --demo-only tours a rollout, a Service, a StatefulSet, Jobs and a CronJob", async () => {
  const out = await runExample("cluster.ts", "--demo-only");
  const { stdout, stderr } = out;
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, /rolled out: 3 pods Running nginx:1\.27/);
  const after = /rolled out: 3 pods Running nginx:1\.28; ReplicaSets (.*)/.exec(stdout)?.[1] ?? "";
  assert.deepEqual(after.split(", ").map((r) => r.replace(/^web-\w+=/, "")).sort(), ["0", "3"]);
  assert.match(stdout, /Service web has endpoints (10\.244\.\d+\.\d+:80(, )?){3}/);
  assert.match(
    stdout,
    /pods db-0, db-1, db-2 Running, started in order; claims data-db-0, data-db-1, data-db-2/,
  );
  assert.match(
    stdout,
    /3 claims Bound to volumes the standard class provisioned on [1-3] nodes \(WaitForFirstConsumer\)/,
  );
  assert.match(stdout, /pods db-0; 3 claims kept/);
  assert.match(stdout, /Job pi Complete: 3\/3 succeeded/);
  assert.match(stdout, /Job flaky Complete: 1\/1 succeeded \(after 1 container restart\)/);
  // On a schedule boundary of the virtual clock (600x: a loaded machine may pass the hour).
  assert.match(stdout, /CronJob tick fired at 2025-01-01T\d\d:\d[05]:00Z \(virtual\)/);
  assert.match(stdout, /cluster demo: .* passed/);
});
