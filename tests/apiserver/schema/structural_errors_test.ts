import assert from "node:assert/strict";
import { type SchemaProps, structuralErrors } from "../../../lib/apiserver/schema/mod.ts";

const P = "spec.versions[0].schema.openAPIV3Schema";
const texts = (s: SchemaProps) => structuralErrors(s, P).map((e) => `${e.field}: ${e.detail}`);

Deno.test("structuralErrors() accepts a typical structural schema", () => {
  assert.deepEqual(
    texts({
      type: "object",
      properties: {
        metadata: { type: "object", properties: { name: { type: "string", maxLength: 63 } } },
        spec: {
          type: "object",
          properties: {
            port: {
              "x-kubernetes-int-or-string": true,
              anyOf: [{ type: "integer" }, { type: "string" }],
            },
            raw: { "x-kubernetes-preserve-unknown-fields": true },
            items: { type: "array", items: { type: "string" } },
            labels: { type: "object", additionalProperties: { type: "string" } },
            either: {
              type: "object",
              properties: { a: { type: "string" } },
              oneOf: [{ required: ["a"] }],
            },
          },
        },
      },
    }),
    [],
  );
});

Deno.test("structuralErrors() requires a type on fields, items and the root", () => {
  assert.deepEqual(texts({ type: "object", properties: { spec: { properties: {} } } }), [
    `${P}.properties[spec].type: Required value: must not be empty for specified object fields`,
  ]);
  assert.deepEqual(texts({ type: "object", properties: { l: { type: "array", items: {} } } }), [
    `${P}.properties[l].items.type: Required value: must not be empty for specified array items`,
  ]);
  assert.deepEqual(texts({}), [`${P}.type: Required value: must not be empty at the root`]);
  assert.deepEqual(texts({ type: "string" }), [
    `${P}.type: Invalid value: "string": must be object at the root`,
  ]);
});

Deno.test("structuralErrors() requires items on arrays and rejects additionalProperties at the root", () => {
  assert.deepEqual(texts({ type: "object", properties: { l: { type: "array" } } }), [
    `${P}.properties[l].items: Required value: must be specified`,
  ]);
  assert.ok(
    texts({ type: "object", additionalProperties: { type: "string" } }).includes(
      `${P}.additionalProperties: Forbidden: must not be used at the root`,
    ),
  );
});

Deno.test("structuralErrors() rejects properties together with additionalProperties", () => {
  const errs = structuralErrors({
    type: "object",
    properties: {
      m: {
        type: "object",
        properties: { a: { type: "string" } },
        additionalProperties: { type: "string" },
      },
    },
  }, P);
  assert.equal(errs.length, 1);
  assert.equal(errs[0].type, "FieldValueForbidden");
  assert.equal(errs[0].field, `${P}.properties[m].additionalProperties`);
});

Deno.test("structuralErrors() forbids type, default, nullable and extensions inside junctors", () => {
  const errs = texts({
    type: "object",
    properties: {
      a: {
        type: "string",
        anyOf: [{ type: "string", default: "x", nullable: true }],
        not: { "x-kubernetes-preserve-unknown-fields": true },
      },
    },
  });
  assert.deepEqual(errs.sort(), [
    `${P}.properties[a].anyOf[0].default: Forbidden: must be undefined to be structural`,
    `${P}.properties[a].anyOf[0].nullable: Forbidden: must be false to be structural`,
    `${P}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`,
    `${P}.properties[a].not.x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
  ]);
});

Deno.test("structuralErrors() requires fields named in junctors to be specified outside them", () => {
  assert.deepEqual(
    texts({
      type: "object",
      properties: { s: { type: "object", properties: {}, anyOf: [{ properties: { b: {} } }] } },
    }),
    [
      `${P}.properties[s].properties[b]: Required value: because it is defined in ${P}.properties[s].anyOf[0].properties[b]`,
    ],
  );
});

Deno.test("structuralErrors() only lets root metadata restrict name and generateName", () => {
  assert.deepEqual(
    texts({
      type: "object",
      properties: { metadata: { type: "object", properties: { labels: { type: "object" } } } },
    }),
    [
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  );
  assert.deepEqual(texts({ type: "object", properties: { metadata: { type: "string" } } }), [
    `${P}.properties[metadata].type: Invalid value: "string": must be object`,
  ]);
});

Deno.test("structuralErrors() checks int-or-string, embedded resources and list-map keys", () => {
  assert.ok(
    texts({
      type: "object",
      properties: {
        p: { "x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true },
      },
    }).includes(
      `${P}.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ),
  );
  assert.deepEqual(
    texts({ type: "object", properties: { e: { "x-kubernetes-embedded-resource": true } } }).sort(),
    [
      `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${P}.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ],
  );
  assert.deepEqual(
    texts({
      type: "object",
      properties: {
        l: { type: "array", "x-kubernetes-list-type": "map", items: { type: "object" } },
      },
    }),
    [`${P}.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`],
  );
});

Deno.test("structuralErrors() survives garbage in place of schemas", () => {
  const bad = { type: "object", properties: { a: 5, b: null, c: "x" } } as unknown as SchemaProps;
  assert.deepEqual(structuralErrors(bad, P), []);
  assert.equal(structuralErrors(null as unknown as SchemaProps, P).length, 1);
});
