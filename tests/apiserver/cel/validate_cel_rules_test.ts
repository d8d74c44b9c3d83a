import assert from "node:assert/strict";
import { compileSchema, processCustomResource } from "../../../lib/apiserver/schema/mod.ts";
import { celValidator, validateCelRules } from "../../../lib/apiserver/cel/mod.ts";
import { errorsOf, schemaWith } from "./_helpers.ts";

const invalid = (field: string, type: string, message: string) => ({
  type: "FieldValueInvalid",
  field,
  detail: `Invalid value: "${type}": ${message}`,
});

Deno.test("validateCelRules() reports a failed rule's message at the node path with the schema type", () => {
  assert.deepEqual(errorsOf({ a: 1 }, [{ rule: "self.a > 1", message: "a must be > 1" }]), [
    invalid("spec", "object", "a must be > 1"),
  ]);
});

Deno.test("validateCelRules() uses 'failed rule: <rule>' when the rule has no message", () => {
  assert.deepEqual(errorsOf({ a: 1 }, [{ rule: " self.a > 1 " }]), [
    invalid("spec", "object", "failed rule: self.a > 1"),
  ]);
});

Deno.test("validateCelRules() binds self to scalar, list and nested nodes", () => {
  const specSchema = {
    type: "object",
    properties: {
      name: {
        type: "string",
        "x-kubernetes-validations": [{ rule: "self != 'x'", message: "no x" }],
      },
      items: {
        type: "array",
        items: {
          type: "integer",
          "x-kubernetes-validations": [{ rule: "self < 10", message: "small" }],
        },
        "x-kubernetes-validations": [{ rule: "size(self) < 3", message: "short" }],
      },
    },
  };
  assert.deepEqual(errorsOf({ name: "x", items: [1, 20, 3] }, [], { specSchema }), [
    invalid("spec.name", "string", "no x"),
    invalid("spec.items", "array", "short"),
    invalid("spec.items[1]", "integer", "small"),
  ]);
});

Deno.test("validateCelRules() escapes property names that are reserved words or hold punctuation", () => {
  const specSchema = {
    type: "object",
    properties: {
      namespace: { type: "string" },
      "x-y": { type: "string" },
      "a.b/c": { type: "string" },
      "p__q": { type: "string" },
    },
  };
  const rule =
    "self.__namespace__ == 'ns' && self.x__dash__y == 'd' && self.a__dot__b__slash__c == 'e' && self.p__underscores__q == 'u'";
  assert.deepEqual(
    errorsOf({ namespace: "ns", "x-y": "d", "a.b/c": "e", "p__q": "u" }, [{ rule }], {
      specSchema,
    }),
    [],
  );
});

Deno.test("validateCelRules() exposes additionalProperties keys as written", () => {
  const specSchema = { type: "object", additionalProperties: { type: "string" } };
  assert.deepEqual(errorsOf({ "a-b": "1" }, [{ rule: "self['a-b'] == '1'" }], { specSchema }), []);
});

Deno.test("validateCelRules() sees apiVersion, kind and metadata.name at the resource root", () => {
  const compiled = compileSchema({
    type: "object",
    properties: { spec: { type: "object" } },
    "x-kubernetes-validations": [{
      rule:
        "self.metadata.name.startsWith('ok-') && self.kind == 'K' && !has(self.metadata.labels)",
      message: "bad name",
    }],
  });
  const obj = (name: string) => ({
    apiVersion: "x/v1",
    kind: "K",
    metadata: { name, labels: { a: "b" } },
  });
  assert.deepEqual(validateCelRules(obj("ok-1"), compiled), []);
  assert.deepEqual(validateCelRules(obj("no"), compiled), [invalid("", "object", "bad name")]);
});

Deno.test("validateCelRules() skips rules on null values", () => {
  const specSchema = {
    type: "object",
    properties: {
      x: { type: "string", nullable: true, "x-kubernetes-validations": [{ rule: "false" }] },
    },
  };
  assert.deepEqual(errorsOf({ x: null }, [], { specSchema }), []);
});

