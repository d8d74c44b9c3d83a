import assert from "node:assert/strict";
import {
  compileSchema,
  processCustomResource,
  type SchemaProps,
} from "../../../lib/apiserver/schema/mod.ts";

const schema: SchemaProps = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      required: ["size"],
      properties: {
        size: { type: "integer", minimum: 1 },
        color: { type: "string", default: "red", enum: ["red", "blue"] },
        ratio: { type: "number", default: 0.5 },
      },
      "x-kubernetes-validations": [{ rule: "self.size < 10", message: "too big" }],
    },
  },
};
const compiled = compileSchema(schema);
const plain = compileSchema({
  ...schema,
  properties: { spec: { ...schema.properties!.spec, "x-kubernetes-validations": undefined } },
});

Deno.test("processCustomResource() prunes, defaults, then validates", () => {
  const r = processCustomResource(
    { apiVersion: "x/v1", kind: "W", metadata: { name: "w" }, spec: { size: 2, junk: true } },
    compiled,
  );
  assert.deepEqual(r, {
    ok: true,
    object: {
      apiVersion: "x/v1",
      kind: "W",
      metadata: { name: "w" },
      spec: { size: 2, color: "red", ratio: 0.5 },
    },
    warnings: ['unknown field "spec.junk"'],
  });
});

Deno.test("processCustomResource() with Strict rejects unknown fields as a bad request", () => {
  const r = processCustomResource({ spec: { size: 2, junk: 1, more: 2 } }, compiled, {
    fieldValidation: "Strict",
  });
  assert.ok(!r.ok);
  assert.equal(r.reason, "BadRequest");
  assert.deepEqual(r.unknownFields, ["spec.junk", "spec.more"]);
  assert.deepEqual(r.errors.map((e) => e.detail), [
    'unknown field "spec.junk"',
    'unknown field "spec.more"',
  ]);
});

Deno.test("processCustomResource() with Ignore drops unknown fields silently", () => {
  const r = processCustomResource({ spec: { size: 2, junk: 1 } }, compiled, {
    fieldValidation: "Ignore",
  });
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, []);
});

Deno.test("processCustomResource() validates after defaulting and reports 422 errors", () => {
  const r = processCustomResource({ spec: { size: 0, color: "green" } }, plain);
  assert.ok(!r.ok);
  assert.equal(r.reason, "Invalid");
  assert.deepEqual(r.errors.map((e) => [e.field, e.type]), [
    ["spec.size", "FieldValueInvalid"],
    ["spec.color", "FieldValueNotSupported"],
  ]);
});

Deno.test("processCustomResource() adds the CEL-skipped error after a blocking error when rules exist", () => {
  const r = processCustomResource({ spec: {} }, compiled);
  assert.ok(!r.ok);
  assert.deepEqual(r.errors.map((e) => e.detail), [
    "Required value",
    'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ]);
  const noRules = processCustomResource({ spec: {} }, plain);
  assert.ok(!noRules.ok);
  assert.equal(noRules.errors.length, 1);
});

Deno.test("processCustomResource() runs the CEL hook only without blocking errors", () => {
  const calls: unknown[] = [];
  const celValidator = (obj: unknown) => {
    calls.push(obj);
    return [{
      type: "FieldValueInvalid" as const,
      field: "spec",
      detail: 'Invalid value: "object": too big',
    }];
  };
  const bad = processCustomResource({ spec: { size: 0 } }, compiled, { celValidator });
  assert.ok(!bad.ok);
  assert.deepEqual(
    bad.errors.map((e) => e.field),
    ["spec.size", "spec"],
    "minimum is not blocking",
  );
  const blocked = processCustomResource({ spec: { size: "x" } }, compiled, { celValidator });
  assert.ok(!blocked.ok);
  assert.equal(calls.length, 1);
});

Deno.test("processCustomResource() handles non-object bodies without throwing", () => {
  for (const body of [null, 5, "x", [1, 2], { spec: [] }]) {
    const r = processCustomResource(body, compiled);
    assert.ok(!r.ok, JSON.stringify(body));
  }
});
