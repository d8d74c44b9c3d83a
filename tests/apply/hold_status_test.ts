import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  controller,
  createInformers,
  E,
  type KubeObject,
  type ObjectRef,
  type Op,
  type ReconcileRecord,
  runController,
} from "../../mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";
import { holdStatus } from "../../lib/apply/hold_status.ts";

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

Deno.test("holdStatus removes only the primary's status ops, and says when to look again", () => {
  fc.assert(fc.property(
    fc.array(arbOp, { maxLength: 6 }),
    fc.nat(1_000),
    fc.option(fc.nat(1_000), { nil: undefined }),
    fc.nat(300),
    fc.boolean(),
    (ops, now, since, batchMs, cacheBehind) => {
      const pendingSince = since === undefined ? undefined : Math.min(since, now);
      const state = { now, batchMs, pendingSince, cacheBehind };
      const r = holdStatus({ ops, requeueAfterMs: 5 }, primary, state);
      assert.equal(r.plan.requeueAfterMs, 5);
      const kept = ops.filter((op) => !isPrimaryStatus(op));
      const held = r.plan.ops.length !== ops.length;
      assert.deepEqual(r.plan.ops, held ? kept : ops);
      assert.equal(r.retryAfterMs !== undefined, held);
      if (held) assert.ok(r.retryAfterMs! >= 0 && r.retryAfterMs! <= Math.max(batchMs, 1_000));
    },
  ));
});

Deno.test("holdStatus: along any run of reconciles, a status is held exactly when it must be, and never longer than the bound", () => {
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
      const opening = s.child && firstUnreported === undefined;
      if (opening) firstUnreported = now;
      const age = firstUnreported === undefined ? undefined : now - firstUnreported;
      const mustHold = s.status && age !== undefined &&
        (opening || age < batchMs || (s.cacheBehind && age < Math.max(batchMs, maxHoldMs)));
      const held = s.status && r.plan.ops.every((op) => op.type !== "status");
      assert.equal(held, mustHold);
      if (s.status && !held) firstUnreported = s.child ? now : undefined;
      else if (!s.status && !s.child) firstUnreported = undefined;
    }
  }));
});

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const deployKind = { apiVersion: "apps/v1", kind: "Deployment" };

/**
 * A controller whose status reports the children it *observes* (not the ones it plans), so a
 * status written beside the create says 0 and the next one 1: the write count tells whether
 * the first was held back. On the test API and virtual time.
 */
async function statusWrites(opts: { deferStatus?: boolean; childEventsTrigger: boolean }) {
  using api = createTestApi();
  const { scheduler } = api.clock;
  const client = api.client();
  const informers = createInformers(client, { scheduler });
  const records: ReconcileRecord[] = [];
  const spec = controller({
    name: "defer",
    for: deployKind,
    ...(opts.childEventsTrigger
      ? { owns: [cmKind] }
      : { watches: [{ resource: cmKind, keys: () => [] }] }),
    ...(opts.deferStatus === undefined ? {} : { deferStatus: opts.deferStatus }),
    reconcile: (p, cache) => {
      // Only the children: every namespace also has its kube-root-ca.crt ConfigMap.
      const seen = cache.store(cmKind).list().filter((o) => o.metadata?.name?.endsWith("-cm"))
        .length;
      const ops: Op[] = seen === 0 ? [child(`${p.metadata!.name}-cm`)] : [];
      const status = (p as { status?: { replicas?: number } }).status;
      if (status?.replicas !== seen) {
        ops.push({ type: "status", ref: primary, status: { replicas: seen } });
      }
      return E.right({ ops });
    },
  });
  const sub = runController(spec, { client, informers, scheduler }).subscribe((r) =>
    records.push(r)
  );
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
  await api.clock.advanceUntil(() =>
    (api.get(deployKind, "web")?.status as { replicas?: number } | undefined)?.replicas === 1
  );
  // The status write's own event reconciles once more: that run must find nothing to do.
  await api.clock.advanceUntil(() => records.some((r) => r.result === "skipped"));
  await api.clock.advance(5_000);
  sub.unsubscribe();
  return api.requestCounts()["patch/status deployments"] ?? 0;
}

Deno.test("a status beside child creates waits for the children to show: one status write instead of two", async () => {
  assert.equal(await statusWrites({ childEventsTrigger: true }), 1);
  assert.equal(await statusWrites({ childEventsTrigger: true, deferStatus: false }), 2);
});

Deno.test("a held-back status is written even when the children's events do not trigger the primary", async () => {
  assert.equal(await statusWrites({ childEventsTrigger: false }), 1);
});
