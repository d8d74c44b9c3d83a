import assert from "node:assert/strict";
import { statusBatcher } from "../../lib/apply/status_batcher.ts";
import type { ObjectRef, Op, PlanOutcome } from "../../mod.ts";

const primary: ObjectRef = { apiVersion: "apps/v1", kind: "Deployment", namespace: "d", name: "p" };
const create: Op = {
  type: "create",
  object: { apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "d", name: "c" } },
};
const status: Op = { type: "status", ref: primary, status: { replicas: 1 } };
const created = (rv: string): PlanOutcome => ({
  outcomes: [{
    type: "done",
    op: create,
    object: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { namespace: "d", name: "c", resourceVersion: rv },
    },
  }],
  failed: false,
  conflict: false,
});

function setup() {
  let cacheRv = "0";
  const woken: string[] = [];
  const b = statusBatcher({ batchMs: 100, cacheRv: () => cacheRv, wake: (k) => woken.push(k) });
  const statusGoesOut = (now: number) =>
    b.decide("d/p", { ops: [status] }, primary, now).plan.ops.length === 1;
  return { b, woken, statusGoesOut, setCacheRv: (rv: string) => void (cacheRv = rv) };
}

Deno.test("status batcher: after the window, a status waits for the caches to reach the controller's own latest child write", () => {
  const { b, statusGoesOut, setCacheRv } = setup();
  const first = b.decide("d/p", { ops: [create, status] }, primary, 0);
  assert.deepEqual(first.plan.ops, [create]);
  assert.equal(first.retryAfterMs, 100);
  b.wrote(created("10"));
  setCacheRv("9");
  assert.equal(statusGoesOut(50), false, "inside the window");
  assert.equal(statusGoesOut(100), false, "window over, cache behind rv 10");
  // Later writes do not move the point the closed window waits for.
  b.wrote(created("50"));
  setCacheRv("10");
  assert.equal(statusGoesOut(120), true);
});

Deno.test("status batcher: a cache that never catches up delays status by at most maxHold (1 s)", () => {
  const { b, statusGoesOut, setCacheRv } = setup();
  b.decide("d/p", { ops: [create, status] }, primary, 0);
  b.wrote(created("10"));
  setCacheRv("3");
  assert.equal(statusGoesOut(999), false);
  assert.equal(statusGoesOut(1_000), true);
});

Deno.test("status batcher: non-integer resourceVersions count as caught up", () => {
  const { b, statusGoesOut, setCacheRv } = setup();
  b.decide("d/p", { ops: [create, status] }, primary, 0);
  b.wrote(created("10"));
  setCacheRv("abc");
  assert.equal(statusGoesOut(100), true);
});

Deno.test("status batcher: a key held for a lagging cache is woken once the cache catches up", async () => {
  const { b, woken, statusGoesOut, setCacheRv } = setup();
  b.decide("d/p", { ops: [create, status] }, primary, 0);
  b.wrote(created("10"));
  setCacheRv("9");
  assert.equal(statusGoesOut(100), false);
  b.cacheAdvanced();
  await Promise.resolve();
  assert.deepEqual(woken, [], "still behind");
  setCacheRv("10");
  b.cacheAdvanced();
  b.cacheAdvanced(); // one scan per turn
  await Promise.resolve();
  assert.deepEqual(woken, ["d/p"]);
  b.cacheAdvanced();
  await Promise.resolve();
  assert.deepEqual(woken, ["d/p"], "woken once");
});
