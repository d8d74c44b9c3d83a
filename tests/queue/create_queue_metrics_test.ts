import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { rx } from "../../lib/deps.ts";
import { createQueueMetrics } from "../../mod.ts";

Deno.test("createQueueMetrics() uses controller-runtime's buckets, 1e-8 s to 1,000 s", () => {
  const bounds = createQueueMetrics().snapshot().workDurationSeconds.bounds;
  assert.deepEqual(bounds, [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000]);
});

Deno.test("createQueueMetrics() keeps cumulative bucket counts that end at most at the total", () => {
  fc.assert(
    fc.property(fc.array(fc.nat(5_000_000)), (durationsMs) => {
      const m = createQueueMetrics();
      durationsMs.forEach((ms, i) => {
        m.started(`k${i}`, 0, 0);
        m.finished(`k${i}`, ms);
      });
      const h = m.snapshot().workDurationSeconds;
      assert.equal(h.count, durationsMs.length);
      h.counts.forEach((c, i) => {
        assert.equal(c, durationsMs.filter((ms) => ms / 1000 <= h.bounds[i]).length);
      });
    }),
    { numRuns: 50 },
  );
});

Deno.test("createQueueMetrics() reports the age of runs in progress on its clock", () => {
  const clock = new rx.VirtualTimeScheduler();
  const m = createQueueMetrics({ scheduler: clock });
  m.started("a", 0, 0);
  clock.schedule(() => m.started("b", 0, clock.now()), 1000);
  clock.schedule(() => {}, 3000);
  clock.flush();
  const s = m.snapshot();
  assert.equal(s.unfinishedWorkSeconds, 5);
  assert.equal(s.longestRunningProcessorSeconds, 3);
  m.finished("a", 3000);
  assert.equal(m.snapshot().longestRunningProcessorSeconds, 2);
});
