import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { FieldError } from "../../../mod.ts";
import {
  compileSchema,
  isBlockingError,
  type SchemaProps,
  validateObject,
} from "../../../lib/apiserver/schema/mod.ts";

/** Validates `{spec: {v: value}}` against `{spec: {v: field}}` and returns `field: detail` texts. */
function check(field: SchemaProps, value: unknown): string[] {
  const compiled = compileSchema({
    type: "object",
    properties: { spec: { type: "object", properties: { v: field } } },
  });
  return validateObject({ spec: { v: value } }, compiled).map((e) =>
    e.field ? `${e.type} ${e.field}: ${e.detail}` : `${e.type} ${e.detail}`
  );
}

Deno.test("validateObject() checks JSON types with Kubernetes' wording", () => {
  assert.deepEqual(check({ type: "boolean" }, "true"), [
    'FieldValueTypeInvalid spec.v: Invalid value: "string": spec.v in body must be of type boolean: "string"',
  ]);
  assert.deepEqual(check({ type: "integer" }, 1.5), [
    'FieldValueTypeInvalid spec.v: Invalid value: "number": spec.v in body must be of type integer: "number"',
  ]);
  assert.deepEqual(check({ type: "integer" }, 2), []);
  assert.deepEqual(check({ type: "number" }, 2), []);
  assert.deepEqual(check({ type: "object" }, []), [
    'FieldValueTypeInvalid spec.v: Invalid value: "array": spec.v in body must be of type object: "array"',
  ]);
  assert.deepEqual(check({ type: "array", items: { type: "string" } }, {}), [
    'FieldValueTypeInvalid spec.v: Invalid value: "object": spec.v in body must be of type array: "object"',
  ]);
  assert.equal(check({ type: "integer" }, 1e30).length, 1, "huge numbers are not integers");
});

Deno.test("validateObject() reports null unless nullable", () => {
  assert.deepEqual(check({ type: "string" }, null), [
    'FieldValueTypeInvalid spec.v: Invalid value: "null": spec.v in body must be of type string: "null"',
  ]);
  assert.deepEqual(check({ type: "string", nullable: true }, null), []);
});

Deno.test("validateObject() checks enums with the supported values listed", () => {
  assert.deepEqual(check({ type: "string", enum: ["RSA", "ECDSA"] }, "DSA"), [
    'FieldValueNotSupported spec.v: Unsupported value: "DSA": supported values: "RSA", "ECDSA"',
  ]);
  assert.deepEqual(check({ type: "integer", enum: [1, 2] }, 3), [
    'FieldValueNotSupported spec.v: Unsupported value: 3: supported values: "1", "2"',
  ]);
  assert.deepEqual(check({ type: "object", enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 }), []);
});

Deno.test("validateObject() checks bounds and multipleOf", () => {
  assert.deepEqual(check({ type: "integer", maximum: 65535 }, 70000), [
    "FieldValueInvalid spec.v: Invalid value: 70000: spec.v in body should be less than or equal to 65535",
  ]);
  assert.deepEqual(check({ type: "integer", maximum: 5, exclusiveMaximum: true }, 5), [
    "FieldValueInvalid spec.v: Invalid value: 5: spec.v in body should be less than 5",
  ]);
  assert.deepEqual(check({ type: "integer", minimum: 1 }, 0), [
    "FieldValueInvalid spec.v: Invalid value: 0: spec.v in body should be greater than or equal to 1",
  ]);
  assert.deepEqual(check({ type: "number", minimum: 1, exclusiveMinimum: true }, 1), [
    "FieldValueInvalid spec.v: Invalid value: 1: spec.v in body should be greater than 1",
  ]);
  assert.deepEqual(check({ type: "number", multipleOf: 0.5 }, 1.5), []);
  assert.deepEqual(check({ type: "integer", multipleOf: 3 }, 7), [
    "FieldValueInvalid spec.v: Invalid value: 7: spec.v in body should be a multiple of 3",
  ]);
  assert.equal(check({ type: "integer", format: "int32" }, 2 ** 31).length, 1);
  assert.deepEqual(check({ type: "integer", format: "int64" }, 2 ** 40), []);
});

Deno.test("validateObject() counts string length in code points", () => {
  assert.deepEqual(check({ type: "string", maxLength: 2 }, "😀😀"), []);
  assert.deepEqual(check({ type: "string", maxLength: 2 }, "abc"), [
    "FieldValueTooLong spec.v: Too long: may not be more than 2 bytes",
  ]);
  assert.deepEqual(check({ type: "string", minLength: 2 }, "é"), [
    'FieldValueInvalid spec.v: Invalid value: "é": spec.v in body should be at least 2 chars long',
  ]);
});