Deno.test("validateCelRules() treats int-or-string values as int or string", () => {
  const specSchema = {
    type: "object",
    properties: { port: { "x-kubernetes-int-or-string": true } },
  };
  const rules = [{ rule: "type(self.port) == string ? self.port.size() > 0 : self.port > 0" }];
  assert.deepEqual(errorsOf({ port: 80 }, rules, { specSchema }), []);
  assert.deepEqual(errorsOf({ port: "http" }, rules, { specSchema }), []);
  assert.equal(errorsOf({ port: 0 }, rules, { specSchema }).length, 1);
});

Deno.test("validateCelRules() turns date-time strings into timestamps", () => {
  const specSchema = {
    type: "object",
    properties: {
      start: { type: "string", format: "date-time" },
      end: { type: "string", format: "date-time" },
    },
  };
  const rules = [{ rule: "self.start < self.end", message: "start after end" }];
  assert.deepEqual(
    errorsOf({ start: "2024-01-01T00:00:00Z", end: "2024-02-01T00:00:00Z" }, rules, { specSchema }),
    [],
  );
  assert.equal(
    errorsOf({ start: "2024-03-01T00:00:00Z", end: "2024-02-01T00:00:00Z" }, rules, { specSchema })
      .length,
    1,
  );
});

Deno.test("validateCelRules() reports a runtime error such as a missing field as a field error", () => {
  assert.deepEqual(errorsOf({}, [{ rule: "self.missing == 1", message: "m" }]), [
    invalid("spec", "object", "no such key: missing evaluating rule: m"),
  ]);
  const [overload] = errorsOf({ a: "x" }, [{ rule: "self.a + 1 == 2" }]);
  assert.match(
    overload.detail,
    /call arguments did not match a supported operator.*for rule: self.a \+ 1 == 2$/,
  );
  const [div] = errorsOf({ a: 0 }, [{ rule: "1 / self.a == 1" }]);
  assert.match(div.detail, /divide by zero evaluating rule/);
});

Deno.test("validateCelRules() uses messageExpression, falling back to message when it fails or is empty", () => {
  const rule = {
    rule: "self.n < 3",
    message: "static",
    messageExpression: "'n is ' + string(self.n)",
  };
  assert.deepEqual(errorsOf({ n: 5 }, [rule]), [invalid("spec", "object", "n is 5")]);
  for (const messageExpression of ["self.nope", "'  '", "'a\\nb'"]) {
    assert.deepEqual(errorsOf({ n: 5 }, [{ ...rule, messageExpression }]), [
      invalid("spec", "object", "static"),
    ]);
  }
});

Deno.test("validateCelRules() maps a rule's reason to the field error type", () => {
  const base = { rule: "false", message: "m" };
  assert.deepEqual(errorsOf({}, [{ ...base, reason: "FieldValueForbidden" }]), [
    { type: "FieldValueForbidden", field: "spec", detail: "Forbidden: m" },
  ]);
  assert.deepEqual(errorsOf({}, [{ ...base, reason: "FieldValueRequired" }]), [
    { type: "FieldValueRequired", field: "spec", detail: "Required value: m" },
  ]);
  assert.deepEqual(errorsOf({}, [{ ...base, reason: "FieldValueDuplicate" }]), [
    { type: "FieldValueDuplicate", field: "spec", detail: 'Duplicate value: "object"' },
  ]);
});

Deno.test("validateCelRules() appends a rule's fieldPath to the node path", () => {
  const specSchema = {
    type: "object",
    properties: {
      a: { type: "object", properties: { b: { type: "string" } } },
      m: { type: "object", additionalProperties: { type: "string" } },
    },
  };
  assert.deepEqual(
    errorsOf({}, [{ rule: "false", message: "m", fieldPath: ".a.b" }], { specSchema }),
    [
      invalid("spec.a.b", "object", "m"),
    ],
  );
  assert.deepEqual(
    errorsOf({}, [{ rule: "false", message: "m", fieldPath: ".m['k.1']" }], { specSchema }),
    [invalid("spec.m[k.1]", "object", "m")],
  );
});

Deno.test("validateCelRules() skips transition rules on create and runs them with oldSelf on update", () => {
  const rules = [{ rule: "self.size >= oldSelf.size", message: "cannot shrink" }];
  assert.deepEqual(errorsOf({ size: 1 }, rules), []);
  assert.deepEqual(errorsOf({ size: 1 }, rules, { oldSpec: { size: 2 } }), [
    invalid("spec", "object", "cannot shrink"),
  ]);
  assert.deepEqual(errorsOf({ size: 3 }, rules, { oldSpec: { size: 2 } }), []);
});

