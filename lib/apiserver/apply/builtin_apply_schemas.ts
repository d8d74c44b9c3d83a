/**
 * Server-side apply schemas of the built-in kinds, derived from the generated schemas'
 * `x-kubernetes-list-type`, `x-kubernetes-list-map-keys` and `x-kubernetes-map-type` (the
 * `+listType`, `+listMapKey`, `+mapType` and `+structType` markers of the Go API types,
 * written down once in `../openapi/builtin/semantics_overlay.ts`), with the defaults of
 * list-map key fields (`protocol: TCP`). A list with a patch merge key but no list type is
 * a list map on that key, as kube's OpenAPI conversion makes it.
 *
 * @module
 */
import { builtinKindName } from "../openapi/builtin/load_packages.ts";
import { mergeFactsOf } from "../openapi/builtin/merge_skeleton.ts";
import type { SkeletonField } from "../openapi/builtin/data_types.ts";
import {
  type ApplySchema,
  atomic,
  listMap,
  listSet,
  struct,
  type StructApplySchema,
} from "./apply_schema.ts";

const structs = new Map<string, StructApplySchema>();

/** The granular apply schema of a component, shared (a recursive type refers to itself). */
function structOf(name: string): StructApplySchema {
  const hit = structs.get(name);
  if (hit) return hit;
  const fields: Record<string, ApplySchema> = {};
  const out = struct(fields);
  structs.set(name, out);
  for (const [field, facts] of Object.entries(mergeFactsOf(name)?.fields ?? {})) {
    const s = fieldOf(facts);
    if (s) fields[field] = s;
  }
  return out;
}

const isEmpty = (s: StructApplySchema) => !Object.keys(s.fields ?? {}).length && !s.elements;

/** A component's value: atomic when the type says so, else its struct (if it says anything). */
function valueOf(name: string | undefined, granular = false): ApplySchema | undefined {
  if (!name) return undefined;
  if (!granular && mergeFactsOf(name)?.atomic) return atomic;
  const s = structOf(name);
  return isEmpty(s) ? undefined : s;
}

function fieldOf(f: SkeletonField): ApplySchema | undefined {
  if (f.container === "array") {
    const listType = f.listType ?? (f.patchMergeKey ? "map" : "atomic");
    if (listType === "set") return listSet;
    if (listType !== "map") return undefined;
    const items = valueOf(f.ref);
    return listMap(
      f.listMapKeys ?? [f.patchMergeKey!],
      items?.type === "struct" ? items : undefined,
      f.keyDefaults,
    );
  }
  if (f.mapType === "atomic") return atomic;
  if (f.container === "map") {
    const values = valueOf(f.ref);
    return values ? struct({}, values) : undefined;
  }
  return valueOf(f.ref, f.mapType === "granular");
}

const kindSchema = (apiVersion: string, kind: string) =>
  structOf(builtinKindName(apiVersion, kind) ?? "");

/** `metav1.ObjectMeta`: labels/annotations granular maps, finalizers a set, owners by uid. */
export const objectMetaApplySchema: StructApplySchema = structOf(
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
);
/** `core/v1.Container`. */
export const containerApplySchema: StructApplySchema = structOf("io.k8s.api.core.v1.Container");
/** `core/v1.PodSpec`. */
export const podSpecApplySchema: StructApplySchema = structOf("io.k8s.api.core.v1.PodSpec");
/** `core/v1.Pod`. */
export const podApplySchema: StructApplySchema = kindSchema("v1", "Pod");
/** `core/v1.PodTemplateSpec`. */
export const podTemplateApplySchema: StructApplySchema = structOf(
  "io.k8s.api.core.v1.PodTemplateSpec",
);
/** A workload with a pod template and an atomic `LabelSelector` (here: Deployment). */
export const workloadApplySchema: StructApplySchema = kindSchema("apps/v1", "Deployment");
/** `batch/v1.Job` (its status conditions are atomic). */
export const jobApplySchema: StructApplySchema = kindSchema("batch/v1", "Job");
/** `core/v1.Service`: ports keyed by `port` + `protocol`. */
export const serviceApplySchema: StructApplySchema = kindSchema("v1", "Service");
/** `core/v1.Node`. */
export const nodeApplySchema: StructApplySchema = kindSchema("v1", "Node");
/** Any kind whose only non-default lists are ObjectMeta's (ConfigMap, Secret, Lease, ...). */
export const objectApplySchema: StructApplySchema = struct({ metadata: objectMetaApplySchema });

/**
 * The apply schema of a built-in kind; unknown kinds get {@link objectApplySchema}.
 *
 * @param apiVersion e.g. `apps/v1`
 * @param kind e.g. `Deployment`
 *
 * @example
 * ```ts
 * import { applySchemaFor } from "./builtin_apply_schemas.ts";
 * applySchemaFor("apps/v1", "Deployment").fields?.spec !== undefined; // true
 * ```
 */
export function applySchemaFor(apiVersion: string, kind: string): StructApplySchema {
  const name = builtinKindName(apiVersion, kind);
  return name ? structOf(name) : objectApplySchema;
}
