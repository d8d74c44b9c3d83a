import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { adaptiveBucket, retryAfterDelayMs } from "../../lib/client/adaptive_bucket.ts";

const gaps = fc.array(fc.nat({ max: 2000 }), { maxLength: 200 });

Deno.test("adaptiveBucket() never lets more than burst + qps·t requests start within t ms", () => {
  fc.assert(
    fc.property(
      gaps,
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 1, max: 40 }),
      (steps, qps, burst) => {
        const b = adaptiveBucket({ qps, burst });
        let s = b.initial;
        let now = 0;
        const starts: number[] = [];
        for (const gap of steps) {
          now += gap;
          const [delay, next] = b.take(s, now);
          assert.ok(delay >= 0);
          s = next;
          starts.push(now + delay);
        }
        starts.sort((a, b) => a - b);
        for (let i = 0; i < starts.length; i++) {
          for (let j = i; j < starts.length; j++) {
            const window = starts[j] - starts[i];
            assert.ok(
              j - i + 1 <= burst + (qps * window) / 1000 + 1e-6,
              `${j - i + 1} in ${window} ms`,
            );
          }
        }
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("adaptiveBucket() grants a full burst at once after idling", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 60 }), (qps, burst) => {
      const b = adaptiveBucket({ qps, burst });
      let s = b.initial;
      for (let i = 0; i < burst; i++) {
        const [delay, next] = b.take(s, 1000);
        assert.equal(delay, 0);
        s = next;
      }
      assert.ok(b.take(s, 1000)[0] > 0);
    }),
  );
});

Deno.test("adaptiveBucket() halves the rate when throttled, never pauses the bucket, then recovers to qps", () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 100 }), (qps) => {
      const b = adaptiveBucket({ qps, burst: 10, minQps: 1, recoverMs: 30_000 });
      const throttled = b.throttle(b.initial, 0);
      assert.equal(throttled.qps, Math.max(1, qps / 2));
      const [delay, after] = b.take(throttled, 0);
      assert.ok(delay <= 1000 / throttled.qps + 1e-9, `one token's wait at most, got ${delay}`);
      const [, recovered] = b.take(after, 60_000);
      assert.equal(recovered.qps, qps);
    }),
  );
});

Deno.test("retryAfterDelayMs() honours Retry-After for one request, capped, never below the backoff", () => {
  fc.assert(
    fc.property(
      fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
      fc.integer({ min: 0, max: 5_000 }),
      fc.integer({ min: 1, max: 60_000 }),
      (seconds, floor, cap) => {
        const d = retryAfterDelayMs(seconds, floor, cap);
        assert.ok(d >= floor);
        assert.ok(d <= Math.max(floor, cap));
        if (seconds !== undefined) assert.equal(d, Math.max(floor, Math.min(seconds * 1000, cap)));
      },
    ),
  );
  assert.equal(retryAfterDelayMs(30, 200), 10_000, "Retry-After: 30 waits the 10 s cap");
});

Deno.test("adaptiveBucket() keeps the rate within [minQps, qps] under any throttling", () => {
  fc.assert(fc.property(
    fc.array(fc.record({ gap: fc.nat({ max: 5000 }), throttle: fc.boolean() }), { maxLength: 100 }),
    (ops) => {
      const b = adaptiveBucket({ qps: 20, burst: 30, minQps: 2 });
      let s = b.initial;
      let now = 0;
      for (const op of ops) {
        now += op.gap;
        s = op.throttle ? b.throttle(s, now) : b.take(s, now)[1];
        assert.ok(s.qps >= 2 && s.qps <= 20, `qps ${s.qps}`);
      }
    },
  ));
});

Deno.test("adaptiveBucket() rejects a zero rate", () => {
  assert.throws(() => adaptiveBucket({ qps: 0 }), /qps > 0/);
});
