/**
 * Compiles one `x-kubernetes-validations` rule: parse, check, plan.
 *
 * @module
 */
import { cel } from "../deps.ts";
import type { CompiledNode, ValidationRule } from "../schema/types.ts";
import { checkExpr } from "./_check_expr.ts";
import { normalizeFieldPath } from "./_field_path.ts";
import type { CelRuntime } from "./_runtime.ts";
import type { CelProgram, CompiledRule, RuleProblem } from "./types.ts";

/** The `reason` values a rule may give, as Kubernetes lists them. */
export const RULE_REASONS = [
  "FieldValueDuplicate",
  "FieldValueForbidden",
  "FieldValueInvalid",
  "FieldValueRequired",
] as const;

type Planned = { type: "ok"; program: CelProgram; usesOldSelf: boolean } | {
  type: "error";
  detail: string;
};

function planExpression(source: string, runtime: CelRuntime): Planned {
  let parsed: ReturnType<typeof cel.parse>;
  try {
    parsed = cel.parse(source);
  } catch (e) {
    return { type: "error", detail: `ERROR: ${(e as Error).message}` };
  }
  const facts = checkExpr(parsed, source, runtime.env);
  if (facts.issues.length > 0) {
    return { type: "error", detail: facts.issues.map((i) => `ERROR: ${i}`).join("\n") };
  }
  try {
    const run = cel.plan(runtime.env, parsed);
    const program: CelProgram = (b) => run(b);
    return { type: "ok", program, usesOldSelf: facts.usesOldSelf };
  } catch (e) {
    return { type: "error", detail: `ERROR: ${(e as Error).message}` };
  }
}

/**
 * Compiles a CEL validation rule of a schema node.
 *
 * Like kube-apiserver's rule compilation: the rule and its `messageExpression` are parsed
 * and checked (only `self` and `oldSelf` are declared; functions must exist), `reason` must
 * be one Kubernetes allows, `fieldPath` must name a property below `node`, and `message`
 * must be one line. Problems come back as values with Kubernetes' wording.
 *
 * @example
 * ```ts
 * import { compileSchema } from "../schema/compile_schema.ts";
 * import { createRuntime } from "./_runtime.ts";
 * import { compileRule } from "./compile_rule.ts";
 * const node = compileSchema({ type: "object", properties: { a: { type: "integer" } } }).root;
 * const ok = compileRule({ rule: "self.a > 0" }, node, createRuntime());
 * ok.type; // "ok"
 * const bad = compileRule({ rule: "self.a >" }, node, createRuntime());
 * bad.type; // "error"
 * ```
 */
export function compileRule(
  rule: ValidationRule,
  node: CompiledNode,
  runtime: CelRuntime,
): CompiledRule {
  const problems: RuleProblem[] = [];
  const invalid = (field: RuleProblem["field"], detail: string) =>
    problems.push({ field, type: "FieldValueInvalid", detail });
  const source = typeof rule.rule === "string" ? rule.rule : "";
  let planned: Planned | undefined;
  if (source.trim() === "") {
    problems.push({ field: "rule", type: "FieldValueRequired", detail: "rule is not specified" });
  } else {
    planned = planExpression(source, runtime);
    if (planned.type === "error") invalid("rule", `compilation failed: ${planned.detail}`);
  }
  if (typeof rule.message === "string" && rule.message !== "") {
    if (rule.message.trim() === "") invalid("message", "message must be non-empty if specified");
    else if (rule.message.includes("\n")) {
      invalid("message", "message must not contain line breaks");
    }
  } else if (source.includes("\n") && !rule.messageExpression) {
    problems.push({
      field: "message",
      type: "FieldValueRequired",
      detail: "message must be specified if rule contains line breaks",
    });
  }
  let message: Planned | undefined;
  if (typeof rule.messageExpression === "string" && rule.messageExpression !== "") {
    message = planExpression(rule.messageExpression, runtime);
    if (message.type === "error") {
      invalid("messageExpression", `messageExpression compilation failed: ${message.detail}`);
    }
  }
  if (rule.reason !== undefined && !(RULE_REASONS as readonly string[]).includes(rule.reason)) {
    problems.push({
      field: "reason",
      type: "FieldValueNotSupported",
      detail: `supported values: ${RULE_REASONS.map((r) => `"${r}"`).join(", ")}`,
    });
  }
  let fieldPath: string | undefined;
  if (typeof rule.fieldPath === "string" && rule.fieldPath !== "") {
    const fp = normalizeFieldPath(rule.fieldPath, node);
    if (fp.type === "error") invalid("fieldPath", `fieldPath must be a valid path: ${fp.reason}`);
    else fieldPath = fp.path;
  }
  if (problems.length > 0 || planned?.type !== "ok") return { type: "error", rule, problems };
  return {
    type: "ok",
    rule,
    program: planned.program,
    ...(message?.type === "ok" ? { messageProgram: message.program } : {}),
    usesOldSelf: planned.usesOldSelf,
    ...(fieldPath ? { fieldPath } : {}),
  };
}
