import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { crc32 } from "../../../lib/apiserver/persistence/crc32.ts";

Deno.test("crc32() matches the standard check value of 123456789", () => {
  assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  assert.equal(crc32(new Uint8Array()), 0);
});

Deno.test("crc32() changes when any single bit of the input flips", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 200 }),
      fc.nat(),
      fc.integer({ min: 0, max: 7 }),
      (bytes, at, bit) => {
        const flipped = bytes.slice();
        flipped[at % bytes.length] ^= 1 << bit;
        assert.notEqual(crc32(flipped), crc32(bytes));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("crc32() over a range equals crc32() of the sliced bytes", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 100 }), fc.nat(), fc.nat(), (bytes, a, b) => {
      const [s, e] = [a % (bytes.length + 1), b % (bytes.length + 1)].sort((x, y) => x - y);
      assert.equal(crc32(bytes, s, e), crc32(bytes.slice(s, e)));
    }),
    { numRuns: 200 },
  );
});
