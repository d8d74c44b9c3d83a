import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { backoffDelay } from "../../lib/client/backoff_delay.ts";

Deno.test("backoffDelay() stays within [d, d·(1+jitter)] of the capped exponential d", () => {
  fc.assert(fc.property(
    fc.nat({ max: 100 }),
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    (attempt, random, jitter) => {
      const d = Math.min(30_000, 800 * 2 ** attempt);
      const got = backoffDelay(attempt, random, { jitter });
      assert.ok(got >= d && got <= d * (1 + jitter) + 1e-9, `${got} vs ${d}`);
    },
  ));
});

Deno.test("backoffDelay() grows with the attempt until the cap", () => {
  fc.assert(fc.property(fc.nat({ max: 60 }), (attempt) => {
    assert.ok(backoffDelay(attempt + 1, 0) >= backoffDelay(attempt, 0));
  }));
  assert.equal(backoffDelay(0, 0), 800);
  assert.equal(backoffDelay(10, 0), 30_000);
});
