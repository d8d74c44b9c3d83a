import assert from "node:assert/strict";
import { type Infer, t } from "../../mod.ts";

type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true
  : false;
const typeIs = <T extends true>(_: T) => {};

const spec = t.object({
  replicas: t.optional(t.integer({ minimum: 0, default: 1, description: "How many." })),
  mode: t.enumOf(["Fast", "Safe"] as const),
  tags: t.array(t.string({ maxLength: 3 }), { listType: "set" }),
  labels: t.optional(t.record(t.string())),
  raw: t.optional(t.preserveUnknown<{ anything: number }>()),
  nested: t.object({ on: t.boolean(), ratio: t.optional(t.number({ maximum: 1 })) }),
});

Deno.test("t.object() derives the TypeScript type: optional fields optional, enums as unions", () => {
  type Spec = Infer<typeof spec>;
  typeIs<
    Equals<Spec, {
      replicas?: number;
      mode: "Fast" | "Safe";
      tags: string[];
      labels?: Record<string, string>;
      raw?: { anything: number };
      nested: { on: boolean; ratio?: number };
    }>
  >(true);
  const ok: Spec = { mode: "Safe", tags: [], nested: { on: true } };
  assert.equal(ok.mode, "Safe");
});

Deno.test("t.object() produces the structural schema with required fields and extensions", () => {
  assert.deepEqual(spec.json, {
    type: "object",
    properties: {
      replicas: { type: "integer", minimum: 0, default: 1, description: "How many." },
      mode: { type: "string", enum: ["Fast", "Safe"] },
      tags: {
        type: "array",
        items: { type: "string", maxLength: 3 },
        "x-kubernetes-list-type": "set",
      },
      labels: { type: "object", additionalProperties: { type: "string" } },
      raw: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      nested: {
        type: "object",
        properties: { on: { type: "boolean" }, ratio: { type: "number", maximum: 1 } },
        required: ["on"],
      },
    },
    required: ["mode", "tags", "nested"],
  });
});

Deno.test("t builders merge `extensions` last and leave an empty object bare", () => {
  const s = t.object({}, {
    extensions: { "x-kubernetes-validations": [{ rule: "self.size() == 0" }] },
  });
  assert.deepEqual(s.json, {
    type: "object",
    "x-kubernetes-validations": [{ rule: "self.size() == 0" }],
  });
  const l = t.array(t.object({ type: t.string() }), { listType: "map", listMapKeys: ["type"] });
  assert.deepEqual(l.json["x-kubernetes-list-map-keys"], ["type"]);
  assert.equal(t.optional(t.string()).optional, true);
  assert.equal(t.string().optional, false);
});

Deno.test("t.resource() is a root object with optional apiVersion, kind and a bare metadata object beside its fields", () => {
  const spec = t.object({ size: t.integer() });
  const root = t.resource({ spec, status: t.optional(t.object({ ready: t.boolean() })) }, {
    description: "A thing.",
  });
  assert.deepEqual(
    root.json,
    t.object({
      apiVersion: t.optional(t.string()),
      kind: t.optional(t.string()),
      metadata: t.optional(t.object({})),
      spec,
      status: t.optional(t.object({ ready: t.boolean() })),
    }, { description: "A thing." }).json,
  );
  assert.deepEqual(Object.keys(root.json.properties ?? {}), [
    "apiVersion",
    "kind",
    "metadata",
    "spec",
    "status",
  ]);
  assert.deepEqual(root.json.required, ["spec"]);
});
