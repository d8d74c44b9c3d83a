import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { TestScheduler } from "../../../lib/testing/deps.ts";
import { controller, E, worldFromObjects } from "../../../mod.ts";
import { scaledClock } from "../../../lib/cluster/mod.ts";
import { onClock } from "../../../controllers/workloads/on_clock.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";
import {
  reconcileReplicationController,
  type ReplicationController,
} from "../../../controllers/workloads/reconcile_replication_controller.ts";
import { applyPodPlan, kubeletStep, type PodCluster } from "./_pod_model.ts";

Deno.test("scaledClock() runs virtual time speed times faster from startMs, and schedules in virtual ms", () => {
  const real = new TestScheduler(() => {});
  const clock = scaledClock({ startMs: 1_000_000, speed: 600, scheduler: real });
  const fired: number[] = [];
  real.run(() => {
    assert.equal(clock.now(), 1_000_000);
    clock.schedule(() => void fired.push(clock.now()), 60_000); // a virtual minute
    real.schedule(() => assert.equal(clock.now(), 1_000_000 + 600 * 50), 50);
  });
  assert.deepEqual(fired, [1_060_000]);
  assert.equal(clock.realMs(60_000), 100);
  assert.throws(() => scaledClock({ speed: 0 }), /speed must be a positive number/);
});

Deno.test("onClock() gives the reconciler the clock's time and converts its requeue to real ms", () => {
  const real = new TestScheduler(() => {});
  const clock = scaledClock({ startMs: 5_000, speed: 10, scheduler: real });
  const seen: number[] = [];
  const spec = controller({
    name: "t",
    for: { apiVersion: "v1", kind: "ConfigMap" },
    reconcile: (_p, _w, ctx) => {
      seen.push(ctx.now);
      return E.right({ ops: [], requeueAfterMs: 60_000 });
    },
  });
  const r = onClock(spec, clock).reconcile({}, undefined as never, { now: 0 });
  assert.deepEqual(seen, [5_000]);
  assert.ok(E.isRight(r) && r.right.requeueAfterMs === 6_000);
  assert.equal(onClock(spec, undefined), spec);
});

Deno.test("reconcileReplicationController() keeps spec.replicas pods it owns as a ReplicationController", () => {
  fc.assert(
    fc.property(fc.nat(5), fc.nat(5), (first, second) => {
      const rc = (replicas: number): ReplicationController => ({
        apiVersion: "v1",
        kind: "ReplicationController",
        metadata: { namespace: "d", name: "web", uid: "rc-uid", generation: 1 },
        spec: {
          replicas,
          selector: { app: "web" },
          template: {
            metadata: { labels: { app: "web" } },
            spec: { containers: [{ name: "c", image: "i" }] },
          },
        },
      });
      let c: PodCluster<ReplicationController> = { primary: rc(first), pods: [], clock: 0 };
      for (const replicas of [first, second]) {
        c = { ...c, primary: { ...rc(replicas), status: c.primary.status } };
        for (let i = 0; i < 4; i++) {
          const r = reconcileReplicationController(c.primary, {
            pods: worldFromObjects<Pod>(c.pods),
          }, { now: 0 });
          assert.ok(E.isRight(r));
          c = applyPodPlan(c, r.right);
          c = { ...c, pods: kubeletStep(c.pods, () => undefined) };
        }
        assert.equal(c.pods.length, replicas);
        assert.ok(
          c.pods.every((p) => p.metadata?.ownerReferences?.[0].kind === "ReplicationController"),
        );
        assert.equal(
          (c.primary as { status?: { readyReplicas?: number } }).status?.readyReplicas,
          replicas,
        );
      }
    }),
    { numRuns: 100 },
  );
});
