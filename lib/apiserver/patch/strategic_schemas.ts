/**
 * Strategic-merge schemas of the built-in kinds, derived from the generated schemas'
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` (the `patchStrategy` and
 * `patchMergeKey` tags of the Go API types, written down once in
 * `../openapi/builtin/semantics_overlay.ts`).
 *
 * @module
 */
import { builtinKindName } from "../openapi/builtin/load_packages.ts";
import { mergeFactsOf } from "../openapi/builtin/merge_skeleton.ts";
import type { SkeletonField } from "../openapi/builtin/data_types.ts";
import {
  emptyStruct,
  keyedList,
  type MergeSchema,
  setList,
  type StructSchema,
  structSchema,
} from "./merge_schema.ts";

const structs = new Map<string, StructSchema>();

/** The strategic-merge schema of a component, shared (a recursive type refers to itself). */
function structOf(name: string): StructSchema {
  const hit = structs.get(name);
  if (hit) return hit;
  const fields: Record<string, MergeSchema> = {};
  const out = structSchema(fields);
  structs.set(name, out);
  for (const [field, facts] of Object.entries(mergeFactsOf(name)?.fields ?? {})) {
    const s = fieldOf(facts);
    if (s) fields[field] = s;
  }
  return out;
}

function fieldOf(f: SkeletonField): MergeSchema | undefined {
  const strategy = f.patchStrategy?.split(",") ?? [];
  const retainKeys = strategy.includes("retainKeys");
  const inner = f.ref ? structOf(f.ref) : emptyStruct;
  if (f.container === "array") {
    if (!strategy.includes("merge")) return undefined;
    if (!f.patchMergeKey) return setList;
    return keyedList(
      f.patchMergeKey,
      retainKeys ? structSchema(inner.fields, { retainKeys }) : inner,
    );
  }
  if (f.container === "map") return undefined;
  if (retainKeys) return structSchema(inner.fields, { retainKeys });
  return Object.keys(inner.fields).length ? inner : undefined;
}

const component = (apiVersion: string, kind: string) =>
  structOf(builtinKindName(apiVersion, kind) ?? "");

/** `metav1.ObjectMeta`: `finalizers` merge as a set, `ownerReferences` by `uid`. */
export const objectMetaSchema: StructSchema = structOf(
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
);
/** `core/v1.Container` (init containers too). */
export const containerSchema: StructSchema = structOf("io.k8s.api.core.v1.Container");
/** `core/v1.PodSpec`. */
export const podSpecSchema: StructSchema = structOf("io.k8s.api.core.v1.PodSpec");
/** `core/v1.PodStatus`. */
export const podStatusSchema: StructSchema = structOf("io.k8s.api.core.v1.PodStatus");
/** `core/v1.PodTemplateSpec`. */
export const podTemplateSpecSchema: StructSchema = structOf("io.k8s.api.core.v1.PodTemplateSpec");
/** `core/v1.Pod`. */
export const podSchema: StructSchema = component("v1", "Pod");
/** `apps/v1.Deployment` (`spec.strategy` is `retainKeys`). */
export const deploymentSchema: StructSchema = component("apps/v1", "Deployment");
/** A kind whose `spec.template` is a PodTemplateSpec (here: ReplicaSet's). */
export const podTemplateOwnerSchema: StructSchema = component("apps/v1", "ReplicaSet");
/** `batch/v1.CronJob`. */
export const cronJobSchema: StructSchema = component("batch/v1", "CronJob");
/** `core/v1.Service` (`spec.ports` by `port`). */
export const serviceSchema: StructSchema = component("v1", "Service");
/** `core/v1.Node` (`status.conditions` and `status.addresses` by `type`). */
export const nodeSchema: StructSchema = component("v1", "Node");
/** `core/v1.ServiceAccount` (`secrets` by `name`). */
export const serviceAccountSchema: StructSchema = component("v1", "ServiceAccount");
/** Any built-in kind without list strategies of its own: only ObjectMeta's. */
export const objectSchema: StructSchema = structSchema({ metadata: objectMetaSchema });

const isObjectOnly = (s: StructSchema) => {
  const keys = Object.keys(s.fields);
  return keys.length === 1 && s.fields.metadata === objectMetaSchema && !s.retainKeys;
};

/**
 * The strategic-merge schema of a built-in kind, or `undefined` when the kind is not built in
 * (custom resources: the server then answers 415 to `application/strategic-merge-patch+json`).
 * Kinds whose only merge strategies are ObjectMeta's share {@link objectSchema}.
 *
 * @param apiVersion e.g. `v1`, `apps/v1`
 * @param kind e.g. `Pod`
 * @returns the kind's {@link MergeSchema}, or `undefined`
 *
 * @example
 * ```ts
 * import { strategicSchemaFor } from "./strategic_schemas.ts";
 * strategicSchemaFor("apps/v1", "Deployment") !== undefined; // true
 * strategicSchemaFor("example.com/v1", "Widget"); // undefined
 * ```
 */
export function strategicSchemaFor(apiVersion: string, kind: string): MergeSchema | undefined {
  const name = builtinKindName(apiVersion, kind);
  if (!name) return undefined;
  const s = structOf(name);
  return isObjectOnly(s) ? objectSchema : s;
}
