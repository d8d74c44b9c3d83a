import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { createRateLimiter, defaultRateLimiter, exponentialBackoff } from "../../mod.ts";

Deno.test("createRateLimiter() counts failures per key and forget() resets only that key", () => {
  const l = createRateLimiter(exponentialBackoff());
  assert.deepEqual([l.when("a", 0), l.when("a", 0), l.when("b", 0), l.when("a", 0)], [
    5,
    10,
    5,
    20,
  ]);
  l.forget("a");
  assert.equal(l.retries("a"), 0);
  assert.equal(l.retries("b"), 1);
  assert.equal(l.when("a", 0), 5);
  assert.equal(l.when("b", 0), 10);
});

Deno.test("createRateLimiter() gives the delays of folding the pure limiter by hand", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.boolean(), fc.nat(50)), {
        maxLength: 200,
      }),
      (ops) => {
        const pure = defaultRateLimiter();
        const keyed = createRateLimiter(pure);
        let state = pure.initial;
        const counts = new Map<string, number>();
        let now = 0;
        for (const [key, fail, gap] of ops) {
          now += gap;
          if (!fail) {
            keyed.forget(key);
            counts.delete(key);
            continue;
          }
          const [expected, next] = pure.step(state, counts.get(key) ?? 0, now);
          state = next;
          counts.set(key, (counts.get(key) ?? 0) + 1);
          assert.equal(keyed.when(key, now), expected);
          assert.equal(keyed.retries(key), counts.get(key));
        }
      },
    ),
  );
});
