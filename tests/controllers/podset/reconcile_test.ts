import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  type PodSetContext,
  type PodSetWorld,
  reconcilePodSet,
} from "../../../controllers/podset/reconcile.ts";
import {
  type Condition,
  isPodReady,
  type Plan,
  type Reconciler,
  worldFromObjects,
} from "../../../mod.ts";
import { isPodFinished, podDeletionOrder } from "../../../controllers/podset/pod_state.ts";
import type { Pod, PodSet } from "../../../controllers/podset/types.ts";
import {
  applyPlan,
  type DeleteMode,
  makePod,
  makePodSet,
  NAME,
  podsArb,
  podSetArb,
  suffix,
  UID,
} from "./_model.ts";

const RUNS = { numRuns: 300 };

function run(ps: PodSet, pods: readonly Pod[], now = 1_000_000): Plan {
  const r = reconcilePodSet(ps, { pods: worldFromObjects<Pod>(pods) }, { now, nameSuffix: suffix });
  if (r._tag === "Left") throw new Error(`unexpected error: ${r.left.message}`);
  return r.right;
}

const ownedBy = (p: Pod) =>
  p.metadata?.ownerReferences?.some((r) => r.controller === true && r.uid === UID) ?? false;
const isActiveOwned = (p: Pod) => ownedBy(p) && !p.metadata?.deletionTimestamp && !isPodFinished(p);
const isValid = (ps: PodSet) =>
  (ps.spec.replicas ?? 1) >= 0 && ps.spec.selector !== undefined &&
  ps.spec.template.metadata?.labels?.app === "web" &&
  (ps.spec.template.spec.containers?.length ?? 0) > 0;
const conditionOf = (ps: PodSet, type: string): Condition | undefined =>
  ps.status?.conditions?.find((c) => c.type === type);

Deno.test("reconcilePodSet() reaches a fixpoint: the applied plan's result reconciles to an empty plan", () => {
  fc.assert(
    fc.property(
      podSetArb,
      podsArb,
      fc.constantFrom<DeleteMode>("mark", "remove"),
      fc.nat(100_000),
      (ps, pods, deleteMode, later) => {
        const plan = run(ps, pods);
        const next = applyPlan(ps, pods, plan, { now: 1_000_000, deleteMode });
        assert.deepEqual(run(next.podSet, next.pods, 1_000_000 + later).ops, []);
      },
    ),
    RUNS,
  );
});

Deno.test("reconcilePodSet() never touches pods it does not control, nor creates over an existing name", () => {
  fc.assert(
    fc.property(podSetArb, podsArb, (ps, pods) => {
      const plan = run(ps, pods);
      const owned = new Set(pods.filter(ownedBy).map((p) => p.metadata?.uid));
      const names = new Set(pods.map((p) => p.metadata?.name));
      for (const op of plan.ops) {
        if (op.type === "delete") {
          assert.ok(owned.has(op.ref.uid), `deleted foreign ${op.ref.name}`);
        }
        if (op.type === "create") assert.ok(!names.has(op.object.metadata?.name));
        assert.notEqual(op.type, "apply");
        assert.notEqual(op.type, "patch");
      }
    }),
    RUNS,
  );
});

Deno.test("reconcilePodSet() plans the fewest writes: missing creates, surplus plus finished deletes", () => {
  fc.assert(
    fc.property(podSetArb, podsArb, (ps, pods) => {
      const plan = run(ps, pods);
      const creates = plan.ops.filter((o) => o.type === "create").length;
      const deletes = plan.ops.filter((o) => o.type === "delete").length;
      const statuses = plan.ops.filter((o) => o.type === "status").length;
      assert.ok(statuses <= 1);
      if (!isValid(ps)) {
        assert.equal(creates + deletes, 0);
        return;
      }
      const r = ps.spec.replicas ?? 1;
      const active = pods.filter(isActiveOwned).length;
      const finished = pods.filter((p) =>
        ownedBy(p) && !p.metadata?.deletionTimestamp && isPodFinished(p)
      ).length;
      assert.equal(creates, Math.max(0, r - active));
      assert.equal(deletes, Math.max(0, active - r) + finished);
      assert.equal(plan.requeueAfterMs, undefined);
    }),
    RUNS,
  );
});

Deno.test("reconcilePodSet() reports the counts and names of the active owned pods after the plan", () => {
  fc.assert(
    fc.property(podSetArb, podsArb, (ps, pods) => {
      const plan = run(ps, pods);
      const next = applyPlan(ps, pods, plan, { now: 1_000_000, deleteMode: "mark" });
      const active = next.pods.filter(isActiveOwned);
      const status = next.podSet.status;
      assert.ok(status !== undefined);
      assert.equal(status.replicas, active.length);
      assert.equal(status.readyReplicas, active.filter(isPodReady).length);
      assert.deepEqual(status.podNames, active.map((p) => p.metadata?.name).sort());
      assert.equal(status.observedGeneration, ps.metadata?.generation);
      if (isValid(ps)) {
        assert.equal(status.replicas, ps.spec.replicas ?? 1);
        assert.equal(status.selector, "app=web");
        assert.equal(conditionOf(next.podSet, "Degraded")?.status, "False");
        const available = status.readyReplicas >= (ps.spec.replicas ?? 1);
        assert.equal(conditionOf(next.podSet, "Available")?.status, available ? "True" : "False");
      } else {
        assert.equal(conditionOf(next.podSet, "Degraded")?.status, "True");
        assert.match(
          conditionOf(next.podSet, "Degraded")?.message ?? "",
          /PodSet.* "web" is invalid/,
        );
      }
    }),
    RUNS,
  );
});

