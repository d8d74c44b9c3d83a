import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  addQuantity,
  compareQuantity,
  formatQuantity,
  parseQuantity,
  type Quantity,
  quantityOf,
} from "../../../lib/apiserver/cel/_quantity.ts";
import { errorsOf, holds } from "./_helpers.ts";

const truths: [string, string][] = [
  [
    "isQuantity() accepts SI, binary SI and exponent forms",
    "isQuantity('1Gi') && isQuantity('500m') && isQuantity('1e3') && isQuantity('-.5') && isQuantity('+1.5k') && !isQuantity('1GB') && !isQuantity('') && !isQuantity('e3') && !isQuantity('1.2.3')",
  ],
  [
    "quantities compare by amount",
    "quantity('1k') == quantity('1000') && quantity('1.5Ki') == quantity('1536') && quantity('1Gi') != quantity('1G')",
  ],
  [
    "isLessThan/isGreaterThan/compareTo",
    "quantity('500Mi').isLessThan(quantity('1Gi')) && quantity('1Gi').isGreaterThan(quantity('1G')) && quantity('1G').compareTo(quantity('1Gi')) == -1 && quantity('1000m').compareTo(quantity('1')) == 0",
  ],
  [
    "add/sub take a quantity or an int",
    "quantity('1Gi').add(quantity('512Mi')) == quantity('1.5Gi') && quantity('1').sub(2) == quantity('-1') && quantity('500m').add(1) == quantity('1500m')",
  ],
  [
    "sign, isInteger, asInteger, asApproximateFloat",
    "quantity('-1m').sign() == -1 && quantity('0').sign() == 0 && quantity('1Ki').isInteger() && !quantity('1m').isInteger() && quantity('1Ki').asInteger() == 1024 && quantity('250m').asApproximateFloat() == 0.25",
  ],
  [
    "isInteger() is false beyond int64",
    "quantity('9223372036854775807').isInteger() && !quantity('9223372036854775807').add(1).isInteger()",
  ],
  [
    "below 1n rounds away from zero",
    "quantity('1.1n') == quantity('2n') && quantity('-1.1n') == quantity('-2n')",
  ],
];

for (const [name, rule] of truths) {
  Deno.test(`quantity library: ${name}`, () => assert.equal(holds(rule), true));
}

Deno.test("quantity library: a rule on a CRD field accepts small requests and rejects big ones with its message", () => {
  const specSchema = { type: "object", properties: { mem: { type: "string" } } };
  const rules = [{
    rule: "quantity(self.mem).isLessThan(quantity('1Gi'))",
    message: "mem must be below 1Gi",
  }];
  assert.deepEqual(errorsOf({ mem: "512Mi" }, rules, { specSchema }), []);
  assert.deepEqual(errorsOf({ mem: "1024Mi" }, rules, { specSchema }), [{
    type: "FieldValueInvalid",
    field: "spec",
    detail: 'Invalid value: "object": mem must be below 1Gi',
  }]);
});

Deno.test("quantity library: quantity() of a bad string and asInteger() of a fraction are runtime errors", () => {
  const [bad] = errorsOf({ mem: "1GB" }, [{ rule: "quantity(self.mem).sign() == 1" }]);
  assert.match(
    bad.detail,
    /quantities must match the regular expression .* evaluating rule: quantity\(self\.mem\)\.sign\(\) == 1$/,
  );
  const [frac] = errorsOf({}, [{ rule: "quantity('1m').asInteger() == 0" }]);
  assert.match(frac.detail, /cannot convert value to integer evaluating rule/);
});

const suffixes = ["", "m", "n", "k", "M", "G", "Ki", "Mi", "Gi", "e3", "e-2", "E2"];
const text = fc.tuple(
  fc.constantFrom("", "-", "+"),
  fc.nat({ max: 100000 }),
  fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: undefined }),
  fc.constantFrom(...suffixes),
).map(([s, i, f, suf]) => `${s}${i}${f === undefined ? "" : `.${f}`}${suf}`);
const quantity = text.map((t) => parseQuantity(t) as Quantity);

Deno.test("quantity library: every generated quantity text parses, and its exact text parses back to it", () => {
  fc.assert(
    fc.property(quantity, (q) => {
      assert.ok(q);
      assert.deepEqual(parseQuantity(formatQuantity(q)), q);
    }),
    { numRuns: 300 },
  );
});

Deno.test("quantity library: compare is antisymmetric and agrees with subtraction", () => {
  fc.assert(
    fc.property(quantity, quantity, (a, b) => {
      assert.equal(compareQuantity(a, b), -compareQuantity(b, a) || 0);
      const d = addQuantity(a, b, -1);
      assert.equal(compareQuantity(a, b), d.n === 0n ? 0 : d.n > 0n ? 1 : -1);
      assert.deepEqual(addQuantity(d, b), a);
    }),
    { numRuns: 300 },
  );
});

Deno.test("quantity library: in CEL, a.compareTo(b) matches isLessThan/isGreaterThan and equality", () => {
  fc.assert(
    fc.property(text, text, (a, b) => {
      const c = compareQuantity(parseQuantity(a)!, parseQuantity(b)!);
      const q = (s: string) => `quantity('${s}')`;
      assert.ok(holds(
        `${q(a)}.compareTo(${q(b)}) == ${c} && ${q(a)}.isLessThan(${q(b)}) == ${c < 0} && ${
          q(a)
        }.isGreaterThan(${q(b)}) == ${c > 0} && (${q(a)} == ${q(b)}) == ${c === 0}`,
      ));
    }),
    { numRuns: 60 },
  );
});

Deno.test("quantity library: normalization keeps the amount exact", () => {
  assert.deepEqual(quantityOf(1500n, 3), { n: 15n, scale: 1 } as Quantity);
  assert.equal(formatQuantity(quantityOf(5n, 10)), "0.0000000005");
  assert.equal(formatQuantity(parseQuantity("-0.5m")!), "-0.0005");
});
