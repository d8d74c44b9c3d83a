/**
 * OpenAPI v3 documents of the embedded API server: per group/version documents built from
 * the registry, CRD schemas and a described subset of built-in kinds.
 *
 * @example
 * ```ts
 * import { gvDocument } from "./mod.ts";
 * gvDocument([]).openapi; // "3.0.0"
 * ```
 *
 * @module
 */
export {
  builtinCatalog,
  gvDocument,
  type GvResource,
  type OpenApiDocument,
} from "./gv_document.ts";
export { type Gvk, referencedNames, s, type Schema } from "./schema_builder.ts";
export { schemaName } from "./schema_name.ts";
export { resourcePaths } from "./resource_paths.ts";
export { resourceSchemas } from "./resource_schemas.ts";
export { kindObject } from "./kind_object.ts";
