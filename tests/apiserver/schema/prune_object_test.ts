import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { compileSchema, pruneObject, type SchemaProps } from "../../../lib/apiserver/schema/mod.ts";

const schema: SchemaProps = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        name: { type: "string" },
        maybe: { type: "string", nullable: true },
        withDefault: { type: "string", default: "d" },
        items: {
          type: "array",
          items: { type: "object", properties: { a: { type: "integer" } } },
        },
        labels: { type: "object", additionalProperties: { type: "string" } },
        raw: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: { strict: { type: "object", properties: { x: { type: "string" } } } },
        },
        template: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          properties: { spec: { type: "object", properties: { replicas: { type: "integer" } } } },
        },
      },
    },
  },
};
const compiled = compileSchema(schema);

Deno.test("pruneObject() drops unknown fields and reports their paths", () => {
  const r = pruneObject(
    { spec: { name: "a", foo: 1, items: [{ a: 1, bar: 2 }, { baz: { deep: true } }] }, extra: {} },
    compiled,
  );
  assert.deepEqual(r.value, { spec: { name: "a", items: [{ a: 1 }, {}] } });
  assert.deepEqual(r.pruned.sort(), [
    "extra",
    "spec.foo",
    "spec.items[0].bar",
    "spec.items[1].baz",
  ]);
});

Deno.test("pruneObject() keeps apiVersion, kind and standard metadata at the root", () => {
  const r = pruneObject({
    apiVersion: "x/v1",
    kind: "X",
    metadata: { name: "a", labels: { l: "v" }, creationTimestamp: null, bogus: 1 },
  }, compiled);
  assert.deepEqual(r.value, {
    apiVersion: "x/v1",
    kind: "X",
    metadata: { name: "a", labels: { l: "v" }, creationTimestamp: null },
  });
  assert.deepEqual(r.pruned, ["metadata.bogus"]);
});

Deno.test("pruneObject() keeps unknown fields under x-kubernetes-preserve-unknown-fields but prunes described ones", () => {
  const r = pruneObject(
    { spec: { raw: { any: { thing: [1] }, strict: { x: "1", y: 2 } } } },
    compiled,
  );
  assert.deepEqual(r.value, { spec: { raw: { any: { thing: [1] }, strict: { x: "1" } } } });
  assert.deepEqual(r.pruned, ["spec.raw.strict.y"]);
});

Deno.test("pruneObject() keeps apiVersion, kind and metadata of embedded resources", () => {
  const r = pruneObject({
    spec: {
      template: {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "p", junk: 1 },
        spec: { replicas: 1, other: 2 },
        status: {},
      },
    },
  }, compiled);
  assert.deepEqual(r.value, {
    spec: {
      template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { replicas: 1 } },
    },
  });
  assert.deepEqual(r.pruned.sort(), [
    "spec.template.metadata.junk",
    "spec.template.spec.other",
    "spec.template.status",
  ]);
});

Deno.test("pruneObject() drops nulls of non-nullable fields without a default, silently", () => {
  const r = pruneObject({
    spec: { name: null, maybe: null, withDefault: null, labels: { a: null } },
  }, compiled);
  assert.deepEqual(r.value, { spec: { maybe: null, withDefault: null, labels: {} } });
  assert.deepEqual(r.pruned, []);
});

Deno.test("pruneObject() copes with wrong shapes: arrays for objects, scalars, non-objects at the root", () => {
  assert.deepEqual(pruneObject({ spec: [{ a: 1 }] }, compiled).value, { spec: [{}] });
  assert.deepEqual(pruneObject({ spec: { labels: "x", items: { a: 1 } } }, compiled).value, {
    spec: { labels: "x", items: {} },
  });
  assert.deepEqual(pruneObject(5, compiled), { value: 5, pruned: [] });
  assert.deepEqual(pruneObject([1, { a: 1 }], compiled).value, [1, {}]);
});

Deno.test("pruneObject() does not modify its input", () => {
  const input = { spec: { name: "a", foo: 1 }, metadata: { junk: 1 } };
  const copy = structuredClone(input);
  pruneObject(input, compiled);
  assert.deepEqual(input, copy);
});

const json = fc.jsonValue({ maxDepth: 4 });
const shaped = fc.record({
  apiVersion: fc.string(),
  metadata: fc.dictionary(fc.constantFrom("name", "labels", "junk"), json),
  spec: fc.dictionary(
    fc.constantFrom("name", "maybe", "items", "labels", "raw", "template", "other"),
    json,
  ),
}, { requiredKeys: [] });

Deno.test("pruneObject() is idempotent and the second pass prunes nothing", () => {
  fc.assert(
    fc.property(fc.oneof(json, shaped), (x) => {
      const once = pruneObject(x, compiled);
      const twice = pruneObject(once.value, compiled);
      assert.deepEqual(twice.value, once.value);
      assert.deepEqual(twice.pruned, []);
    }),
    { numRuns: 300 },
  );
});
