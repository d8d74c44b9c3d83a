/**
 * CEL validation rules (`x-kubernetes-validations`) for the embedded API server's custom
 * resources, evaluated with `@bufbuild/cel` plus the Kubernetes CEL library, with
 * kube-apiserver's semantics and error texts.
 *
 * Wiring: on CRD create/update, add `celCompileErrors(schema, "<path of openAPIV3Schema>")`
 * to the CRD's validation errors; on a custom resource write, pass
 * `celValidator({ oldObject })` (update) or `celValidator()` (create) as the `celValidator`
 * option of `processCustomResource`. Rules are compiled once per `CompiledSchema` (cached).
 *
 * @example
 * ```ts
 * import { compileSchema, processCustomResource } from "../schema/mod.ts";
 * import { celCompileErrors, celValidator } from "./mod.ts";
 * const schema = {
 *   type: "object",
 *   properties: {
 *     spec: {
 *       type: "object",
 *       properties: { replicas: { type: "integer" } },
 *       "x-kubernetes-validations": [{ rule: "self.replicas <= 5", message: "too many" }],
 *     },
 *   },
 * };
 * celCompileErrors(schema, "spec.validation.openAPIV3Schema"); // []
 * const r = processCustomResource({ spec: { replicas: 9 } }, compileSchema(schema), {
 *   celValidator: celValidator(),
 * });
 * // { ok: false, reason: "Invalid", errors: [{ type: "FieldValueInvalid", field: "spec",
 * //   detail: 'Invalid value: "object": too many' }], unknownFields: [] }
 * ```
 *
 * @module
 */
export type {
  CelCostOptions,
  CelValidatorOptions,
  CompiledCelRules,
  CompiledRule,
  RuleNode,
  RuleProblem,
} from "./types.ts";
export { celValidator } from "./cel_validator.ts";
export {
  DEFAULT_PER_RULE_COST_LIMIT,
  DEFAULT_TOTAL_COST_BUDGET,
  validateCelRules,
} from "./validate_cel_rules.ts";
export { celCompileErrors } from "./cel_compile_errors.ts";
export { compileMatchCondition } from "./compile_match_condition.ts";
export type { MatchConditionInput, MatchConditionProgram } from "./compile_match_condition.ts";
export { compileCelRules } from "./compile_cel_rules.ts";
export { escapePropertyName } from "./escape_property_name.ts";
export { toCelValue } from "./to_cel_value.ts";
export type { ToCelOptions } from "./to_cel_value.ts";
