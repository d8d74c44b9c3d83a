import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { rollingBounds } from "../../../controllers/workloads/rolling_bounds.ts";

Deno.test("rollingBounds() rounds surge up and unavailable down, never both 0, unavailable at most replicas", () => {
  fc.assert(
    fc.property(fc.nat(200), fc.nat(100), fc.nat(100), (replicas, s, u) => {
      const r = rollingBounds(replicas, `${s}%`, `${u}%`);
      assert.ok(r._tag === "Right");
      const surge = Math.ceil((s * replicas) / 100);
      let unavailable = Math.floor((u * replicas) / 100);
      if (surge === 0 && unavailable === 0) unavailable = 1;
      assert.equal(r.right.maxSurge, surge);
      assert.equal(r.right.maxUnavailable, Math.min(unavailable, replicas));
      assert.ok(replicas === 0 || r.right.maxSurge + r.right.maxUnavailable > 0);
    }),
    { numRuns: 300 },
  );
});

Deno.test("rollingBounds() takes whole numbers as they are and defaults to 25% each", () => {
  assert.deepEqual(rollingBounds(10, 2, 0), {
    _tag: "Right",
    right: { maxSurge: 2, maxUnavailable: 0 },
  });
  assert.deepEqual(rollingBounds(3, undefined, undefined), {
    _tag: "Right",
    right: { maxSurge: 1, maxUnavailable: 0 },
  });
  assert.deepEqual(rollingBounds(2, 0, 5), {
    _tag: "Right",
    right: { maxSurge: 0, maxUnavailable: 2 },
  });
});

Deno.test("rollingBounds() rejects negative numbers and malformed percentages, naming the field", () => {
  const bad = rollingBounds(3, -1, 1);
  assert.ok(bad._tag === "Left" && bad.left.includes("spec.strategy.rollingUpdate.maxSurge"));
  const worse = rollingBounds(3, 1, "ten%");
  assert.ok(worse._tag === "Left" && worse.left.includes("maxUnavailable"));
});
