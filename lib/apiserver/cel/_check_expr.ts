/**
 * One pass over a parsed CEL expression (private to the CEL package): finds undeclared
 * names and unknown functions, notes whether `oldSelf` is read, checks constant regexes,
 * and wraps every comprehension's loop condition in the step counter.
 *
 * @module
 */
import type { cel } from "../deps.ts";
import { regexpFor } from "./_library.ts";
import { TICK } from "./_runtime.ts";

/** A parsed expression node (protobuf-es `cel.expr.Expr`). */
export type Expr = ReturnType<typeof cel.parse>["expr"];

/** What {@link checkExpr} found. */
export interface ExprFacts {
  readonly usesOldSelf: boolean;
  /** Compile errors in cel-go's wording, each with its `<input>:line:col:` position. */
  readonly issues: string[];
}

/** Type names CEL resolves as identifiers. */
const TYPE_NAMES = new Set([
  "int",
  "uint",
  "double",
  "bool",
  "string",
  "bytes",
  "list",
  "map",
  "null_type",
  "type",
  "dyn",
]);

/**
 * Checks `expr` (mutating it to add step counting) against the declared variables (default
 * `self` and `oldSelf`) and the functions of `env`.
 */
export function checkExpr(
  parsed: ReturnType<typeof cel.parse>,
  source: string,
  env: cel.CelEnv,
  variables: readonly string[] = ["self", "oldSelf"],
): ExprFacts {
  const declared = new Set(variables);
  const issues: string[] = [];
  let usesOldSelf = false;
  let nextId = 1n << 40n;
  const offsets = parsed.sourceInfo?.positions ?? {};
  const where = (e: Expr) => {
    const offset = (offsets as Record<string, number>)[String(e.id)] ?? 0;
    const before = Array.from(source).slice(0, offset).join("");
    const line = before.split("\n").length;
    const col = offset - (before.lastIndexOf("\n") + 1) + 1;
    return `<input>:${line}:${col}`;
  };
  const visit = (e: Expr | undefined, scope: ReadonlySet<string>): void => {
    if (!e) return;
    const k = e.exprKind;
    switch (k.case) {
      case "identExpr":
        if (scope.has(k.value.name)) return;
        if (k.value.name === "oldSelf" && declared.has("oldSelf")) usesOldSelf = true;
        else if (!declared.has(k.value.name) && !TYPE_NAMES.has(k.value.name)) {
          issues.push(`${where(e)}: undeclared reference to '${k.value.name}' (in container '')`);
        }
        return;
      case "selectExpr":
        return visit(k.value.operand, scope);
      case "callExpr": {
        const fn = k.value.function;
        const target = k.value.target?.exprKind;
        if (target?.case === "identExpr" && !scope.has(target.value.name)) {
          const qualified = `${target.value.name}.${fn}`;
          if (env.funcs.find(qualified) !== undefined) {
            for (const a of k.value.args) visit(a, scope);
            return;
          }
        }
        if (!/^[_@]/.test(fn) && env.funcs.find(fn) === undefined) {
          issues.push(`${where(e)}: undeclared reference to '${fn}' (in container '')`);
        }
        const arg = k.value.args[0]?.exprKind;
        if (fn === "matches" && arg?.case === "constExpr") {
          const c = arg.value.constantKind;
          if (c.case === "stringValue") {
            try {
              regexpFor(c.value);
            } catch (err) {
              issues.push(`${where(e)}: ${(err as Error).message}`);
            }
          }
        }
        visit(k.value.target, scope);
        for (const a of k.value.args) visit(a, scope);
        return;
      }
      case "listExpr":
        for (const el of k.value.elements) visit(el, scope);
        return;
      case "structExpr":
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === "mapKey") visit(entry.keyKind.value, scope);
          visit(entry.value, scope);
        }
        return;
      case "comprehensionExpr": {
        const c = k.value;
        visit(c.iterRange, scope);
        visit(c.accuInit, scope);
        const inner = new Set([
          ...scope,
          c.iterVar,
          c.accuVar,
          ...(c.iterVar2 ? [c.iterVar2] : []),
        ]);
        visit(c.loopCondition, inner);
        visit(c.loopStep, inner);
        visit(c.result, new Set([...scope, c.accuVar]));
        if (c.loopCondition) {
          const cond = c.loopCondition;
          c.loopCondition = {
            ...cond,
            id: nextId++,
            exprKind: {
              case: "callExpr",
              value: { $typeName: "cel.expr.Expr.Call", function: TICK, args: [cond] },
            },
          } as Expr;
        }
        return;
      }
      default:
        return;
    }
  };
  visit(parsed.expr, new Set());
  return { usesOldSelf, issues };
}
