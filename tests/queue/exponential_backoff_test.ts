import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { exponentialBackoff } from "../../mod.ts";

Deno.test("exponentialBackoff() defaults to 5 ms doubling up to 1,000 s", () => {
  const b = exponentialBackoff();
  const delays = [0, 1, 2, 3, 10].map((n) => b.step(null, n, 0)[0]);
  assert.deepEqual(delays, [5, 10, 20, 40, 5120]);
  assert.equal(b.step(null, 17, 0)[0], 655_360);
  assert.equal(b.step(null, 18, 0)[0], 1_000_000);
  assert.equal(b.step(null, 5000, 0)[0], 1_000_000);
});

Deno.test("exponentialBackoff() waits base * 2^failures capped at max, whatever the time", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 10_000 }),
      fc.integer({ min: 0, max: 10_000_000 }),
      fc.integer({ min: 0, max: 2000 }),
      fc.double({ min: -1e12, max: 1e12, noNaN: true }),
      (baseMs, extra, failures, nowMs) => {
        const maxMs = baseMs + extra;
        const [delay, state] = exponentialBackoff({ baseMs, maxMs }).step(null, failures, nowMs);
        const doubled = failures > 1100 ? Infinity : baseMs * Math.pow(2, failures);
        assert.equal(delay, baseMs === 0 ? 0 : Math.min(maxMs, doubled));
        assert.ok(delay >= 0 && delay <= maxMs);
        assert.equal(state, null);
      },
    ),
  );
});

Deno.test("exponentialBackoff() never shortens the delay as failures grow", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1100 }), (n) => {
      const b = exponentialBackoff();
      assert.ok(b.step(null, n + 1, 0)[0] >= b.step(null, n, 0)[0]);
    }),
  );
});

Deno.test("exponentialBackoff() rejects a negative base or a max below the base", () => {
  assert.throws(() => exponentialBackoff({ baseMs: -1 }), /baseMs must be >= 0, got -1/);
  assert.throws(() => exponentialBackoff({ baseMs: 10, maxMs: 5 }), /maxMs must be >= baseMs/);
});
