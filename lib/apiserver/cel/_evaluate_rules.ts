/**
 * Evaluation of the rules of one schema node against one value (private to the CEL
 * package), with Kubernetes' error texts and cost accounting.
 *
 * @module
 */
import { cel } from "../deps.ts";
import type { FieldError } from "../../core/status.ts";
import type { ValidationRule } from "../schema/types.ts";
import type { CelBindings, CelProgram, CompiledRule, CostMeter } from "./types.ts";

/** Mutable state of one validation call. */
export interface EvalState {
  readonly meter: CostMeter;
  readonly perRuleLimit: number;
  /** Cost units left for this object. */
  remaining: number;
  /** Set once a cost limit is hit: no further rule runs. */
  stopped: boolean;
}

const OUT_OF_BUDGET =
  "validation failed due to running out of cost budget, no further validation rules will be run";
const MAX_MESSAGE_BYTES = 5000;

const trimmed = (s: string | undefined) => (s ?? "").trim();
const ruleErrorString = (r: ValidationRule) => trimmed(r.message) || trimmed(r.rule);
const ruleMessageOrDefault = (r: ValidationRule) =>
  trimmed(r.message) || `failed rule: ${ruleErrorString(r)}`;
const quote = (s: string) => JSON.stringify(s);

/** Runs a program under the meter; `exceeded` tells which limit was hit, if any. */
function run(program: CelProgram, bindings: CelBindings, state: EvalState) {
  const { meter } = state;
  const totalBound = state.remaining < state.perRuleLimit;
  meter.used = 1;
  meter.limit = Math.min(state.perRuleLimit, state.remaining);
  meter.exceeded = false;
  const result = program(bindings);
  const over = meter.exceeded || meter.used > meter.limit;
  state.remaining -= meter.used;
  return { result, exceeded: over ? (totalBound ? "total" as const : "call" as const) : undefined };
}

/** Kubernetes' wording of a runtime error (cel-go says "no such key" for a missing field). */
function runtimeText(err: cel.CelError, rule: ValidationRule): string {
  const msg = err.message.replace(/^field not found: /, "no such key: ");
  return msg.startsWith("found no matching overload") || msg.startsWith("no such overload")
    ? `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${
      ruleErrorString(rule)
    }`
    : `${msg} evaluating rule: ${ruleErrorString(rule)}`;
}

function failure(rule: ValidationRule, field: string, type: string, detail: string): FieldError {
  switch (rule.reason) {
    case "FieldValueForbidden":
      return { type: "FieldValueForbidden", field, detail: `Forbidden: ${detail}` };
    case "FieldValueRequired":
      return { type: "FieldValueRequired", field, detail: `Required value: ${detail}` };
    case "FieldValueDuplicate":
      return { type: "FieldValueDuplicate", field, detail: `Duplicate value: ${quote(type)}` };
    default:
      return {
        type: "FieldValueInvalid",
        field,
        detail: `Invalid value: ${quote(type)}: ${detail}`,
      };
  }
}

/**
 * Evaluates `rules` with `self` (and `oldSelf` when `oldSelf` is not `undefined`), returning
 * the field errors; sets `state.stopped` when a cost limit ends validation.
 */
export function evaluateRules(
  rules: readonly CompiledRule[],
  bindings: () => CelBindings,
  path: string,
  schemaType: string,
  state: EvalState,
): FieldError[] {
  const errors: FieldError[] = [];
  const invalid = (field: string, detail: string): FieldError => ({
    type: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${quote(schemaType)}: ${detail}`,
  });
  if (state.remaining <= 0) {
    state.stopped = true;
    return [invalid(path, OUT_OF_BUDGET)];
  }
  let b: CelBindings | undefined;
  for (const compiled of rules) {
    if (compiled.type === "error") {
      const detail = compiled.problems.map((p) => p.detail).join("; ");
      errors.push(invalid(path, `rule compile error: ${detail}`));
      continue;
    }
    b ??= bindings();
    if (compiled.usesOldSelf && b.oldSelf === undefined) continue;
    const { rule } = compiled;
    const { result, exceeded } = run(compiled.program, b, state);
    if (exceeded) {
      state.stopped = true;
      errors.push(invalid(
        path,
        exceeded === "total"
          ? OUT_OF_BUDGET
          : `'operation cancelled: actual cost limit exceeded': ${`no further validation rules will be run due to call cost exceeds limit for rule: ${
            ruleErrorString(rule)
          }`}`,
      ));
      return errors;
    }
    if (cel.isCelError(result)) {
      errors.push(invalid(path, runtimeText(result, rule)));
      continue;
    }
    if (result === true) continue;
    const field = compiled.fieldPath
      ? (path ? `${path}.${compiled.fieldPath}` : compiled.fieldPath)
      : path;
    let detail: string | undefined;
    if (compiled.messageProgram) {
      const m = run(compiled.messageProgram, b, state);
      if (m.exceeded) {
        state.stopped = true;
        errors.push(invalid(
          field,
          m.exceeded === "total"
            ? `messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run`
            : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${
              quote(rule.messageExpression ?? "")
            }`,
        ));
        return errors;
      }
      const text = typeof m.result === "string" ? m.result.trim() : "";
      if (
        text && !text.includes("\n") && new TextEncoder().encode(text).length <= MAX_MESSAGE_BYTES
      ) {
        detail = text;
      }
    }
    errors.push(failure(rule, field, schemaType, detail ?? ruleMessageOrDefault(rule)));
  }
  return errors;
}
