import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type KubeObject, type Plan, worldFromObjects } from "../../../mod.ts";
import { reconcileStatefulSet } from "../../../controllers/workloads/reconcile_stateful_set.ts";
import {
  ordinalOf,
  type PersistentVolumeClaim,
  REVISION_HASH_LABEL,
  type StatefulSet,
} from "../../../controllers/workloads/stateful_set_pods.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";
import { applyPodPlan, kubeletStep } from "./_pod_model.ts";

const UID = "sts-uid";

interface SetArb {
  replicas: number;
  parallel: boolean;
  partition: number;
  whenScaled: "Retain" | "Delete";
}

const setArb: fc.Arbitrary<SetArb> = fc.record({
  replicas: fc.integer({ min: 0, max: 5 }),
  parallel: fc.boolean(),
  partition: fc.integer({ min: 0, max: 3 }),
  whenScaled: fc.constantFrom("Retain" as const, "Delete" as const),
});

function sts(a: SetArb, image = "pg:1", generation = 1): StatefulSet {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { namespace: "d", name: "db", uid: UID, generation },
    spec: {
      replicas: a.replicas,
      serviceName: "db",
      podManagementPolicy: a.parallel ? "Parallel" : "OrderedReady",
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: a.partition } },
      persistentVolumeClaimRetentionPolicy: { whenScaled: a.whenScaled, whenDeleted: "Retain" },
      selector: { matchLabels: { app: "db" } },
      template: {
        metadata: { labels: { app: "db" } },
        spec: { containers: [{ name: "pg", image }] },
      },
      volumeClaimTemplates: [{
        metadata: { name: "data" },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      }],
    },
  };
}

interface Cluster {
  set: StatefulSet;
  pods: Pod[];
  claims: PersistentVolumeClaim[];
}