Deno.test("validateObject() matches RE2 patterns unanchored", () => {
  assert.deepEqual(check({ type: "string", pattern: "b" }, "abc"), []);
  assert.deepEqual(check({ type: "string", pattern: "^[0-9]+s$" }, "30 seconds"), [
    "FieldValueInvalid spec.v: Invalid value: \"30 seconds\": spec.v in body should match '^[0-9]+s$'",
  ]);
  assert.deepEqual(check({ type: "string", pattern: "(" }, "x"), [], "a bad pattern is ignored");
});

Deno.test("validateObject() checks string formats", () => {
  assert.deepEqual(check({ type: "string", format: "byte" }, "aGVsbG8="), []);
  assert.deepEqual(check({ type: "string", format: "byte" }, "not base64!"), [
    'FieldValueTypeInvalid spec.v: Invalid value: "not base64!": spec.v in body must be of type byte: "not base64!"',
  ]);
  assert.deepEqual(check({ type: "string", format: "date-time" }, "2024-02-29T10:00:00Z"), []);
  assert.equal(check({ type: "string", format: "date-time" }, "yesterday").length, 1);
  assert.deepEqual(check({ type: "string", format: "date" }, "2024-02-29"), []);
  assert.equal(check({ type: "string", format: "date" }, "2023-02-29").length, 1);
  assert.deepEqual(check({ type: "string", format: "ipv4" }, "10.0.0.1"), []);
  assert.equal(check({ type: "string", format: "ipv4" }, "10.0.0.256").length, 1);
  assert.deepEqual(check({ type: "string", format: "ipv6" }, "fe80::1"), []);
  assert.deepEqual(check({ type: "string", format: "int32" }, "anything"), []);
});

Deno.test("validateObject() checks item and property counts", () => {
  assert.deepEqual(check({ type: "array", items: { type: "integer" }, maxItems: 1 }, [1, 2]), [
    "FieldValueTooMany spec.v: Too many: 2: must have at most 1 item",
  ]);
  assert.deepEqual(check({ type: "array", items: { type: "integer" }, minItems: 2 }, [1]), [
    "FieldValueInvalid spec.v: Invalid value: 1: spec.v in body should have at least 2 items",
  ]);
  const map = { type: "object", additionalProperties: { type: "string" } } as const;
  assert.deepEqual(check({ ...map, maxProperties: 1 }, { a: "1", b: "2" }), [
    "FieldValueTooMany spec.v: Too many: 2: must have at most 1 item",
  ]);
  assert.equal(check({ ...map, minProperties: 1 }, {}).length, 1);
});

Deno.test("validateObject() reports required fields and map values by key", () => {
  assert.deepEqual(
    check({ type: "object", required: ["a"], properties: { a: { type: "string" } } }, {}),
    [
      "FieldValueRequired spec.v.a: Required value",
    ],
  );
  assert.deepEqual(
    check({ type: "object", additionalProperties: { type: "string" } }, { ok: "x", bad: 1 }),
    ['FieldValueTypeInvalid spec.v[bad]: Invalid value: "integer": spec.v[bad] in body must be of type string: "integer"'],
  );
  assert.deepEqual(check({ type: "object", additionalProperties: false }, { x: 1 }), [
    'FieldValueInvalid spec.v: Invalid value: "x": spec.v.x in body is a forbidden property',
  ]);
  assert.deepEqual(
    check({ type: "array", items: { type: "object", required: ["n"] } }, [{ n: 1 }, {}]),
    ["FieldValueRequired spec.v[1].n: Required value"],
  );
});

Deno.test("validateObject() checks int-or-string, with its anyOf", () => {
  const ios: SchemaProps = {
    "x-kubernetes-int-or-string": true,
    anyOf: [{ type: "integer" }, { type: "string" }],
    pattern: "^[0-9]+%?$",
  };
  assert.deepEqual(check(ios, 5), []);
  assert.deepEqual(check(ios, "50%"), []);
  assert.equal(check(ios, "x").length, 1, "the pattern applies to strings only");
  assert.deepEqual(check(ios, { q: 1 }), [
    'FieldValueTypeInvalid spec.v: Invalid value: "object": spec.v in body must be of type integer,string: "object"',
    'FieldValueInvalid Invalid value: "": "spec.v" must validate at least one schema (anyOf)',
    'FieldValueTypeInvalid spec.v: Invalid value: "object": spec.v in body must be of type integer: "object"',
  ]);
});

Deno.test("validateObject() checks allOf, oneOf and not", () => {
  const base = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "string" } },
  } as const;
  const oneOf = { ...base, oneOf: [{ required: ["a"] }, { required: ["b"] }] };
  assert.deepEqual(check(oneOf, { a: "1" }), []);
  assert.deepEqual(check(oneOf, { a: "1", b: "2" }), [
    'FieldValueInvalid Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found 2 valid alternatives',
  ]);
  assert.deepEqual(check({ ...base, not: { required: ["a"] } }, { a: "1" }), [
    'FieldValueInvalid Invalid value: "": "spec.v" must not validate the schema (not)',
  ]);
  const allOf = check({ ...base, allOf: [{ required: ["a"] }, { required: ["b"] }] }, { a: "1" });
  assert.deepEqual(allOf, [
    "FieldValueRequired spec.v.b: Required value",
    'FieldValueInvalid Invalid value: "": "spec.v" must validate all the schemas (allOf)',
  ]);
});