Deno.test("reconcilePodSet() scales down not-ready before ready, newest before oldest", () => {
  fc.assert(
    fc.property(podSetArb, podsArb, (ps, pods) => {
      const plan = run(ps, pods);
      const deleted = new Set(plan.ops.flatMap((o) => (o.type === "delete" ? [o.ref.uid] : [])));
      const active = pods.filter(isActiveOwned);
      const gone = active.filter((p) => deleted.has(p.metadata?.uid ?? ""));
      const kept = active.filter((p) => !deleted.has(p.metadata?.uid ?? ""));
      const age = (p: Pod) => {
        const t = p.metadata?.creationTimestamp;
        return t === undefined ? Infinity : Date.parse(t);
      };
      for (const g of gone) {
        for (const k of kept) {
          // Independent of podDeletionOrder: a ready pod never goes before a not-ready one,
          // and among equals an older pod never goes before a newer one.
          assert.ok(!(isPodReady(g) && !isPodReady(k)), "deleted a ready pod, kept a not-ready");
          if (isPodReady(g) === isPodReady(k)) assert.ok(age(g) >= age(k), "deleted older first");
          assert.ok(podDeletionOrder(g, k) < 0);
        }
      }
    }),
    RUNS,
  );
});

Deno.test("reconcilePodSet() plans the same names again over a stale cache (creates stay idempotent)", () => {
  fc.assert(
    fc.property(podSetArb, podsArb, (ps, pods) => {
      assert.deepEqual(run(ps, pods, 1), run(ps, pods, 1));
    }),
    { numRuns: 100 },
  );
});

Deno.test("reconcilePodSet() never throws on a malformed spec", () => {
  fc.assert(
    fc.property(fc.anything(), podsArb, (spec, pods) => {
      const ps = { ...makePodSet(1, "valid", undefined, 1), spec } as unknown as PodSet;
      const r = reconcilePodSet(ps, { pods: worldFromObjects<Pod>(pods) }, { now: 0 });
      assert.equal(r._tag, "Right");
    }),
    { numRuns: 200 },
  );
});

Deno.test("reconcilePodSet() creates named pods from the template with a controller owner reference", () => {
  const ps = makePodSet(2, "valid", undefined, 1);
  const plan = run(ps, []);
  const creates = plan.ops.flatMap((o) => (o.type === "create" ? [o.object] : []));
  assert.deepEqual(creates.map((o) => o.metadata?.name), [`${NAME}-s0`, `${NAME}-s1`]);
  assert.deepEqual(creates[0], {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "web-s0",
      namespace: "default",
      labels: { app: "web", tier: "fe" },
      ownerReferences: [{
        apiVersion: "app.example.com/v1alpha1",
        kind: "PodSet",
        name: "web",
        uid: UID,
        controller: true,
        blockOwnerDeletion: true,
      }],
    },
    spec: { containers: [{ name: "c", image: "nginx" }] },
  });
  assert.equal(plan.ops[plan.ops.length - 1].type, "status");
});

Deno.test("reconcilePodSet() skips candidate names held by foreign pods", () => {
  const foreign = makePod({
    name: "web-s0",
    owner: "none",
    ready: true,
    phase: "Running",
    terminating: false,
    created: 0,
    matches: true,
  });
  const plan = run(makePodSet(1, "valid", undefined, 1), [foreign]);
  const creates = plan.ops.flatMap((o) => (o.type === "create" ? [o.object.metadata?.name] : []));
  assert.deepEqual(creates, ["web-s1"]);
});

Deno.test("reconcilePodSet() reports an invalid spec as Degraded with a message and writes nothing else", () => {
  const ps = makePodSet(1, "negative", undefined, 4);
  const plan = run(ps, []);
  assert.equal(plan.ops.length, 1);
  const op = plan.ops[0];
  assert.equal(op.type, "status");
  if (op.type !== "status") return;
  const degraded = (op.status.conditions as unknown as Condition[]).find((c) =>
    c.type === "Degraded"
  );
  assert.equal(degraded?.status, "True");
  assert.equal(degraded?.reason, "InvalidSpec");
  assert.match(degraded?.message ?? "", /spec\.replicas: Invalid value: -2/);
  assert.equal(degraded?.observedGeneration, 4);
});

Deno.test("reconcilePodSet() keeps lastTransitionTime while a condition's status holds", () => {
  const ps = makePodSet(0, "valid", undefined, 1);
  const first = applyPlan(ps, [], run(ps, [], 1000), { now: 1000, deleteMode: "mark" });
  const scaled = { ...first.podSet, spec: { ...first.podSet.spec, replicas: 1 } };
  const second = applyPlan(scaled, [], run(scaled, [], 9000), { now: 9000, deleteMode: "mark" });
  assert.equal(conditionOf(first.podSet, "Degraded")?.lastTransitionTime, "1970-01-01T00:00:01Z");
  assert.equal(conditionOf(second.podSet, "Degraded")?.lastTransitionTime, "1970-01-01T00:00:01Z");
  assert.equal(conditionOf(second.podSet, "Available")?.lastTransitionTime, "1970-01-01T00:00:09Z");
});

Deno.test("reconcilePodSet() fails with a terminal error for a PodSet without uid", () => {
  const ps = makePodSet(1, "valid", undefined, 1);
  const r = reconcilePodSet(
    { ...ps, metadata: { name: "web", namespace: "default" } },
    { pods: worldFromObjects<Pod>([]) },
    { now: 0 },
  );
  assert.equal(r._tag, "Left");
  if (r._tag === "Left") assert.equal(r.left.type, "terminal");
});

Deno.test("reconcilePodSet() is a Reconciler over PodSets, a pod world and a context", () => {
  const r: Reconciler<PodSet, PodSetWorld, PodSetContext> = reconcilePodSet;
  assert.equal(typeof r, "function");
});
