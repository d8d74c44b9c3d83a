/**
 * Canonical quantities, against apimachinery's own expectations (`pkg/api/resource/
 * quantity_test.go`: `TestQuantityString` alternates and `TestQuantityParseEmit`).
 */
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { canonicalQuantity } from "../../../lib/apiserver/defaults/canonical_quantity.ts";

const cases: [string, string][] = [
  // TestQuantityString: an alternate spelling parses to the canonical one.
  ["1024Mi", "1Gi"],
  ["307200Ki", "300Mi"],
  ["1025024Mi", "1001Gi"],
  ["1024Gi", "1Ti"],
  ["5000m", "5"],
  ["0.5", "500m"],
  ["1000M", "1G"],
  ["0.001T", "1G"],
  ["1000u", "1m"],
  ["1.08", "1080m"],
  ["1080000000n", "1080m"],
  [".001e12", "1e9"],
  ["0.001e0", "1e-3"],
  ["1000e-12", "1e-9"],
  ["00", "0"],
  ["6Ki", "6Ki"],
  ["1025", "1025"],
  ["80m", "80m"],
  ["300e6", "300e6"],
  ["1234567M", "1234567M"],
  // TestQuantityParseEmit
  ["1Ki", "1Ki"],
  [".001Ki", "1024m"],
  [".000001Ki", "1024u"],
  [".000000001Ki", "1024n"],
  [".000000000001Ki", "2n"],
];

Deno.test("canonicalQuantity() writes quantities as apimachinery's String() does", () => {
  for (const [input, expected] of cases) {
    assert.equal(canonicalQuantity(input), expected, input);
    if (expected !== "0") assert.equal(canonicalQuantity(`-${input}`), `-${expected}`, `-${input}`);
  }
  assert.equal(canonicalQuantity("abc"), undefined);
  assert.equal(canonicalQuantity("1Zi"), undefined);
  assert.equal(canonicalQuantity(2), "2");
});

Deno.test("canonicalQuantity() rounds resource lists up to milli units", () => {
  assert.equal(canonicalQuantity("0.0001", { roundUpToMilli: true }), "1m");
  assert.equal(canonicalQuantity("1.0001", { roundUpToMilli: true }), "1001m");
  assert.equal(canonicalQuantity("250u", { roundUpToMilli: true }), "1m");
});

Deno.test("canonicalQuantity() is idempotent and keeps the value (property)", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: 10n ** 15n }),
      fc.constantFrom("", "m", "k", "M", "G", "Ki", "Mi", "Gi", "e3", "e-3"),
      (n, suffix) => {
        const once = canonicalQuantity(`${n}${suffix}`)!;
        assert.equal(canonicalQuantity(once), once);
      },
    ),
  );
});
