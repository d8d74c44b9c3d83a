import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { fastSlow } from "../../mod.ts";

Deno.test("fastSlow() uses the fast delay for the first maxFastAttempts retries, then the slow one", () => {
  fc.assert(
    fc.property(
      fc.nat(1000),
      fc.nat(100_000),
      fc.nat(20),
      fc.nat(40),
      (fastMs, slowMs, maxFastAttempts, failures) => {
        const [delay] = fastSlow({ fastMs, slowMs, maxFastAttempts }).step(null, failures, 0);
        assert.equal(delay, failures < maxFastAttempts ? fastMs : slowMs);
      },
    ),
  );
});

Deno.test("fastSlow() defaults to 5 fast retries of 5 ms, then 10 s", () => {
  const l = fastSlow();
  assert.deepEqual([0, 4, 5].map((n) => l.step(null, n, 0)[0]), [5, 5, 10_000]);
});

Deno.test("fastSlow() rejects negative options, naming the option", () => {
  assert.throws(() => fastSlow({ slowMs: -1 }), /slowMs must be >= 0, got -1/);
});
