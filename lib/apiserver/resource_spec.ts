/**
 * The compact spec a built-in resource is declared with, and its expansion into the
 * {@link ResourceInfo} the registry serves.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { ageColumn, type ResourceInfo, type TableColumn } from "./resource_info.ts";

/** One built-in resource, with every field that has a usual value left optional. */
export interface ResourceSpec {
  /** `group/version`, or `v1` for the core group. */
  readonly gv: string;
  readonly plural: string;
  readonly kind: string;
  /** Default true. */
  readonly namespaced?: boolean;
  readonly shortNames?: string[];
  readonly categories?: string[];
  /** Has a status subresource. */
  readonly status?: boolean;
  /** A create keeps the status it is sent (Nodes). */
  readonly statusOnCreate?: boolean;
  /** Has a scale subresource (`.spec.replicas`, `.status.replicas`, `.status.selector`). */
  readonly scale?: boolean;
  /** Spec changes bump `metadata.generation`. */
  readonly generation?: boolean;
  /** DELETE answers with the object. */
  readonly returnDeleted?: boolean;
  readonly nameRule?: ResourceInfo["nameRule"];
  readonly extra?: ResourceInfo["extraSubresources"];
  readonly fields?: ResourceInfo["fieldSelectors"];
  /** Columns before AGE. */
  readonly columns?: TableColumn[];
  /** Columns after AGE (wide output). */
  readonly wide?: TableColumn[];
  /** All columns, when AGE is not among them (e.g. kube-apiserver's default NAME, CREATED AT). */
  readonly ownColumns?: TableColumn[];
  /** The NAME cell when not the name. */
  readonly nameCell?: ResourceInfo["nameCell"];
  /** Storage key when stored as another version's resource. */
  readonly storedAs?: string;
  readonly convert?: ResourceInfo["convert"];
  /** Served verbs when not the standard ones (`["create"]` for the review kinds). */
  readonly verbs?: readonly string[];
  /**
   * Whether an update without a resourceVersion (or with "0") is unconditional (default
   * true; false for CRDs and APIServices, as their registry strategies say).
   */
  readonly unconditionalUpdate?: boolean;
}

/** A string, or undefined for null and undefined. */
export const str = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : String(v);

/** The value at a path of plain objects, or undefined. */
export const at = (obj: KubeObject, ...path: string[]): unknown => {
  let cur: unknown = obj;
  for (const p of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
};

/** A table column whose description is its name. */
export const col = (
  name: string,
  cell: TableColumn["cell"],
  type: TableColumn["type"] = "string",
  priority = 0,
): TableColumn => ({ name, type, priority, description: name, cell });

/**
 * Expands a spec into the resource the registry serves.
 *
 * @example
 * ```ts
 * import { resourceInfoOf } from "./resource_spec.ts";
 * const info = resourceInfoOf({ gv: "scheduling.k8s.io/v1", plural: "priorityclasses", kind: "PriorityClass" });
 * [info.group, info.storageKey, info.listKind]; // ["scheduling.k8s.io", "scheduling.k8s.io/priorityclasses", "PriorityClassList"]
 * ```
 */
export function resourceInfoOf(s: ResourceSpec): ResourceInfo {
  const [group, version] = s.gv.includes("/") ? s.gv.split("/") : ["", s.gv];
  return {
    group,
    version,
    plural: s.plural,
    singular: s.kind.toLowerCase(),
    kind: s.kind,
    listKind: `${s.kind}List`,
    namespaced: s.namespaced ?? true,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    storageKey: s.storedAs ?? `${group}/${s.plural}`,
    ...(s.convert ? { convert: s.convert } : {}),
    ...(s.verbs ? { verbs: s.verbs } : {}),
    ...(s.nameCell ? { nameCell: s.nameCell } : {}),
    hasStatus: s.status ?? false,
    ...(s.statusOnCreate ? { statusOnCreate: true } : {}),
    scale: s.scale
      ? {
        specReplicasPath: ".spec.replicas",
        statusReplicasPath: ".status.replicas",
        labelSelectorPath: ".status.selector",
      }
      : undefined,
    extraSubresources: s.extra ?? [],
    hasGeneration: s.generation ?? false,
    allowUnconditionalUpdate: s.unconditionalUpdate ?? true,
    returnDeletedObject: s.returnDeleted ?? false,
    nameRule: s.nameRule ?? "subdomain",
    fieldSelectors: s.fields ?? {},
    columns: s.ownColumns ?? [...(s.columns ?? []), ageColumn, ...(s.wide ?? [])],
    isCustom: false,
    strategicMerge: true,
  };
}