Deno.test("validateCelRules() correlates list-map items by key for oldSelf and not atomic list items", () => {
  const item = {
    type: "object",
    properties: { name: { type: "string" }, v: { type: "integer" } },
    "x-kubernetes-validations": [{ rule: "self.v == oldSelf.v", message: "immutable" }],
  };
  const mapList = {
    type: "object",
    properties: {
      l: {
        type: "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        items: item,
      },
    },
  };
  const oldSpec = { l: [{ name: "a", v: 1 }, { name: "b", v: 2 }] };
  assert.deepEqual(
    errorsOf({ l: [{ name: "b", v: 2 }, { name: "a", v: 1 }, { name: "c", v: 9 }] }, [], {
      specSchema: mapList,
      oldSpec,
    }),
    [],
  );
  assert.deepEqual(errorsOf({ l: [{ name: "b", v: 3 }] }, [], { specSchema: mapList, oldSpec }), [
    invalid("spec.l[0]", "object", "immutable"),
  ]);
  const atomic = { type: "object", properties: { l: { type: "array", items: item } } };
  assert.deepEqual(errorsOf({ l: [{ name: "b", v: 3 }] }, [], { specSchema: atomic, oldSpec }), []);
});

Deno.test("validateCelRules() stops with Kubernetes' cost error when a rule exceeds the per-rule limit", () => {
  const list = Array.from({ length: 50 }, (_, i) => i);
  const rules = [
    { rule: "self.l.all(x, self.l.all(y, x + y >= 0))", message: "quadratic" },
    { rule: "false", message: "never reached" },
  ];
  assert.deepEqual(errorsOf({ l: list }, rules, { perRuleCostLimit: 1000 }), [
    invalid(
      "spec",
      "object",
      "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: quadratic",
    ),
  ]);
  assert.equal(errorsOf({ l: list }, rules, { perRuleCostLimit: 10_000 }).length, 1);
});

Deno.test("validateCelRules() stops when the total cost budget of the object runs out", () => {
  const specSchema = {
    type: "object",
    properties: {
      a: {
        type: "array",
        items: { type: "integer" },
        "x-kubernetes-validations": [{ rule: "self.all(x, x >= 0)" }],
      },
      b: {
        type: "array",
        items: { type: "integer" },
        "x-kubernetes-validations": [{ rule: "self.all(x, x >= 0)" }],
      },
    },
  };
  const l = Array.from({ length: 30 }, (_, i) => i);
  assert.deepEqual(errorsOf({ a: l, b: l }, [], { specSchema, totalCostBudget: 40 }), [
    invalid(
      "spec.b",
      "array",
      "validation failed due to running out of cost budget, no further validation rules will be run",
    ),
  ]);
  assert.deepEqual(errorsOf({ a: l, b: l }, [], { specSchema, totalCostBudget: 100 }), []);
});

Deno.test("validateCelRules() reports a rule that does not compile on every write", () => {
  const [e] = errorsOf({}, [{ rule: "self.a +" }]);
  assert.equal(e.field, "spec");
  assert.match(
    e.detail,
    /^Invalid value: "object": rule compile error: compilation failed: ERROR: /,
  );
});

Deno.test("celValidator() plugs into processCustomResource and is skipped after blocking errors", () => {
  const compiled = compileSchema(
    schemaWith([{ rule: "self.n < 3", message: "n too big" }], {
      type: "object",
      properties: { n: { type: "integer" }, s: { type: "string", maxLength: 1 } },
    }),
  );
  const r = processCustomResource({ spec: { n: 5 } }, compiled, { celValidator: celValidator() });
  assert.deepEqual(r.ok ? [] : r.errors, [invalid("spec", "object", "n too big")]);
  const blocked = processCustomResource({ spec: { n: 5, s: "long" } }, compiled, {
    celValidator: celValidator(),
  });
  assert.ok(!blocked.ok && blocked.errors.some((e) => e.detail.includes("were not checked")));
  assert.ok(!blocked.ok && !blocked.errors.some((e) => e.detail.includes("n too big")));
});
