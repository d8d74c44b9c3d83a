/**
 * The whole schema pipeline a custom resource write goes through: prune, default, validate.
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";
import { fieldInvalid } from "./_field_errors.ts";
import { applyDefaults } from "./apply_defaults.ts";
import { isBlockingError } from "./is_blocking_error.ts";
import { pruneObject } from "./prune_object.ts";
import type { CompiledSchema } from "./types.ts";
import { validateObject } from "./validate_object.ts";

/** The `fieldValidation` query parameter of a write request. */
export type FieldValidation = "Strict" | "Warn" | "Ignore";

/** Options of {@link processCustomResource}. */
export interface ProcessOptions {
  /** How unknown (pruned) fields are reported. Default `Warn`, as kube-apiserver. */
  readonly fieldValidation?: FieldValidation;
  /**
   * Evaluates the schema's CEL rules (`x-kubernetes-validations`) on the defaulted object.
   * Called only when schema validation found no blocking error. Default: none.
   */
  readonly celValidator?: (object: unknown, schema: CompiledSchema) => FieldError[];
}

/** What {@link processCustomResource} returns. */
export type ProcessResult =
  | {
    readonly ok: true;
    /** The pruned and defaulted object to store. */
    readonly object: unknown;
    /** `Warning` header texts, e.g. `unknown field "spec.foo"` (with `Warn`). */
    readonly warnings: string[];
  }
  | {
    readonly ok: false;
    /** `BadRequest` (400) for unknown fields under `Strict`, else `Invalid` (422). */
    readonly reason: "BadRequest" | "Invalid";
    readonly errors: FieldError[];
    /** Paths of the unknown fields that were (or would have been) pruned. */
    readonly unknownFields: string[];
  };

const CEL_SKIPPED =
  "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

const unknownField = (path: string) => `unknown field "${path}"`;

/**
 * Prunes, defaults and validates a custom resource in kube-apiserver's order.
 *
 * Like the custom-resource create/update path of kube-apiserver: unknown fields are
 * dropped (and warned about with `Warn`, rejected as a 400 with `Strict`, ignored with
 * `Ignore`), defaults are applied, then the object is validated; when validation finds a
 * blocking error and the schema has CEL rules, the "some validation rules were not
 * checked" error is added (CEL rules themselves run only through `celValidator`).
 *
 * @example
 * ```ts
 * import { compileSchema } from "./compile_schema.ts";
 * import { processCustomResource } from "./process_custom_resource.ts";
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { spec: { type: "object", properties: { size: { type: "integer", default: 1 } } } },
 * });
 * const r = processCustomResource({ apiVersion: "x/v1", kind: "X", spec: { foo: 1 } }, schema);
 * // { ok: true, object: { apiVersion: "x/v1", kind: "X", spec: { size: 1 } },
 * //   warnings: ['unknown field "spec.foo"'] }
 * const s = processCustomResource({ spec: { foo: 1 } }, schema, { fieldValidation: "Strict" });
 * s.ok; // false (reason "BadRequest")
 * ```
 */
export function processCustomResource(
  obj: unknown,
  compiled: CompiledSchema,
  opts: ProcessOptions = {},
): ProcessResult {
  const mode = opts.fieldValidation ?? "Warn";
  const { value, pruned } = pruneObject(obj, compiled);
  if (mode === "Strict" && pruned.length > 0) {
    return {
      ok: false,
      reason: "BadRequest",
      errors: pruned.map((p) => ({ type: "FieldValueInvalid", field: p, detail: unknownField(p) })),
      unknownFields: pruned,
    };
  }
  const object = applyDefaults(value, compiled);
  const errors = validateObject(object, compiled);
  if (errors.some(isBlockingError)) {
    if (compiled.hasCelRules) errors.push(fieldInvalid("", null, CEL_SKIPPED));
  } else if (opts.celValidator) {
    errors.push(...opts.celValidator(object, compiled));
  }
  if (errors.length > 0) return { ok: false, reason: "Invalid", errors, unknownFields: pruned };
  return { ok: true, object, warnings: mode === "Warn" ? pruned.map(unknownField) : [] };
}
