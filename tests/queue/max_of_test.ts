import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  defaultRateLimiter,
  exponentialBackoff,
  fastSlow,
  maxOf,
  type RateLimiter,
  tokenBucket,
} from "../../mod.ts";

const parts: RateLimiter[] = [
  exponentialBackoff({ baseMs: 1, maxMs: 60_000 }),
  fastSlow({ fastMs: 2, slowMs: 500, maxFastAttempts: 3 }),
  tokenBucket({ ratePerSecond: 5, burst: 4 }),
];

Deno.test("maxOf() waits the longest of its parts' delays and steps every part", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.nat(30), fc.nat(1000)), { maxLength: 60 }),
      (steps) => {
        const combined = maxOf(...parts);
        let state = combined.initial;
        let separate = parts.map((p) => p.initial);
        let now = 0;
        for (const [failures, gap] of steps) {
          now += gap;
          const [delay, next] = combined.step(state, failures, now);
          const each = parts.map((p, i) => p.step(separate[i], failures, now));
          assert.equal(delay, Math.max(...each.map(([d]) => d)));
          assert.deepEqual(next, each.map(([, s]) => s));
          state = next;
          separate = each.map(([, s]) => s);
        }
      },
    ),
  );
});

Deno.test("maxOf() of nothing never delays", () => {
  assert.deepEqual(maxOf().step(maxOf().initial, 7, 0), [0, []]);
});

Deno.test("defaultRateLimiter() is backoff from 5 ms, and the bucket only bites past 100 retries", () => {
  const l = defaultRateLimiter();
  let state = l.initial;
  const delays: number[] = [];
  for (let i = 0; i < 101; i++) {
    const [d, next] = l.step(state, 0, 0);
    delays.push(d);
    state = next;
  }
  assert.ok(delays.slice(0, 100).every((d) => d === 5));
  assert.equal(delays[100], 100);
  assert.equal(l.step(l.initial, 30, 0)[0], 1_000_000);
});