Deno.test("validateObject() finds duplicates in set and map lists", () => {
  assert.deepEqual(
    check({ type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } }, [
      "a",
      "b",
      "a",
    ]),
    ['FieldValueDuplicate spec.v[2]: Duplicate value: "a"'],
  );
  const mapList: SchemaProps = {
    type: "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name", "proto"],
    items: { type: "object", properties: { name: { type: "string" }, proto: { type: "string" } } },
  };
  assert.deepEqual(
    check(mapList, [{ name: "a", proto: "TCP" }, { name: "a", proto: "UDP" }, {
      proto: "TCP",
      name: "a",
    }]),
    ['FieldValueDuplicate spec.v[2]: Duplicate value: map[string]interface {}{"name":"a", "proto":"TCP"}'],
  );
});

Deno.test("validateObject() requires apiVersion and kind in embedded resources", () => {
  const embedded: SchemaProps = {
    type: "object",
    "x-kubernetes-embedded-resource": true,
    "x-kubernetes-preserve-unknown-fields": true,
  };
  assert.deepEqual(check(embedded, { apiVersion: "v1", kind: "Pod" }), []);
  assert.deepEqual(check(embedded, {}), [
    "FieldValueRequired spec.v.apiVersion: Required value: must not be empty",
    "FieldValueRequired spec.v.kind: Required value: must not be empty",
  ]);
});

Deno.test("validateObject() ignores root apiVersion, kind and metadata unless the schema constrains them", () => {
  const compiled = compileSchema({
    type: "object",
    properties: {
      metadata: { type: "object", properties: { name: { type: "string", maxLength: 5 } } },
    },
  });
  assert.deepEqual(
    validateObject({ apiVersion: "x/v1", kind: "X", metadata: { name: "abc" } }, compiled),
    [],
  );
  assert.deepEqual(
    validateObject({ metadata: { name: "abcdefg" } }, compiled).map((e) => e.field),
    [
      "metadata.name",
    ],
  );
});

Deno.test("isBlockingError() separates blocking from non-blocking errors", () => {
  const e = (type: FieldError["type"]): FieldError => ({ type, field: "f", detail: "d" });
  for (
    const t of [
      "FieldValueRequired",
      "FieldValueNotSupported",
      "FieldValueTooLong",
      "FieldValueTooMany",
      "FieldValueTypeInvalid",
    ] as const
  ) {
    assert.ok(isBlockingError(e(t)), t);
  }
  for (const t of ["FieldValueInvalid", "FieldValueDuplicate", "FieldValueForbidden"] as const) {
    assert.ok(!isBlockingError(e(t)), t);
  }
});

const richSchema: SchemaProps = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", pattern: "^[a-z]+$", maxLength: 10 },
        n: { type: "integer", minimum: 0, maximum: 100 },
        tags: { type: "array", "x-kubernetes-list-type": "set", items: { type: "string" } },
        mode: { type: "string", enum: ["A", "B"] },
        labels: { type: "object", additionalProperties: { type: "string" } },
        port: {
          "x-kubernetes-int-or-string": true,
          anyOf: [{ type: "integer" }, { type: "string" }],
        },
        any: { "x-kubernetes-preserve-unknown-fields": true },
      },
    },
  },
};
const rich = compileSchema(richSchema);

Deno.test("validateObject() never throws on arbitrary JSON", () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 5 }),
      fc.dictionary(
        fc.constantFrom("name", "n", "tags", "mode", "labels", "port", "any"),
        fc.jsonValue({ maxDepth: 3 }),
      ),
      (x, spec) => {
        assert.ok(Array.isArray(validateObject(x, rich)));
        assert.ok(Array.isArray(validateObject({ spec }, rich)));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("validateObject() accepts every value generated to satisfy the schema", () => {
  const valid = fc.record({
    name: fc.stringMatching(/^[a-z]{1,10}$/),
    n: fc.integer({ min: 0, max: 100 }),
    tags: fc.uniqueArray(fc.string(), { maxLength: 5 }),
    mode: fc.constantFrom("A", "B"),
    labels: fc.dictionary(fc.string(), fc.string()),
    port: fc.oneof(fc.integer(), fc.string()),
    any: fc.jsonValue({ maxDepth: 3 }),
  }, { requiredKeys: ["name"] });
  fc.assert(
    fc.property(valid, (spec) => {
      assert.deepEqual(validateObject({ apiVersion: "x/v1", kind: "X", spec }, rich), []);
    }),
    { numRuns: 300 },
  );
});
