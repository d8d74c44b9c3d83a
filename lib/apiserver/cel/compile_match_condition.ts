/**
 * Compiles a webhook's `matchConditions` expression: CEL over `object`, `oldObject` and
 * `request`, answering a bool.
 *
 * @module
 */
import { cel } from "../deps.ts";
import { E, type Either } from "../../deps.ts";
import { checkExpr } from "./_check_expr.ts";
import { createRuntime } from "./_runtime.ts";
import { toCelValue } from "./to_cel_value.ts";

/** What a match condition is evaluated with (JSON values; `null` when absent). */
export interface MatchConditionInput {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly request: unknown;
}

/** A compiled condition: its value, or the evaluation error's text. */
export type MatchConditionProgram = (input: MatchConditionInput) => Either<string, boolean>;

const VARIABLES = ["object", "oldObject", "request"];
/** kube-apiserver's runtime cost budget of all match conditions of a webhook. */
const COST_LIMIT = 1_000_000;

/**
 * Parses and checks a match condition: only `object`, `oldObject` and `request` are declared
 * (kube's `authorizer` is not), functions must exist. Errors read like kube-apiserver's
 * (`compilation failed: ERROR: <input>:1:1: ...`).
 *
 * @example
 * ```ts
 * import { compileMatchCondition } from "./compile_match_condition.ts";
 * const c = compileMatchCondition("object.metadata.name != 'skip'");
 * c._tag === "Right" && c.right({ object: { metadata: { name: "a" } }, oldObject: null, request: {} });
 * // { _tag: "Right", right: true }
 * compileMatchCondition("nope == 1")._tag; // "Left"
 * ```
 */
export function compileMatchCondition(expression: string): Either<string, MatchConditionProgram> {
  const runtime = createRuntime(VARIABLES);
  let parsed: ReturnType<typeof cel.parse>;
  try {
    parsed = cel.parse(expression);
  } catch (e) {
    return E.left(`compilation failed: ERROR: ${(e as Error).message}`);
  }
  const facts = checkExpr(parsed, expression, runtime.env, VARIABLES);
  if (facts.issues.length) {
    return E.left(`compilation failed: ${facts.issues.map((i) => `ERROR: ${i}`).join("\n")}`);
  }
  let run: ReturnType<typeof cel.plan>;
  try {
    run = cel.plan(runtime.env, parsed);
  } catch (e) {
    return E.left(`compilation failed: ERROR: ${(e as Error).message}`);
  }
  return E.right((input) => {
    const meter = runtime.meter;
    meter.used = 0;
    meter.limit = COST_LIMIT;
    meter.exceeded = false;
    const out = run({
      object: toCelValue(input.object, undefined),
      oldObject: toCelValue(input.oldObject, undefined),
      request: toCelValue(input.request, undefined),
    } as Record<string, cel.CelInput>);
    if (meter.exceeded) return E.left("operation cancelled: actual cost limit exceeded");
    if (cel.isCelError(out)) return E.left(out.message);
    if (typeof out !== "boolean") {
      return E.left(`expression '${expression}' resulted in error: no such overload`);
    }
    return E.right(out);
  });
}
