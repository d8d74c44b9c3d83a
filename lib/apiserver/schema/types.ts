/**
 * Types shared by the structural-schema engine: the schema as written in a CRD and the
 * compiled form every request reuses.
 *
 * @module
 */
import type { k8sApiextensions } from "../../deps.ts";

/** A CEL rule from `x-kubernetes-validations` (kept for a later CEL evaluator). */
export type ValidationRule = k8sApiextensions.ValidationRule;

/**
 * `JSONSchemaProps` plus the `x-kubernetes-*` extensions kube-apiserver understands
 * (kubernetes-types leaves them out).
 */
export interface SchemaProps extends
  Omit<
    k8sApiextensions.JSONSchemaProps,
    "properties" | "items" | "additionalProperties" | "allOf" | "anyOf" | "oneOf" | "not"
  > {
  properties?: { [name: string]: SchemaProps };
  items?: SchemaProps | SchemaProps[];
  additionalProperties?: SchemaProps | boolean;
  allOf?: SchemaProps[];
  anyOf?: SchemaProps[];
  oneOf?: SchemaProps[];
  not?: SchemaProps;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: ValidationRule[];
}

/** A `pattern` translated from Go RE2 to an ECMAScript RegExp, or why it could not be. */
export type CompiledPattern =
  | { readonly type: "ok"; readonly source: string; readonly regexp: RegExp }
  | { readonly type: "error"; readonly source: string; readonly reason: string };

/**
 * One schema node, prepared for validation, pruning and defaulting. Read-only: compiled
 * nodes are shared by every request.
 */
export interface CompiledNode {
  /** The schema as written (for CEL and for anything not precomputed here). */
  readonly schema: SchemaProps;
  /** Allowed JSON types; empty means any. `x-kubernetes-int-or-string` gives `integer,string`. */
  readonly types: readonly string[];
  /** `types` joined with `,` as Kubernetes prints them. */
  readonly typeLabel: string;
  readonly nullable: boolean;
  readonly format?: string;
  /** Named properties, in schema order. */
  readonly properties?: ReadonlyMap<string, CompiledNode>;
  /** `additionalProperties`: a schema, `true` (anything), `false` (nothing), or absent. */
  readonly additionalProperties?: CompiledNode | boolean;
  readonly items?: CompiledNode;
  readonly allOf?: readonly CompiledNode[];
  readonly anyOf?: readonly CompiledNode[];
  readonly oneOf?: readonly CompiledNode[];
  readonly not?: CompiledNode;
  readonly required?: readonly string[];
  readonly pattern?: CompiledPattern;
  /** Canonical JSON of every `enum` value, for O(1) membership. */
  readonly enumKeys?: ReadonlySet<string>;
  /** Whether a non-null `default` is set. */
  readonly hasDefault: boolean;
  readonly default?: unknown;
  /** Whether this node or any node below it in the structural skeleton has a default. */
  readonly subtreeHasDefault: boolean;
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly listType?: "atomic" | "set" | "map";
  readonly listMapKeys?: readonly string[];
  /**
   * The component a resolved `$ref` named (e.g. `io.k8s.api.core.v1.Container`), for
   * built-in schemas; absent for inline schemas.
   */
  readonly ref?: string;
  /** CEL rules on this node (not evaluated by this engine). */
  readonly validations?: readonly ValidationRule[];
}

/** A compiled CRD version schema: the root node plus facts about the whole tree. */
export interface CompiledSchema {
  readonly root: CompiledNode;
  /** Whether any node carries `x-kubernetes-validations` (CEL rules). */
  readonly hasCelRules: boolean;
  /** Patterns that could not be translated or compiled, with their schema paths. */
  readonly invalidPatterns: readonly { readonly path: string; readonly pattern: CompiledPattern }[];
}
