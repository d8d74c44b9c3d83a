/**
 * The shapes of the generated data in `./data/` (written by
 * `tests/tools/builtin_schemas/generate.ts`, never by hand).
 *
 * @module
 */
import type { Schema } from "../schema_builder.ts";

/** Component schemas of one Go package, by short type name (`PodSpec`). */
export type PackageSchemas = Readonly<Record<string, Schema>>;

/** Descriptions of one package's types: `""` for the type itself, then one per property. */
export type PackageDocs = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** One Go package of generated schemas (`io.k8s.api.core.v1`), loaded on first use. */
export interface PackageEntry {
  /** The structure: types, formats, required fields, `$ref`s, `x-kubernetes-*` facts. */
  readonly schemas: () => Promise<{ readonly default: PackageSchemas }>;
  /** The descriptions (`kubectl explain` text), kept apart because they are most of the bytes. */
  readonly docs: () => Promise<{ readonly default: PackageDocs }>;
  /** Every other package its schemas reference, directly or not. */
  readonly uses: readonly string[];
}

/**
 * The merge facts of one field on the way to a list or map with non-default semantics:
 * the `x-kubernetes-*` extensions of the field, the component its value (or its items or map
 * values) refers to when that component has such fields too, and the defaults of list-map
 * key fields.
 */
export interface SkeletonField {
  /** The component of the value, its list items or its map values, when it has facts too. */
  readonly ref?: string;
  /** Whether the field is a list or a map (absent: an object). */
  readonly container?: "array" | "map";
  /** `x-kubernetes-patch-strategy`: `merge`, `retainKeys`, `merge,retainKeys`, `replace`. */
  readonly patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`. */
  readonly patchMergeKey?: string;
  /** `x-kubernetes-list-type` (`atomic` only beside a merge key). */
  readonly listType?: "atomic" | "set" | "map";
  /** `x-kubernetes-list-map-keys`. */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-map-type`. */
  readonly mapType?: "atomic" | "granular";
  /** Defaults of list-map key fields in the item type (`protocol: TCP`). */
  readonly keyDefaults?: Readonly<Record<string, string>>;
}

/** A component with merge facts of its own or below it. */
export interface SkeletonType {
  /** `x-kubernetes-map-type: atomic` on the type. */
  readonly atomic?: boolean;
  /** The fields with facts, or leading to a component with facts. */
  readonly fields: Readonly<Record<string, SkeletonField>>;
}
