import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { rollingBounds } from "../../../controllers/workloads/rolling_bounds.ts";
import {
  POD_TEMPLATE_HASH_LABEL,
  podTemplateHash,
} from "../../../controllers/workloads/pod_template_hash.ts";
import type { ReplicaSet } from "../../../controllers/workloads/reconcile_replica_set.ts";
import {
  apply,
  type Cluster,
  deployment,
  plan,
  type StrategyArb,
  tick,
  totalAvailable,
  totalSpec,
  withImage,
} from "./_deployment_model.ts";

const REV = "deployment.kubernetes.io/revision";
const bound = fc.oneof(
  fc.constant(undefined),
  fc.nat(3),
  fc.constantFrom("0%", "10%", "25%", "50%", "100%"),
);
const strategyArb: fc.Arbitrary<StrategyArb> = fc.oneof(
  fc.constant({ type: "Recreate" as const }),
  fc.record({ maxSurge: bound, maxUnavailable: bound }).map((b) => ({
    type: "RollingUpdate" as const,
    ...(b.maxSurge !== undefined ? { maxSurge: b.maxSurge } : {}),
    ...(b.maxUnavailable !== undefined ? { maxUnavailable: b.maxUnavailable } : {}),
  })),
);
const historyArb = fc.array(fc.record({ image: fc.nat(3), steps: fc.nat(4) }), { maxLength: 4 });

const hashOf = (rs: ReplicaSet) => rs.spec?.template?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL];
const newSet = (c: Cluster) =>
  c.sets.find((s) => hashOf(s) === podTemplateHash(c.d.spec?.template));

/** One reconcile-apply step, checking the rollout invariants across it. */
function step(c: Cluster, strategy: StrategyArb): Cluster {
  const r = c.d.spec?.replicas ?? 1;
  const next = apply(c, plan(c));
  if (strategy.type === "RollingUpdate") {
    const b = rollingBounds(r, strategy.maxSurge, strategy.maxUnavailable);
    assert.ok(b._tag === "Right");
    assert.ok(
      totalSpec(next) <= Math.max(totalSpec(c), r + b.right.maxSurge),
      `more than replicas + maxSurge pods: ${totalSpec(c)} -> ${totalSpec(next)}`,
    );
    const floor = Math.min(totalAvailable(c), r - b.right.maxUnavailable);
    assert.ok(totalAvailable(next) >= floor, `fewer than replicas - maxUnavailable available`);
  } else {
    const mine = newSet(next);
    if ((mine?.spec?.replicas ?? 0) > 0) {
      for (const s of next.sets) if (s !== mine) assert.equal(s.status?.replicas ?? 0, 0);
    }
  }
  return next;
}

/** Steps until the plan is empty, every pending pod turning available before each step. */
function converge(c: Cluster, strategy: StrategyArb, limit: number): Cluster {
  for (let i = 0; i < limit; i++) {
    c = tick(c, () => 100);
    if (plan(c).ops.length === 0) return c;
    c = step(c, strategy);
  }
  assert.deepEqual(plan(c).ops, [], `no fixpoint within ${limit} steps`);
  return c;
}

Deno.test("reconcileDeployment() keeps rollouts within maxSurge/maxUnavailable and converges to a complete Deployment", () => {
  fc.assert(
    fc.property(
      fc.nat(6),
      strategyArb,
      fc.option(fc.nat(3), { nil: undefined }),
      historyArb,
      fc.array(fc.nat(2), { minLength: 1, maxLength: 5 }),
      (replicas, strategy, limit, history, gains) => {
        let c: Cluster = { d: deployment(replicas, strategy, limit), sets: [], clock: 0 };
        for (const h of history) {
          c = { ...c, d: withImage(c.d, `v${h.image}`) };
          for (let i = 0; i < h.steps; i++) {
            c = tick(step(c, strategy), (k) => gains[(i + k) % gains.length]);
          }
        }
        c = converge(c, strategy, 80);
        const mine = newSet(c);
        assert.ok(mine, "no ReplicaSet for the current template");
        assert.equal(mine.spec?.replicas, replicas);
        assert.equal(mine.metadata?.name, `web-${podTemplateHash(c.d.spec?.template)}`);
        const olds = c.sets.filter((s) => s !== mine);
        for (const s of olds) {
          assert.equal(s.spec?.replicas, 0);
          assert.ok(
            Number(s.metadata?.annotations?.[REV]) < Number(mine.metadata?.annotations?.[REV]),
          );
        }
        assert.ok(olds.length <= (limit ?? 10));
        assert.equal(c.d.metadata?.annotations?.[REV], mine.metadata?.annotations?.[REV]);
        const s = c.d.status;
        assert.equal(s?.observedGeneration, c.d.metadata?.generation);
        assert.equal(s?.replicas, replicas);
        assert.equal(s?.updatedReplicas, replicas);
        assert.equal(s?.availableReplicas, replicas);
        assert.equal(s?.unavailableReplicas, 0);
        const progressing = s?.conditions?.find((x) => x.type === "Progressing");
        assert.equal(progressing?.reason, "NewReplicaSetAvailable");
        assert.equal(s?.conditions?.find((x) => x.type === "Available")?.status, "True");
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("reconcileDeployment() rolls 4 replicas with maxSurge 1 and maxUnavailable 0 one pod at a time", () => {
  const strategy: StrategyArb = { type: "RollingUpdate", maxSurge: 1, maxUnavailable: 0 };
  let c = converge({ d: deployment(4, strategy, undefined), sets: [], clock: 0 }, strategy, 20);
  c = { ...c, d: withImage(c.d, "v1") };
  const sizes: string[] = [];
  for (let i = 0; i < 40 && plan(c).ops.length > 0; i++) {
    c = tick(step(c, strategy), () => 100);
    sizes.push(c.sets.map((s) => s.spec?.replicas).join("/"));
  }
  assert.deepEqual([...new Set(sizes)], ["4/1", "3/1", "3/2", "2/2", "2/3", "1/3", "1/4", "0/4"]);
});

Deno.test("reconcileDeployment() creates no ReplicaSet for a new template while paused, and resumes after", () => {
  const strategy: StrategyArb = { type: "RollingUpdate" };
  let c = converge({ d: deployment(3, strategy, undefined), sets: [], clock: 0 }, strategy, 20);
  const d = withImage(c.d, "v1");
  c = { ...c, d: { ...d, spec: { ...d.spec!, paused: true } } };
  const paused = plan(c);
  assert.ok(paused.ops.every((o) => o.type === "status"));
  c = apply(c, paused);
  const progressing = c.d.status?.conditions?.find((x) => x.type === "Progressing");
  assert.equal(progressing?.reason, "DeploymentPaused");
  c = { ...c, d: { ...c.d, spec: { ...c.d.spec!, paused: false } } };
  c = converge(c, strategy, 40);
  assert.equal(c.sets.length, 2);
  assert.equal(newSet(c)?.spec?.replicas, 3);
});

Deno.test("reconcileDeployment() rejects an invalid maxSurge, naming the field", () => {
  const c: Cluster = {
    d: deployment(3, { type: "RollingUpdate", maxSurge: "lots" }, undefined),
    sets: [],
    clock: 0,
  };
  assert.throws(() => plan(c), /spec\.strategy\.rollingUpdate\.maxSurge/);
});
