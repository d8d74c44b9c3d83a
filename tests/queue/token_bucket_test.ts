import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { tokenBucket, type TokenBucketState } from "../../mod.ts";

/** Steps the bucket at each time and returns when each reservation is due. */
function dueTimes(rate: number, burst: number, times: number[]): number[] {
  const bucket = tokenBucket({ ratePerSecond: rate, burst });
  let state: TokenBucketState = bucket.initial;
  return times.map((t) => {
    const [delay, next] = bucket.step(state, 0, t);
    state = next;
    assert.ok(delay >= 0);
    return t + delay;
  });
}

const arbTimes = fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 300 }).map((gaps) => {
  let t = 0;
  return gaps.map((g) => (t += g % 3 === 0 ? 0 : g));
});

Deno.test("tokenBucket() lets a full burst through at once, then one token per 1/rate s", () => {
  const due = dueTimes(10, 3, [0, 0, 0, 0, 0, 0]);
  assert.deepEqual(due, [0, 0, 0, 100, 200, 300]);
});

Deno.test("tokenBucket() refills with time but never beyond burst", () => {
  // After 10 s idle, only `burst` (2) tokens are there, not 100.
  const due = dueTimes(10, 2, [0, 0, 10_000, 10_000, 10_000]);
  assert.deepEqual(due, [0, 0, 10_000, 10_000, 10_100]);
});

Deno.test("tokenBucket() never has more than burst + rate * window due in any window", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 100 }),
      fc.integer({ min: 1, max: 20 }),
      arbTimes,
      (rate, burst, times) => {
        const due = dueTimes(rate, burst, times).sort((a, b) => a - b);
        for (let i = 0; i < due.length; i++) {
          for (let j = i; j < due.length; j++) {
            const allowed = burst + ((due[j] - due[i]) * rate) / 1000;
            assert.ok(
              j - i + 1 <= allowed + 1e-6,
              `${j - i + 1} due in window, allowed ${allowed}`,
            );
          }
        }
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("tokenBucket() delays a retry only when the bucket is empty", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }), (burst, n) => {
      const due = dueTimes(10, burst, Array(n).fill(1000));
      assert.equal(due.filter((d) => d === 1000).length, Math.min(n, burst));
      // The k-th retry past the burst waits k / rate seconds.
      due.slice(burst).forEach((d, k) => assert.ok(Math.abs(d - 1000 - (k + 1) * 100) < 1e-6));
    }),
  );
});

Deno.test("tokenBucket() treats a clock going back as standing still", () => {
  const due = dueTimes(1, 1, [1000, 500]);
  assert.deepEqual(due, [1000, 1500]);
});

Deno.test("tokenBucket() rejects a non-positive rate or a burst below 1", () => {
  assert.throws(() => tokenBucket({ ratePerSecond: 0 }), /ratePerSecond must be > 0, got 0/);
  assert.throws(() => tokenBucket({ burst: 0 }), /burst must be >= 1, got 0/);
});
