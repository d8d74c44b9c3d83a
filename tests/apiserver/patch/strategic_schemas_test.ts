/**
 * The strategic-merge tables derived from the generated schemas: every built-in kind has one,
 * merge keys and retainKeys come from the overlay, and patches behave accordingly.
 */
import assert from "node:assert/strict";
import type { Json } from "../../../mod.ts";
import { applyStrategicMergePatch } from "../../../lib/apiserver/patch/strategic_merge_patch.ts";
import {
  objectSchema,
  strategicSchemaFor,
} from "../../../lib/apiserver/patch/strategic_schemas.ts";
import type { MergeSchema, StructSchema } from "../../../lib/apiserver/patch/merge_schema.ts";
import { kinds } from "../../../lib/apiserver/openapi/builtin/data/index.ts";
import { isLeft } from "./_helpers.ts";

/** The schema at a path of field names (list items are entered through `items`). */
function at(schema: MergeSchema | undefined, ...path: string[]): MergeSchema | undefined {
  let s = schema;
  for (const p of path) {
    const struct: StructSchema | undefined = s?.type === "keyedList"
      ? s.items
      : s?.type === "struct"
      ? s
      : undefined;
    s = struct?.fields[p];
  }
  return s;
}

const patch = (apiVersion: string, kind: string, doc: unknown, p: unknown): Json => {
  const r = applyStrategicMergePatch(doc as Json, p, strategicSchemaFor(apiVersion, kind)!);
  if (isLeft(r)) throw new Error(r.left.message);
  return r.right;
};

Deno.test("strategicSchemaFor() has a schema for every generated built-in kind", () => {
  for (const key of Object.keys(kinds)) {
    const cut = key.lastIndexOf("/");
    const s = strategicSchemaFor(key.slice(0, cut), key.slice(cut + 1));
    assert.equal(s?.type, "struct", key);
  }
  assert.equal(strategicSchemaFor("rbac.authorization.k8s.io/v1", "Role"), objectSchema);
});

Deno.test("strategicSchemaFor() derives merge keys, sets and retainKeys from the overlay", () => {
  const sts = strategicSchemaFor("apps/v1", "StatefulSet");
  assert.deepEqual(at(sts, "spec", "template", "spec", "containers")?.type, "keyedList");
  assert.equal(
    (at(sts, "spec", "template", "spec", "containers", "volumeMounts") as { mergeKey: string })
      .mergeKey,
    "mountPath",
  );
  assert.equal(at(sts, "metadata", "finalizers")?.type, "setList");
  const vwc = strategicSchemaFor(
    "admissionregistration.k8s.io/v1",
    "ValidatingWebhookConfiguration",
  );
  assert.equal((at(vwc, "webhooks") as { mergeKey: string }).mergeKey, "name");
  const volumes = at(strategicSchemaFor("v1", "Pod"), "spec", "volumes");
  assert.ok(volumes?.type === "keyedList" && volumes.items.retainKeys === true);
  assert.equal(at(strategicSchemaFor("v1", "Node"), "spec", "podCIDRs")?.type, "setList");
  // Lists without a merge strategy are replaced: nothing is said about them.
  assert.equal(at(strategicSchemaFor("v1", "Pod"), "spec", "tolerations"), undefined);
});

Deno.test("a strategic merge patch of a HorizontalPodAutoscaler merges status conditions by type", () => {
  const hpa = {
    status: {
      conditions: [
        { type: "AbleToScale", status: "True" },
        { type: "ScalingActive", status: "False" },
      ],
    },
  };
  const out = patch("autoscaling/v2", "HorizontalPodAutoscaler", hpa, {
    status: { conditions: [{ type: "ScalingActive", status: "True" }] },
  });
  assert.deepEqual((out as { status: unknown }).status, {
    conditions: [
      { type: "AbleToScale", status: "True" },
      { type: "ScalingActive", status: "True" },
    ],
  });
});
