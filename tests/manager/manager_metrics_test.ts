/**
 * The controller-runtime metrics beyond the reconcile counters: workers in use, the configured
 * concurrency, reconcile panics (a reconciler that throws) and the leader-election status.
 */
import assert from "node:assert/strict";
import { E, filter, firstValueFrom } from "../../lib/deps.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { connect } from "../../lib/client/connect.ts";
import type { Client } from "../../lib/client/client_types.ts";
import { controller, DEFAULT_CONCURRENCY } from "../../lib/controller/controller_spec.ts";
import { type Manager, startManager } from "../../mod.ts";

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

Deno.test("a controller that sets no concurrency reconciles DEFAULT_CONCURRENCY keys at once and reports it", async () => {
  const server = await startApiServer();
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  // Each reconcile's plan creates one Secret; the creates hang until released, so the
  // reconciles in flight are the creates waiting.
  let running = 0, most = 0;
  const release: (() => void)[] = [];
  const slow: Client = Object.assign(Object.create(client), {
    create: async (...args: Parameters<Client["create"]>) => {
      most = Math.max(most, ++running);
      await new Promise<void>((r) => release.push(r));
      running--;
      return client.create(...args);
    },
  });
  const spec = controller({
    name: "defaults",
    for: { apiVersion: "v1", kind: "ConfigMap" },
    reconcile: (cm) =>
      E.right({
        ops: [{
          type: "create" as const,
          object: {
            apiVersion: "v1",
            kind: "Secret",
            metadata: { name: cm.metadata!.name!, namespace: "default" },
          },
        }],
      }),
  });
  const manager = await startManager({ client: slow, controllers: [spec] });
  try {
    await manager.ready;
    assert.equal(
      sample(
        manager.metricsText(),
        'controller_runtime_max_concurrent_reconciles{controller="defaults"}',
      ),
      DEFAULT_CONCURRENCY,
    );
    for (let i = 0; i < DEFAULT_CONCURRENCY + 2; i++) {
      const r = await client.create<KubeObject>({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `cm-${i}`, namespace: "default" },
      });
      assert.ok(E.isRight(r));
    }
    while (running < DEFAULT_CONCURRENCY) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50)); // no more start while every worker is busy
    assert.equal(most, DEFAULT_CONCURRENCY);
  } finally {
    const drain = setInterval(() => release.splice(0).forEach((r) => r()), 1);
    await manager.stop();
    clearInterval(drain);
    client.close();
    await server.close();
  }
});
