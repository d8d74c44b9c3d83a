import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { adaptiveCap, type AdaptiveCapState } from "../../lib/client/adaptive_cap.ts";

/** Books requests at the given times; returns the delays and the final state. */
function book(
  cap: ReturnType<typeof adaptiveCap>,
  times: readonly number[],
  from: AdaptiveCapState = cap.initial,
): { delays: number[]; state: AdaptiveCapState } {
  let state = from;
  const delays: number[] = [];
  for (const t of times) {
    const [d, next] = cap.take(state, t);
    delays.push(d);
    state = next;
  }
  return { delays, state };
}

const steady = (qps: number, fromMs: number, toMs: number) =>
  Array.from(
    { length: Math.round(((toMs - fromMs) * qps) / 1000) },
    (_, i) => fromMs + i * 1000 / qps,
  );

Deno.test("adaptiveCap() lets every request go at once while the server does not push back (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 1_000 }), { maxLength: 500 }), (gaps) => {
      let t = 0;
      const { delays } = book(adaptiveCap(), gaps.map((g) => t += g));
      assert.ok(delays.every((d) => d === 0));
    }),
  );
});

Deno.test("adaptiveCap() caps at half the measured rate after a pushback and paces requests to it", () => {
  const cap = adaptiveCap({ doublingMs: 1e12 }); // no recovery during this test
  const { state } = book(cap, steady(200, 0, 2_000)); // 200 requests/s
  const throttled = cap.throttle(state, 2_000);
  assert.equal(cap.capAt(throttled, 2_000), 100);
  // 50 requests at the same instant: a burst of 10 (a tenth of a second), then one per 10 ms.
  const { delays } = book(cap, Array(50).fill(2_000), throttled);
  assert.deepEqual(delays.slice(0, 1), [10]); // the pushback emptied the bucket
  for (let i = 1; i < delays.length; i++) {
    assert.ok(Math.abs(delays[i] - delays[i - 1] - 10) < 1e-9, `${i}: ${delays}`);
  }
});

Deno.test("adaptiveCap() doubles the cap every doublingMs without pushback and lifts it past twice the demand", () => {
  const cap = adaptiveCap({ doublingMs: 2_000 });
  const { state } = book(cap, steady(100, 0, 1_000));
  const s = cap.throttle(state, 1_000);
  assert.equal(cap.capAt(s, 1_000), 50);
  assert.equal(cap.capAt(s, 3_000), 100);
  assert.equal(cap.capAt(s, 4_000), 100 * Math.SQRT2);
  assert.equal(cap.capAt(s, 5_000), Infinity);
  assert.equal(cap.take(s, 5_000)[0], 0);
});

Deno.test("adaptiveCap() halves the cap on each pushback while capped, never below minQps (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ gap: fc.nat({ max: 3_000 }), throttle: fc.boolean() }), {
        maxLength: 300,
      }),
      fc.integer({ min: 1, max: 20 }),
      (steps, minQps) => {
        const cap = adaptiveCap({ minQps });
        let s = cap.initial;
        let t = 0;
        for (const step of steps) {
          t += step.gap;
          const before = cap.capAt(s, t);
          s = step.throttle ? cap.throttle(s, t) : cap.take(s, t)[1];
          const after = cap.capAt(s, t);
          assert.ok(after >= minQps, `cap ${after} < minQps ${minQps}`);
          if (step.throttle && before !== Infinity) {
            assert.ok(after <= Math.max(minQps, before / 2) + 1e-9, `${before} -> ${after}`);
          }
        }
      },
    ),
  );
});

Deno.test("adaptiveCap() never grants more than the cap allows plus its burst (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 500 }),
      fc.array(fc.nat({ max: 50 }), { minLength: 1, maxLength: 400 }),
      (rate, gaps) => {
        const cap = adaptiveCap({ doublingMs: 1e12 });
        const { state } = book(cap, steady(rate * 2, 0, 1_000));
        let s = cap.throttle(state, 1_000);
        const limit = cap.capAt(s, 1_000);
        let t = 1_000;
        const granted: number[] = [];
        for (const g of gaps) {
          t += g;
          const [d, next] = cap.take(s, t);
          granted.push(t + d);
          s = next;
        }
        const span = Math.max(...granted) - 1_000;
        assert.ok(
          granted.length <= (span * limit) / 1000 + Math.max(1, limit / 10) + 1e-6,
          `${granted.length} requests in ${span} ms at ${limit}/s`,
        );
      },
    ),
  );
});
