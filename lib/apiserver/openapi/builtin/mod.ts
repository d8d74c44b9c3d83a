/**
 * OpenAPI v3 schemas of every built-in kind (Kubernetes 1.30, generated from
 * `npm:kubernetes-types` and `npm:@kubernetes/client-node` by `deno task gen:schemas`),
 * loaded per Go package on first use: described component schemas for the served OpenAPI
 * documents, and compiled structural schemas for validation.
 *
 * @example
 * ```ts
 * import { builtinSchema, loadDocCatalog } from "./mod.ts";
 * const deployment = await builtinSchema("apps", "v1", "Deployment");
 * deployment?.root.properties?.get("spec")?.properties?.has("strategy"); // true
 * const catalog = await loadDocCatalog(["io.k8s.api.apps.v1.Deployment"]);
 * catalog("io.k8s.api.apps.v1.DeploymentStrategy")?.description; // "DeploymentStrategy describes ..."
 * ```
 *
 * @module
 */
export { builtinSchema, type BuiltinSchemaLookup, lookupBuiltinSchema } from "./builtin_schema.ts";
export { loadDocCatalog, type SchemaCatalog } from "./doc_catalog.ts";
export {
  builtinKindName,
  isLoaded,
  loadedDocs,
  loadedSchema,
  loadForNames,
  packageOfName,
} from "./load_packages.ts";
export type { SkeletonField, SkeletonType } from "./data_types.ts";
export { mergeFactsOf } from "./merge_skeleton.ts";
export type { Schema } from "../schema_builder.ts";
export type {
  CompiledNode,
  CompiledPattern,
  CompiledSchema,
  SchemaProps,
  ValidationRule,
} from "../../schema/types.ts";
