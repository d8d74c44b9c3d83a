import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  applyDefaults,
  compileSchema,
  pruneObject,
  type SchemaProps,
} from "../../../lib/apiserver/schema/mod.ts";

const schema: SchemaProps = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        size: { type: "integer", default: 1 },
        nullableWithDefault: { type: "string", nullable: true, default: "n" },
        tls: {
          type: "object",
          default: {},
          properties: { mode: { type: "string", default: "Terminate" } },
        },
        refs: {
          type: "array",
          items: {
            type: "object",
            properties: {
              group: { type: "string", default: "" },
              kind: { type: "string", default: "Service" },
            },
          },
        },
        matches: {
          type: "array",
          default: [{ path: { type: "PathPrefix", value: "/" } }],
          items: { type: "object", properties: { path: { type: "object" } } },
        },
        limits: {
          type: "object",
          additionalProperties: {
            type: "object",
            properties: { unit: { type: "string", default: "Mi" } },
          },
        },
      },
    },
    status: { type: "object", default: { phase: "Pending" } },
  },
};
const compiled = compileSchema(schema);

Deno.test("applyDefaults() fills absent fields, nested defaults included", () => {
  assert.deepEqual(applyDefaults({ spec: {} }, compiled), {
    spec: {
      size: 1,
      nullableWithDefault: "n",
      tls: { mode: "Terminate" },
      matches: [{ path: { type: "PathPrefix", value: "/" } }],
    },
    status: { phase: "Pending" },
  });
});

Deno.test("applyDefaults() applies defaults only inside objects that exist", () => {
  assert.deepEqual(applyDefaults({}, compiled), { status: { phase: "Pending" } });
});

Deno.test("applyDefaults() keeps given values and replaces null only where not nullable", () => {
  const out = applyDefaults(
    { spec: { size: null, nullableWithDefault: null, tls: { mode: "Passthrough" }, matches: [] } },
    compiled,
  ) as { spec: Record<string, unknown> };
  assert.equal(out.spec.size, 1);
  assert.equal(out.spec.nullableWithDefault, null);
  assert.deepEqual(out.spec.tls, { mode: "Passthrough" });
  assert.deepEqual(out.spec.matches, []);
});

Deno.test("applyDefaults() defaults each list item and each map value", () => {
  const out = applyDefaults(
    {
      spec: { refs: [{ name: "a" }, { kind: "Other" }], limits: { cpu: {}, mem: { unit: "Gi" } } },
    },
    compiled,
  ) as { spec: Record<string, unknown> };
  assert.deepEqual(out.spec.refs, [
    { name: "a", group: "", kind: "Service" },
    { kind: "Other", group: "" },
  ]);
  assert.deepEqual(out.spec.limits, { cpu: { unit: "Mi" }, mem: { unit: "Gi" } });
});

Deno.test("applyDefaults() is pure: no mutation of the input or of the schema's defaults", () => {
  const input = { spec: { refs: [{}] } };
  const copy = structuredClone(input);
  const a = applyDefaults(input, compiled) as { spec: { matches: { path: { value: string } }[] } };
  assert.deepEqual(input, copy);
  a.spec.matches[0].path.value = "/changed";
  const b = applyDefaults({ spec: {} }, compiled) as typeof a;
  assert.equal(b.spec.matches[0].path.value, "/", "defaults are copied, not shared");
});

Deno.test("applyDefaults() returns the same reference when nothing is defaulted", () => {
  const none = compileSchema({ type: "object", properties: { a: { type: "string" } } });
  const x = { a: "1" };
  assert.equal(applyDefaults(x, none), x);
});

Deno.test("applyDefaults() is idempotent on pruned values", () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  const shaped = fc.record({
    spec: fc.dictionary(
      fc.constantFrom("size", "tls", "refs", "matches", "limits", "x"),
      fc.oneof(json, fc.array(fc.dictionary(fc.constantFrom("group", "kind"), json))),
    ),
  }, { requiredKeys: [] });
  fc.assert(
    fc.property(fc.oneof(json, shaped), (x) => {
      const pruned = pruneObject(x, compiled).value;
      const once = applyDefaults(pruned, compiled);
      assert.deepEqual(applyDefaults(once, compiled), once);
    }),
    { numRuns: 300 },
  );
});
