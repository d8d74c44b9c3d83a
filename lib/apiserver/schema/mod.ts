/**
 * The CRD structural-schema engine of the embedded API server: compile a CRD version's
 * `openAPIV3Schema` once, check it is structural, then prune, default and validate custom
 * resources with kube-apiserver's semantics and error texts.
 *
 * @example
 * ```ts
 * import { compileSchema, processCustomResource, structuralErrors } from "./mod.ts";
 * const schema = {
 *   type: "object",
 *   properties: {
 *     spec: {
 *       type: "object",
 *       required: ["size"],
 *       properties: { size: { type: "integer", minimum: 1 }, color: { type: "string", default: "red" } },
 *     },
 *   },
 * };
 * structuralErrors(schema, "spec.versions[0].schema.openAPIV3Schema"); // []
 * const compiled = compileSchema(schema);
 * processCustomResource({ apiVersion: "x/v1", kind: "W", spec: { size: 2 } }, compiled);
 * // { ok: true, object: { apiVersion: "x/v1", kind: "W", spec: { size: 2, color: "red" } }, warnings: [] }
 * ```
 *
 * @module
 */
export type {
  CompiledNode,
  CompiledPattern,
  CompiledSchema,
  SchemaProps,
  ValidationRule,
} from "./types.ts";
export { compilePattern } from "./compile_pattern.ts";
export { compileSchema, type CompileSchemaOptions } from "./compile_schema.ts";
export { structuralErrors } from "./structural_errors.ts";
export { OBJECT_META_FIELDS, pruneObject } from "./prune_object.ts";
export type { PruneResult } from "./prune_object.ts";
export { applyDefaults } from "./apply_defaults.ts";
export { validateObject } from "./validate_object.ts";
export { isBlockingError } from "./is_blocking_error.ts";
export { processCustomResource } from "./process_custom_resource.ts";
export { goDecodeError, goTypeOf } from "./go_decode_error.ts";
export { NAME_FORMATS, nameFormatErrors } from "./name_format_errors.ts";
export type { FieldValidation, ProcessOptions, ProcessResult } from "./process_custom_resource.ts";
