/**
 * Compile-time checks of every CEL rule in a CRD schema, for CRD create/update validation.
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";
import { compileSchema } from "../schema/compile_schema.ts";
import type { CompiledNode, SchemaProps, ValidationRule } from "../schema/types.ts";
import { createRuntime } from "./_runtime.ts";
import type { CelRuntime } from "./_runtime.ts";
import { compileRule } from "./compile_rule.ts";
import type { RuleProblem } from "./types.ts";

const q = (s: string | undefined) => JSON.stringify(s ?? "");

/** The rule as Go's `%#v` prints kube-apiserver's internal `ValidationRule`. */
function goRule(r: ValidationRule): string {
  const reason = r.reason === undefined
    ? "(*apiextensions.FieldValueErrorReason)(nil)"
    : `(*apiextensions.FieldValueErrorReason)(${q(r.reason)})`;
  const optional = r.optionalOldSelf === undefined
    ? "(*bool)(nil)"
    : `(*bool)(${r.optionalOldSelf})`;
  return `apiextensions.ValidationRule{Rule:${q(r.rule)}, Message:${q(r.message)}, ` +
    `MessageExpression:${q(r.messageExpression)}, Reason:${reason}, FieldPath:${q(r.fieldPath)}, ` +
    `OptionalOldSelf:${optional}}`;
}

function toFieldError(base: string, rule: ValidationRule, p: RuleProblem): FieldError {
  const field = `${base}.${p.field}`;
  switch (p.type) {
    case "FieldValueRequired":
      return { type: p.type, field, detail: `Required value: ${p.detail}` };
    case "FieldValueNotSupported":
      return { type: p.type, field, detail: `Unsupported value: ${q(rule.reason)}: ${p.detail}` };
    case "FieldValueInvalid": {
      const value = p.field === "message"
        ? q(rule.message)
        : p.field === "fieldPath"
        ? q(rule.fieldPath)
        : goRule(rule);
      return { type: p.type, field, detail: `Invalid value: ${value}: ${p.detail}` };
    }
  }
}

function visit(
  node: CompiledNode,
  path: string,
  runtime: CelRuntime,
  out: FieldError[],
  depth = 0,
) {
  if (depth > 200) return;
  (node.validations ?? []).forEach((rule, i) => {
    const compiled = compileRule(rule, node, runtime);
    if (compiled.type === "error") {
      const base = `${path}.x-kubernetes-validations[${i}]`;
      for (const p of compiled.problems) out.push(toFieldError(base, rule, p));
    }
  });
  for (const [name, child] of node.properties ?? []) {
    visit(child, `${path}.properties[${name}]`, runtime, out, depth + 1);
  }
  if (node.items) visit(node.items, `${path}.items`, runtime, out, depth + 1);
  const ap = node.additionalProperties;
  if (typeof ap === "object") visit(ap, `${path}.additionalProperties`, runtime, out, depth + 1);
}

/**
 * Compiles every `x-kubernetes-validations` rule of a CRD version schema and returns one
 * field error per problem, for the CRD's own validation (so a bad rule is rejected when the
 * CRD is written, not discovered on the first custom resource).
 *
 * Like kube-apiserver's CRD validation of rules: syntax errors, undeclared names and
 * unknown functions (`compilation failed: ERROR: ...`), bad `messageExpression`s, an
 * unsupported `reason`, a `fieldPath` that names no property, and multi-line messages.
 *
 * @example
 * ```ts
 * import { celCompileErrors } from "./cel_compile_errors.ts";
 * const schema = {
 *   type: "object",
 *   properties: { spec: { type: "object", "x-kubernetes-validations": [{ rule: "self.a +" }] } },
 * };
 * celCompileErrors(schema, "spec.validation.openAPIV3Schema")[0].field;
 * // "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
 * ```
 */
export function celCompileErrors(schema: SchemaProps, fieldPathPrefix: string): FieldError[] {
  const out: FieldError[] = [];
  visit(compileSchema(schema).root, fieldPathPrefix, createRuntime(), out);
  return out;
}
