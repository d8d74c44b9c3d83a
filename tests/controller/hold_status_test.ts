import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { E, filter, firstValueFrom, Subject } from "../../lib/deps.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { clientFromKubeconfig } from "../../lib/client/connect.ts";
import { informers } from "../../lib/informer/informers.ts";
import { controller } from "../../lib/controller/controller_spec.ts";
import { type ReconcileRecord, runController } from "../../lib/controller/run_controller.ts";
import { holdStatus } from "../../lib/controller/hold_status.ts";
import type { ObjectRef, Op } from "../../lib/reconcile/op.ts";

const primary: ObjectRef = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  namespace: "default",
  name: "web",
};
const child = (name: string): Op => ({
  type: "create",
  object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default" } },
});
const arbOp: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom("a", "b").map(child),
  fc.constant<Op>({ type: "status", ref: primary, status: { replicas: 1 } }),
  fc.constant<Op>({
    type: "patch",
    ref: primary,
    patchType: "merge",
    patch: { metadata: { labels: { a: "b" } } },
  }),
  fc.constant<Op>({
    type: "delete",
    ref: { apiVersion: "v1", kind: "ConfigMap", namespace: "default", name: "c", uid: "u" },
  }),
);
const isPrimaryStatus = (op: Op) => op.type === "status" && op.ref.name === primary.name;

Deno.test("holdStatus removes only the primary's status ops, and never with a window of 0", () => {
  fc.assert(fc.property(
    fc.array(arbOp, { maxLength: 6 }),
    fc.nat(1_000),
    fc.option(fc.nat(1_000), { nil: undefined }),
    fc.nat(300),
    (ops, now, since, batchMs) => {
      const pendingSince = since === undefined ? undefined : Math.min(since, now);
      const r = holdStatus({ ops, requeueAfterMs: 5 }, primary, { now, batchMs, pendingSince });
      assert.equal(r.plan.requeueAfterMs, 5);
      const kept = ops.filter((op) => !isPrimaryStatus(op));
      assert.ok(r.plan.ops.length === ops.length || r.plan.ops.length === kept.length);
      if (r.plan.ops.length !== ops.length) assert.deepEqual(r.plan.ops, kept);
      if (batchMs === 0) assert.deepEqual(r.plan.ops, ops);
      assert.equal(r.retryAfterMs !== undefined, r.plan.ops.length !== ops.length);
      if (r.retryAfterMs !== undefined) assert.ok(r.retryAfterMs > 0 && r.retryAfterMs <= batchMs);
      // With no lagging cache, only the window holds.
    },
  ));
});

Deno.test("holdStatus: along any run of reconciles, status waits at most the window after the first unreported child write (longer only for a lagging cache, up to maxHoldMs)", () => {
  const step = fc.record({
    dt: fc.nat(80),
    child: fc.boolean(),
    status: fc.boolean(),
    cacheBehind: fc.boolean(),
  });
  const args = [fc.array(step, { maxLength: 30 }), fc.nat(200), fc.nat(600)] as const;
  fc.assert(fc.property(...args, (steps, batchMs, extra) => {
    const maxHoldMs = batchMs + extra;
    let now = 0;
    let pendingSince: number | undefined;
    let firstUnreported: number | undefined; // the model: kept from the plans' own history
    for (const s of steps) {
      now += s.dt;
      const ops: Op[] = [
        ...(s.child ? [child("a")] : []),
        ...(s.status ? [{ type: "status", ref: primary, status: { n: now } } as Op] : []),
      ];
      const state = { now, batchMs, maxHoldMs, pendingSince, cacheBehind: s.cacheBehind };
      const r = holdStatus({ ops }, primary, state);
      pendingSince = r.pendingSince;
      if (s.child && firstUnreported === undefined) firstUnreported = now;
      const held = s.status && r.plan.ops.every((op) => op.type !== "status");
      const age = firstUnreported === undefined ? undefined : now - firstUnreported;
      const limit = s.cacheBehind && batchMs > 0 ? maxHoldMs : batchMs; // 0: never held
      if (held) {
        assert.ok(age !== undefined && age < limit);
        assert.ok(r.retryAfterMs! > 0 && r.retryAfterMs! <= Math.max(batchMs - age, 20));
      } else if (s.status) {
        assert.ok(age === undefined || age >= limit);
        firstUnreported = s.child ? now : undefined;
      } else if (!s.child) firstUnreported = undefined;
    }
  }));
});

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const deployKind = { apiVersion: "apps/v1", kind: "Deployment" };

/**
 * A controller whose status reports the children it *observes* (not the ones it plans), so a
 * status written beside the create says 0 and the next one 1: the write count tells whether
 * the first was held back.
 */
async function statusWrites(opts: { statusBatchMs?: number; childEventsTrigger: boolean }) {
  const server = await startApiServer();
  const c = await clientFromKubeconfig(server.kubeconfig);
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  const inf = informers(client);
  const stop$ = new Subject<void>();
  const records = new Subject<ReconcileRecord>();
  const spec = controller({
    name: "defer",
    for: deployKind,
    ...(opts.childEventsTrigger
      ? { owns: [cmKind] }
      : { watches: [{ resource: cmKind, keys: () => [] }] }),
    ...(opts.statusBatchMs === undefined ? {} : { statusBatchMs: opts.statusBatchMs }),
    reconcile: (p, cache) => {
      const seen = cache.store(cmKind).list().length;
      const ops: Op[] = seen === 0 ? [child(`${p.metadata!.name}-cm`)] : [];
      const status = (p as { status?: { replicas?: number } }).status;
      if (status?.replicas !== seen) {
        ops.push({ type: "status", ref: primary, status: { replicas: seen } });
      }
      return E.right({ ops });
    },
  });
  const sub = runController(spec, { client, informers: inf, stop$ }).subscribe((r) =>
    records.next(r)
  );
  const deployments = inf.informer<KubeObject>(deployKind);
  const settled = firstValueFrom(deployments.deltas$.pipe(
    filter(() =>
      (deployments.store.get("default/web")?.status as { replicas?: number } | undefined)
        ?.replicas === 1
    ),
  ));
  await client.create({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "default" },
    spec: {
      replicas: 1,
      selector: { matchLabels: { a: "b" } },
      template: {
        metadata: { labels: { a: "b" } },
        spec: { containers: [{ name: "c", image: "x" }] },
      },
    },
  } as KubeObject);
  await settled;
  // The status write's own event reconciles once more: that run must find nothing to do.
  await firstValueFrom(records.pipe(filter((r) => r.result === "skipped")));
  const writes = server.requestCounts()["patch/status deployments"] ?? 0;
  stop$.next();
  sub.unsubscribe();
  client.close();
  await server.close();
  return writes;
}

Deno.test("a status beside child creates waits for its window and the children: one status write instead of two", async () => {
  assert.equal(await statusWrites({ childEventsTrigger: true }), 1);
  assert.equal(await statusWrites({ childEventsTrigger: true, statusBatchMs: 0 }), 2);
});

Deno.test("a held-back status is written even when the children's events do not trigger the primary", async () => {
  assert.equal(await statusWrites({ childEventsTrigger: false }), 1);
});
