import assert from "node:assert/strict";
import { celCompileErrors, escapePropertyName } from "../../../lib/apiserver/cel/mod.ts";
import { schemaWith } from "./_helpers.ts";

const P = "spec.validation.openAPIV3Schema";
const R = `${P}.properties[spec].x-kubernetes-validations[0]`;
const errs = (rule: Record<string, unknown>, specSchema?: Record<string, unknown>) =>
  celCompileErrors(schemaWith([rule as { rule: string }], specSchema), P);

Deno.test("celCompileErrors() accepts valid rules", () => {
  assert.deepEqual(errs({ rule: "self.all(k, k.size() > 0) && has(self.a)", message: "m" }), []);
});

Deno.test("celCompileErrors() reports a syntax error at the rule's path", () => {
  const [e] = errs({ rule: "self.a +" });
  assert.equal(e.field, `${R}.rule`);
  assert.equal(e.type, "FieldValueInvalid");
  assert.match(e.detail, /^Invalid value: apiextensions\.ValidationRule\{Rule:"self\.a \+", /);
  assert.match(e.detail, /: compilation failed: ERROR: <input>:1:\d+: /);
});

Deno.test("celCompileErrors() reports undeclared variables and unknown functions", () => {
  assert.match(errs({ rule: "foo.a == 1" })[0].detail, /undeclared reference to 'foo'/);
  assert.match(
    errs({ rule: "self.a.frobnicate()" })[0].detail,
    /undeclared reference to 'frobnicate'/,
  );
  assert.deepEqual(errs({ rule: "self.l.all(x, x.exists(y, y == x))" }), []);
  assert.match(errs({ rule: "self.l.all(x, true) && x" })[0].detail, /undeclared reference to 'x'/);
});

Deno.test("celCompileErrors() reports a constant regex that RE2 translation rejects", () => {
  assert.match(errs({ rule: "self.s.matches('(a')" })[0].detail, /invalid regex/);
});

Deno.test("celCompileErrors() checks messageExpression, reason, fieldPath and message", () => {
  assert.equal(
    errs({ rule: "true", messageExpression: "'a' +" })[0].field,
    `${R}.messageExpression`,
  );
  assert.deepEqual(errs({ rule: "true", reason: "Nope" }), [{
    type: "FieldValueNotSupported",
    field: `${R}.reason`,
    detail:
      'Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
  }]);
  const withProps = { type: "object", properties: { a: { type: "string" } } };
  assert.deepEqual(errs({ rule: "true", fieldPath: ".a" }, withProps), []);
  assert.deepEqual(errs({ rule: "true", fieldPath: ".b" }, withProps), [{
    type: "FieldValueInvalid",
    field: `${R}.fieldPath`,
    detail: 'Invalid value: ".b": fieldPath must be a valid path: does not refer to a valid field',
  }]);
  assert.equal(errs({ rule: "true", message: "a\nb" })[0].field, `${R}.message`);
  assert.equal(errs({ rule: "true &&\ntrue" })[0].type, "FieldValueRequired");
  assert.equal(errs({ rule: "  " })[0].type, "FieldValueRequired");
});

Deno.test("celCompileErrors() finds rules below items and additionalProperties", () => {
  const schema = {
    type: "object",
    properties: {
      l: { type: "array", items: { type: "string", "x-kubernetes-validations": [{ rule: "(" }] } },
      m: {
        type: "object",
        additionalProperties: { type: "string", "x-kubernetes-validations": [{ rule: ")" }] },
      },
    },
  };
  assert.deepEqual(celCompileErrors(schema, P).map((e) => e.field), [
    `${P}.properties[l].items.x-kubernetes-validations[0].rule`,
    `${P}.properties[m].additionalProperties.x-kubernetes-validations[0].rule`,
  ]);
});

Deno.test("escapePropertyName() escapes like Kubernetes", () => {
  const cases: [string, string | undefined][] = [
    ["name", "name"],
    ["namespace", "__namespace__"],
    ["if", "__if__"],
    ["a-b", "a__dash__b"],
    ["a.b", "a__dot__b"],
    ["a/b", "a__slash__b"],
    ["a__b", "a__underscores__b"],
    ["_a_b", "_a_b"],
    ["1a", undefined],
    ["", undefined],
    ["a b", undefined],
    ["a:b", undefined],
  ];
  for (const [input, want] of cases) assert.equal(escapePropertyName(input), want, input);
});
