import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { formatTime, isPodReady, type Plan, worldFromObjects } from "../../../mod.ts";
import {
  reconcileReplicaSet,
  type ReplicaSet,
} from "../../../controllers/workloads/reconcile_replica_set.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";

const UID = "rs-uid";
const RUNS = { numRuns: 300 };

const rsOf = (replicas: number, generation: number): ReplicaSet => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  metadata: { namespace: "d", name: "web", uid: UID, generation },
  spec: {
    replicas,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web", tier: "fe" } },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    },
  },
});

const podArb: fc.Arbitrary<Pod> = fc.record({
  name: fc.oneof(fc.integer({ min: 0, max: 9 }).map((i) => `web-s${i}`), fc.constantFrom("a", "b")),
  owner: fc.constantFrom("self", "self", "self", "other", "none"),
  ready: fc.boolean(),
  phase: fc.constantFrom("Pending", "Running", "Running", "Failed", "Succeeded"),
  node: fc.boolean(),
  terminating: fc.boolean(),
  matches: fc.boolean(),
  created: fc.nat(10),
}).map((p) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    namespace: "d",
    name: p.name,
    uid: `uid-${p.name}`,
    labels: p.matches ? { app: "web" } : { app: "db" },
    creationTimestamp: formatTime(p.created * 1000),
    ...(p.owner === "none" ? {} : {
      ownerReferences: [{
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: "x",
        uid: p.owner === "self" ? UID : "other",
        controller: true,
      }],
    }),
    ...(p.terminating ? { deletionTimestamp: formatTime(99_000) } : {}),
  },
  spec: { containers: [{ name: "c" }], ...(p.node ? { nodeName: "n1" } : {}) },
  status: { phase: p.phase, conditions: [{ type: "Ready", status: p.ready ? "True" : "False" }] },
}));
const podsArb = fc.uniqueArray(podArb, { maxLength: 12, selector: (p) => p.metadata?.name });

function run(rs: ReplicaSet, pods: readonly Pod[]): Plan {
  const r = reconcileReplicaSet(rs, { pods: worldFromObjects<Pod>(pods) }, {
    now: 0,
    nameSuffix: (i) => `s${i}`,
  });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

/** The model server: creates add Pending pods, deletes remove, status replaces. */
function apply(rs: ReplicaSet, pods: readonly Pod[], plan: Plan): { rs: ReplicaSet; pods: Pod[] } {
  let out = [...pods];
  let next = rs;
  for (const op of plan.ops) {
    if (op.type === "create") {
      const name = op.object.metadata?.name ?? "";
      assert.ok(!out.some((p) => p.metadata?.name === name), `AlreadyExists ${name}`);
      const obj = structuredClone(op.object) as Pod;
      out.push({
        ...obj,
        metadata: { ...obj.metadata, uid: `uid-${name}` },
        status: { phase: "Pending" },
      });
    } else if (op.type === "delete") {
      assert.ok(out.some((p) => p.metadata?.uid === op.ref.uid), `NotFound ${op.ref.name}`);
      out = out.filter((p) => p.metadata?.uid !== op.ref.uid);
    } else if (op.type === "status") {
      next = { ...next, status: structuredClone(op.status) as unknown as ReplicaSet["status"] };
    } else throw new Error(`unexpected ${op.type}`);
  }
  return { rs: next, pods: out };
}

const mine = (p: Pod) =>
  p.metadata?.ownerReferences?.[0]?.uid === UID && p.metadata?.labels?.app === "web";
const active = (p: Pod) =>
  !p.metadata?.deletionTimestamp && p.status?.phase !== "Failed" && p.status?.phase !== "Succeeded";

Deno.test("reconcileReplicaSet() reaches a fixpoint with exactly spec.replicas active pods and a true status", () => {
  fc.assert(
    fc.property(fc.nat(6), podsArb, (replicas, pods) => {
      const rs = rsOf(replicas, 2);
      const next = apply(rs, pods, run(rs, pods));
      assert.deepEqual(run(next.rs, next.pods).ops, []);
      const live = next.pods.filter((p) => mine(p) && active(p));
      assert.equal(live.length, replicas);
      assert.equal(next.rs.status?.replicas, replicas);
      assert.equal(next.rs.status?.readyReplicas, live.filter(isPodReady).length);
      assert.equal(next.rs.status?.availableReplicas, next.rs.status?.readyReplicas);
      assert.equal(next.rs.status?.observedGeneration, 2);
    }),
    RUNS,
  );
});

Deno.test("reconcileReplicaSet() touches only pods it controls and matches, and labels new pods from the template", () => {
  fc.assert(
    fc.property(fc.nat(6), podsArb, (replicas, pods) => {
      const plan = run(rsOf(replicas, 1), pods);
      const byUid = new Map(pods.map((p) => [p.metadata?.uid, p]));
      for (const op of plan.ops) {
        if (op.type === "delete") {
          const p = byUid.get(op.ref.uid);
          assert.ok(p && mine(p) && !p.metadata?.deletionTimestamp);
        }
        if (op.type === "create") {
          assert.deepEqual(op.object.metadata?.labels, { app: "web", tier: "fe" });
          assert.equal(op.object.metadata?.ownerReferences?.[0].uid, UID);
          assert.match(op.object.metadata?.name ?? "", /^web-s\d+$/);
        }
      }
    }),
    RUNS,
  );
});

Deno.test("reconcileReplicaSet() scales down unscheduled and not-ready pods before ready ones", () => {
  fc.assert(
    fc.property(fc.nat(6), podsArb, (replicas, pods) => {
      const plan = run(rsOf(replicas, 1), pods);
      const gone = new Set(plan.ops.flatMap((o) => (o.type === "delete" ? [o.ref.uid] : [])));
      const live = pods.filter((p) => mine(p) && active(p));
      const deleted = live.filter((p) => gone.has(p.metadata?.uid ?? ""));
      const kept = live.filter((p) => !gone.has(p.metadata?.uid ?? ""));
      const rank = (p: Pod) => (p.spec?.nodeName ? 2 : 0) + (isPodReady(p) ? 1 : 0);
      // With pending/running equal, an unscheduled or not-ready pod never outlives a worse-ranked deleted one.
      for (const d of deleted) {
        for (const k of kept) {
          if (d.status?.phase === k.status?.phase) assert.ok(rank(d) <= rank(k));
        }
      }
    }),
    RUNS,
  );
});

Deno.test("reconcileReplicaSet() rejects a selector that does not match the template, naming the field", () => {
  const rs = rsOf(1, 1);
  const bad = { ...rs, spec: { ...rs.spec!, selector: { matchLabels: { app: "db" } } } };
  const r = reconcileReplicaSet(bad, { pods: worldFromObjects<Pod>([]) }, { now: 0 });
  assert.ok(r._tag === "Left" && r.left.message.includes("spec.template.metadata.labels"));
});
