/**
 * The `celValidator` hook of the schema pipeline (`processCustomResource`).
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";
import type { CompiledSchema } from "../schema/types.ts";
import type { CelValidatorOptions } from "./types.ts";
import { validateCelRules } from "./validate_cel_rules.ts";

/**
 * Builds the `celValidator` option of `processCustomResource`: a function that runs the
 * schema's CEL rules on the pruned, defaulted object.
 *
 * Like {@link validateCelRules} with its options fixed: pass `{ oldObject }` on update so
 * transition rules (`oldSelf`) run; leave it out on create.
 *
 * @example
 * ```ts
 * import { compileSchema, processCustomResource } from "../schema/mod.ts";
 * import { celValidator } from "./cel_validator.ts";
 * const compiled = compileSchema({
 *   type: "object",
 *   properties: {
 *     spec: {
 *       type: "object",
 *       properties: { size: { type: "integer" } },
 *       "x-kubernetes-validations": [{ rule: "self.size >= oldSelf.size", message: "cannot shrink" }],
 *     },
 *   },
 * });
 * const oldObject = { spec: { size: 3 } };
 * const r = processCustomResource({ spec: { size: 2 } }, compiled, {
 *   celValidator: celValidator({ oldObject }),
 * });
 * r.ok; // false: spec: Invalid value: "object": cannot shrink
 * ```
 */
export function celValidator(
  opts: CelValidatorOptions = {},
): (object: unknown, compiled: CompiledSchema) => FieldError[] {
  return (object, compiled) => validateCelRules(object, compiled, opts);
}
