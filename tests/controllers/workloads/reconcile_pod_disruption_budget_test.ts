import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { type KubeObject, worldFromObjects } from "../../../mod.ts";
import {
  DELETION_TIMEOUT_MS,
  type PodDisruptionBudget,
  reconcilePodDisruptionBudget,
} from "../../../controllers/workloads/reconcile_pod_disruption_budget.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";
import { decideEviction } from "../../../lib/apiserver/decide_eviction.ts";

const T0 = Date.parse("2025-01-01T00:00:00Z");
const rsRef = {
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  name: "web-1",
  uid: "rs-uid",
  controller: true,
};

const pod = (i: number, ready: boolean, labels = { app: "web" }): Pod => ({
  metadata: { name: `p${i}`, namespace: "ns", uid: `u${i}`, labels, ownerReferences: [rsRef] },
  status: { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
});

const budget = fc.oneof(
  fc.record({ minAvailable: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ minAvailable: fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`) }),
  fc.record({
    maxUnavailable: fc.oneof(
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
    ),
  }),
);

const world = (pods: readonly Pod[], replicas: number) => ({
  pods: worldFromObjects(pods),
  controllers: {
    ReplicaSet: worldFromObjects([{
      metadata: { name: "web-1", namespace: "ns", uid: "rs-uid" },
      spec: { replicas },
    }]),
  },
});

const statusOf = (
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  replicas: number,
  now: number,
) => {
  const plan = reconcilePodDisruptionBudget(pdb, world(pods, replicas), { now });
  assert.ok(plan._tag === "Right");
  const op = plan.right.ops[0];
  assert.ok(op.type === "status");
  return {
    status: op.status as Record<string, unknown>,
    requeueAfterMs: plan.right.requeueAfterMs,
  };
};

const ready = (pods: readonly Pod[]) =>
  pods.filter((p) => p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"))
    .length;

Deno.test("evictions through the eviction subresource never take a budget's ready pods below what it needs", () => {
  fc.assert(fc.property(
    budget,
    fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
    fc.array(fc.nat(10), { maxLength: 12 }),
    (spec, readiness, victims) => {
      let pods = readiness.map((r, i) => pod(i, r));
      const replicas = pods.length;
      let pdb: PodDisruptionBudget = {
        metadata: { name: "web", namespace: "ns", generation: 1 },
        spec: { selector: { matchLabels: { app: "web" } }, ...spec },
      };
      let now = T0;
      pdb = { ...pdb, status: statusOf(pdb, pods, replicas, now).status };
      const desired = Number(pdb.status?.desiredHealthy);
      const before = ready(pods);
      for (const v of victims) {
        now += 1000;
        const victim = pods[v % Math.max(1, pods.length)];
        if (!victim) break;
        const d = decideEviction(
          victim as KubeObject,
          [pdb as KubeObject],
          new Date(now).toISOString(),
        );
        if (d.type === "refuse") {
          assert.ok(d.status.code === 429 || d.status.code === 500, JSON.stringify(d.status));
          continue;
        }
        if (d.budget) pdb = { ...pdb, status: d.budget.status };
        pods = pods.filter((p) => p !== victim);
        // The disruption controller catches up on some steps only (it may lag).
        if (v % 2 === 0) pdb = { ...pdb, status: statusOf(pdb, pods, replicas, now).status };
      }
      // Healthy pods only go when the budget allowed it: never below desiredHealthy, unless
      // they were below it before the first eviction.
      assert.ok(ready(pods) >= Math.min(before, desired), `ready ${ready(pods)} < ${desired}`);
    },
  ));
});

Deno.test("reconcilePodDisruptionBudget(): pods it does not select change nothing; allowed never exceeds healthy", () => {
  fc.assert(
    fc.property(
      budget,
      fc.array(fc.boolean(), { maxLength: 6 }),
      fc.array(fc.boolean(), { maxLength: 4 }),
      (spec, sel, other) => {
        const pdb: PodDisruptionBudget = {
          metadata: { name: "web", namespace: "ns", generation: 3 },
          spec: { selector: { matchLabels: { app: "web" } }, ...spec },
        };
        const selected = sel.map((r, i) => pod(i, r));
        const unrelated = other.map((r, i) => pod(100 + i, r, { app: "db" } as never));
        const a = statusOf(pdb, selected, selected.length, T0).status;
        const b = statusOf(pdb, [...selected, ...unrelated], selected.length, T0).status;
        assert.deepEqual(a, b);
        assert.ok(Number(a.disruptionsAllowed) <= Number(a.currentHealthy));
        assert.equal(a.observedGeneration, 3);
        assert.equal(
          Number(a.disruptionsAllowed),
          Math.max(0, Number(a.currentHealthy) - Number(a.desiredHealthy)) *
            (Number(a.expectedPods) > 0 ? 1 : 0),
        );
      },
    ),
  );
});

Deno.test("reconcilePodDisruptionBudget(): an evicted pod is not healthy for two minutes, then counts again", () => {
  const pods = [pod(0, true), pod(1, true), pod(2, true)];
  const pdb: PodDisruptionBudget = {
    metadata: { name: "web", namespace: "ns", generation: 1 },
    spec: { selector: { matchLabels: { app: "web" } }, minAvailable: 2 },
    status: { disruptedPods: { p0: new Date(T0).toISOString() } },
  };
  const soon = statusOf(pdb, pods, 3, T0 + 1000);
  assert.equal(soon.status.currentHealthy, 2);
  assert.equal(soon.status.disruptionsAllowed, 0);
  assert.equal(soon.requeueAfterMs, DELETION_TIMEOUT_MS - 1000);
  const later = statusOf(pdb, pods, 3, T0 + DELETION_TIMEOUT_MS);
  assert.equal(later.status.currentHealthy, 3);
  assert.equal(later.status.disruptedPods, undefined);
  assert.deepEqual(
    [later.status.expectedPods, later.status.desiredHealthy, later.status.disruptionsAllowed],
    [3, 2, 1],
  );
  const pct = statusOf(
    { ...pdb, spec: { ...pdb.spec, minAvailable: "50%" } },
    pods,
    4,
    T0 + DELETION_TIMEOUT_MS,
  );
  assert.deepEqual(
    [pct.status.expectedPods, pct.status.desiredHealthy],
    [4, 2],
    "50% of the ReplicaSet's 4, rounded up",
  );
});
