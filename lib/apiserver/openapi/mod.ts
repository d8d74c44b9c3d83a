/**
 * OpenAPI v3 documents of the embedded API server: per group/version documents built from
 * the registry, CRD schemas and the generated schemas of every built-in kind (see
 * `./builtin/`, which also compiles built-in schemas for validation).
 *
 * @example
 * ```ts
 * import { gvDocument } from "./mod.ts";
 * gvDocument([], () => undefined).openapi; // "3.0.0"
 * ```
 *
 * @module
 */
export { gvDocument, type GvResource, type OpenApiDocument } from "./gv_document.ts";
export {
  builtinKindName,
  builtinSchema,
  type BuiltinSchemaLookup,
  isLoaded,
  loadDocCatalog,
  loadedDocs,
  loadedSchema,
  loadForNames,
  lookupBuiltinSchema,
  packageOfName,
  type SchemaCatalog,
} from "./builtin/mod.ts";
export { type Gvk, referencedNames, s, type Schema } from "./schema_builder.ts";
export { schemaName } from "./schema_name.ts";
export { resourcePaths } from "./resource_paths.ts";
export { resourceSchemas } from "./resource_schemas.ts";
export { kindObject } from "./kind_object.ts";