function plan(c: Cluster): Plan {
  const r = reconcileStatefulSet(c.set, {
    pods: worldFromObjects<Pod>(c.pods),
    claims: worldFromObjects<PersistentVolumeClaim>(c.claims),
  }, { now: 0 });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

const healthy = (p: Pod) =>
  p.status?.phase === "Running" && !p.metadata?.deletionTimestamp &&
  p.status?.conditions?.some((x) => x.type === "Ready" && x.status === "True");

/** Applies a plan (claims here, pods in the pod model) and checks the ordering rules. */
function step(c: Cluster, a: SetArb): Cluster {
  const p = plan(c);
  const podOps = p.ops.filter((o) =>
    o.type === "status" ||
    (o.type === "create" ? o.object.kind : o.type === "delete" ? o.ref.kind : "") === "Pod"
  );
  let claims = [...c.claims];
  for (const o of p.ops) {
    if (o.type === "create" && o.object.kind === "PersistentVolumeClaim") {
      const name = o.object.metadata?.name;
      assert.ok(!claims.some((x) => x.metadata?.name === name), `AlreadyExists claim ${name}`);
      claims.push(
        {
          ...(o.object as KubeObject),
          metadata: { ...o.object.metadata, uid: `c-${name}` },
        } as PersistentVolumeClaim,
      );
    }
    if (o.type === "delete" && o.ref.kind === "PersistentVolumeClaim") {
      const ordinal = ordinalOf("data-db", o.ref.name)!;
      assert.equal(a.whenScaled, "Delete", "a Retain claim was deleted");
      assert.ok(ordinal >= a.replicas, "a claim of a kept ordinal was deleted");
      assert.ok(
        !c.pods.some((x) => ordinalOf("db", x.metadata?.name) === ordinal),
        "claim deleted before its pod",
      );
      claims = claims.filter((x) => x.metadata?.name !== o.ref.name);
    }
  }
  const creates = podOps.filter((o) => o.type === "create").map((o) =>
    ordinalOf("db", o.type === "create" ? o.object.metadata?.name : "")!
  );
  const deletes = podOps.filter((o) => o.type === "delete");
  if (!a.parallel) {
    assert.ok(creates.length + deletes.length <= 1, "OrderedReady changed two pods at once");
    for (const k of creates) {
      for (const p of c.pods) {
        const o = ordinalOf("db", p.metadata?.name)!;
        if (o < k) assert.ok(healthy(p), `db-${k} created while db-${o} is not Ready`);
      }
    }
  }
  for (const k of creates) {
    const claim = `data-db-${k}`;
    assert.ok(claims.some((x) => x.metadata?.name === claim), `pod db-${k} without ${claim}`);
  }
  const next = applyPodPlan({ primary: c.set, pods: c.pods, clock: 0 }, { ops: podOps });
  return { set: next.primary, pods: [...next.pods], claims };
}

function converge(c: Cluster, a: SetArb, rounds = 60): Cluster {
  for (let i = 0; i < rounds; i++) {
    c = step(c, a);
    c = { ...c, pods: kubeletStep(c.pods, () => undefined) };
  }
  return c;
}

Deno.test("reconcileStatefulSet() converges to db-0..n-1 with their claims, in order, and a true status", () => {
  fc.assert(
    fc.property(setArb, (a) => {
      const c = converge({ set: sts(a), pods: [], claims: [] }, a);
      const names = c.pods.map((p) => p.metadata?.name).sort();
      assert.deepEqual(names, [...Array(a.replicas).keys()].map((i) => `db-${i}`).sort());
      for (let i = 0; i < a.replicas; i++) {
        assert.ok(c.claims.some((x) => x.metadata?.name === `data-db-${i}`));
        const pod = c.pods.find((p) => p.metadata?.name === `db-${i}`)!;
        assert.equal(pod.spec?.hostname, `db-${i}`);
        assert.equal(pod.spec?.subdomain, "db");
        assert.equal(pod.spec?.volumes?.[0]?.persistentVolumeClaim?.claimName, `data-db-${i}`);
      }
      const s = c.set.status!;
      assert.deepEqual(
        [s.replicas, s.readyReplicas, s.updatedReplicas, s.currentReplicas, s.observedGeneration],
        [a.replicas, a.replicas, a.replicas, a.replicas, 1],
      );
      assert.equal(s.currentRevision, s.updateRevision);
      assert.deepEqual(plan(c).ops, []);
    }),
    { numRuns: 100 },
  );
});

Deno.test("reconcileStatefulSet() scales down from the highest ordinal, keeping or deleting claims as the policy says", () => {
  fc.assert(
    fc.property(setArb, fc.integer({ min: 0, max: 5 }), (a, to) => {
      let c = converge({ set: sts(a), pods: [], claims: [] }, a);
      const down = { ...a, replicas: Math.min(to, a.replicas) };
      c = { ...c, set: { ...c.set, spec: { ...c.set.spec!, replicas: down.replicas } } };
      c = converge(c, down);
      assert.deepEqual(
        c.pods.map((p) => p.metadata?.name).sort(),
        [...Array(down.replicas).keys()].map((i) => `db-${i}`).sort(),
      );
      const claims = c.claims.length;
      assert.equal(claims, a.whenScaled === "Delete" ? down.replicas : a.replicas);
    }),
    { numRuns: 100 },
  );
});

Deno.test("reconcileStatefulSet() rolls a new template out from the top down to the partition", () => {
  fc.assert(
    fc.property(setArb, (a) => {
      let c = converge({ set: sts(a), pods: [], claims: [] }, a);
      const before = new Map(
        c.pods.map((p) => [p.metadata?.name, p.metadata?.labels?.[REVISION_HASH_LABEL]]),
      );
      c = { ...c, set: { ...sts(a, "pg:2", 2), status: c.set.status } };
      c = converge(c, a);
      const s = c.set.status!;
      for (const p of c.pods) {
        const i = ordinalOf("db", p.metadata?.name)!;
        const rev = p.metadata?.labels?.[REVISION_HASH_LABEL];
        if (i >= a.partition) assert.equal(rev, s.updateRevision, `db-${i} not updated`);
        else assert.equal(rev, before.get(p.metadata?.name), `db-${i} below the partition changed`);
      }
      const updated = Math.max(0, a.replicas - a.partition);
      assert.equal(s.updatedReplicas, updated);
      assert.equal(s.currentRevision === s.updateRevision, updated === a.replicas);
    }),
    { numRuns: 100 },
  );
});

Deno.test("reconcileStatefulSet() gives claims an owner reference to the set under whenDeleted: Delete, and takes it back", () => {
  const a: SetArb = { replicas: 2, parallel: true, partition: 0, whenScaled: "Retain" };
  const withPolicy = (s: StatefulSet, whenDeleted: "Retain" | "Delete"): StatefulSet => ({
    ...s,
    spec: {
      ...s.spec!,
      persistentVolumeClaimRetentionPolicy: { whenScaled: "Retain", whenDeleted },
    },
  });
  let c: Cluster = { set: withPolicy(sts(a), "Delete"), pods: [], claims: [] };
  c = converge(c, a, 4);
  const owners = (x: PersistentVolumeClaim) =>
    (x.metadata?.ownerReferences ?? []).map((r) => r.uid);
  assert.deepEqual(c.claims.map(owners), [[UID], [UID]]);
  assert.ok(c.claims.every((x) => x.metadata?.ownerReferences?.[0].controller === undefined));
  c = { ...c, set: withPolicy(c.set, "Retain") };
  const p = plan(c);
  const patched = p.ops.filter((o) => o.type === "patch");
  assert.equal(patched.length, 2);
  for (const o of patched) {
    assert.deepEqual((o as { patch: unknown }).patch, { metadata: { ownerReferences: [] } });
  }
});
