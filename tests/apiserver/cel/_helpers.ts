/**
 * Test helpers: evaluate one CEL rule against a value.
 *
 * @module
 */
import type { FieldError } from "../../../mod.ts";
import { compileSchema, type SchemaProps } from "../../../lib/apiserver/schema/mod.ts";
import { type CelValidatorOptions, validateCelRules } from "../../../lib/apiserver/cel/mod.ts";
import type { ValidationRule } from "../../../lib/apiserver/schema/types.ts";

/** A schema whose `spec` is any JSON object carrying `rules`, or `specSchema` plus rules. */
export function schemaWith(rules: ValidationRule[], specSchema?: SchemaProps): SchemaProps {
  return {
    type: "object",
    properties: {
      spec: {
        ...(specSchema ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true }),
        "x-kubernetes-validations": rules,
      },
    },
  };
}

/** The errors of `rules` on `{ spec }`. */
export function errorsOf(
  spec: unknown,
  rules: ValidationRule[],
  opts: CelValidatorOptions & { specSchema?: SchemaProps; oldSpec?: unknown } = {},
): FieldError[] {
  const compiled = compileSchema(schemaWith(rules, opts.specSchema));
  return validateCelRules({ spec }, compiled, {
    ...opts,
    ...(opts.oldSpec !== undefined ? { oldObject: { spec: opts.oldSpec } } : {}),
  });
}

/** Whether `rule` holds for `spec` (throws when it errors rather than failing). */
export function holds(rule: string, spec: unknown = {}): boolean {
  const errors = errorsOf(spec, [{ rule, message: "failed" }]);
  if (errors.length === 0) return true;
  if (errors.length === 1 && errors[0].detail.endsWith(": failed")) return false;
  throw new Error(`rule ${rule} errored: ${JSON.stringify(errors)}`);
}
