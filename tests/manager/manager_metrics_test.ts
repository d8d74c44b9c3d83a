/**
 * The controller-runtime metrics beyond the reconcile counters: workers in use, the configured
 * concurrency, reconcile panics (a reconciler that throws) and the leader-election status.
 */
import assert from "node:assert/strict";
import { E, filter, firstValueFrom } from "../../lib/deps.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { connect } from "../../lib/client/connect.ts";
import { controller } from "../../lib/controller/controller_spec.ts";
import { type Manager, startManager } from "../../lib/manager/start_manager.ts";

const sample = (text: string, name: string) =>
  Number(new RegExp(`^${name.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);

Deno.test("the manager reports controller_runtime_active_workers, max_concurrent_reconciles, reconcile_panics_total and leader_election_master_status", async () => {
  const server = await startApiServer();
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  let manager: Manager | undefined;
  const seenInReconcile: string[] = [];
  const spec = controller({
    name: "probe",
    for: { apiVersion: "v1", kind: "ConfigMap" },
    concurrency: 3,
    reconcile: (cm) => {
      if (cm.metadata?.name === "boom") throw new Error("a bug in the reconciler");
      seenInReconcile.push(manager?.metricsText() ?? "");
      return E.right({ ops: [] });
    },
  });
  try {
    manager = await startManager({
      client,
      controllers: [spec],
      leaderElection: {
        name: "probe-lock",
        identity: "m0",
        leaseDurationMs: 1000,
        renewDeadlineMs: 600,
        retryPeriodMs: 100,
      },
    });
    await manager.ready;
    const done = (name: string, result: string) =>
      firstValueFrom(manager!.records$.pipe(filter((r) => r.key === name && r.result === result)));
    const okSeen = done("default/ok", "skipped");
    const boomSeen = done("default/boom", "error");
    for (const name of ["ok", "boom"]) {
      const r = await client.create<KubeObject>({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, namespace: "default" },
      });
      assert.ok(E.isRight(r));
    }
    await Promise.all([okSeen, boomSeen]);
    const during = seenInReconcile.at(-1)!;
    assert.ok(sample(during, 'controller_runtime_active_workers{controller="probe"}') >= 1);
    const text = manager.metricsText();
    assert.equal(
      sample(text, 'controller_runtime_max_concurrent_reconciles{controller="probe"}'),
      3,
    );
    // The throwing key is retried with back-off: each retry is one more panic (and error).
    const panics = sample(text, 'controller_runtime_reconcile_panics_total{controller="probe"}');
    assert.ok(panics >= 1, text);
    assert.ok(
      sample(text, 'controller_runtime_reconcile_errors_total{controller="probe"}') >= panics,
    );
    assert.equal(sample(text, 'leader_election_master_status{name="probe-lock"}'), 1);
  } finally {
    await manager?.stop();
    client.close();
    await server.close();
  }
});
