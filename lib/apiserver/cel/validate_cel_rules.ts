/**
 * Evaluates a CRD's CEL validation rules (`x-kubernetes-validations`) on a custom resource.
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";
import { isPlainObject } from "../../core/object.ts";
import type { CompiledSchema } from "../schema/types.ts";
import { type EvalState, evaluateRules } from "./_evaluate_rules.ts";
import { compileCelRules } from "./compile_cel_rules.ts";
import { type ToCelOptions, toCelValue } from "./to_cel_value.ts";
import type { CelValidatorOptions, RuleNode } from "./types.ts";

/** Kubernetes' per-call CEL cost limit, used as the per-rule step limit. */
export const DEFAULT_PER_RULE_COST_LIMIT = 1_000_000;
/** Kubernetes' per-object runtime CEL cost budget, used as the total step budget. */
export const DEFAULT_TOTAL_COST_BUDGET = 10_000_000;

interface Walk {
  readonly state: EvalState;
  readonly memo: NonNullable<ToCelOptions["memo"]>;
  readonly errors: FieldError[];
}

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);
const present = (v: unknown) => v !== null && v !== undefined;

/** Old list items by their list-map key, when the list is `x-kubernetes-list-type: map`. */
function oldItemsByKey(rn: RuleNode, old: unknown): Map<string, unknown> | undefined {
  const keys = rn.node.listMapKeys;
  if (rn.node.listType !== "map" || !keys || !Array.isArray(old)) return undefined;
  const byKey = new Map<string, unknown>();
  for (const item of old) if (isPlainObject(item)) byKey.set(keyOf(item, keys), item);
  return byKey;
}

const keyOf = (item: Record<string, unknown>, keys: readonly string[]) =>
  JSON.stringify(keys.map((k) => item[k] ?? null));

function walk(rn: RuleNode, value: unknown, old: unknown, path: string, root: boolean, w: Walk) {
  if (!present(value) || w.state.stopped) return;
  if (rn.rules.length > 0) {
    const opts = { memo: w.memo, resourceRoot: root };
    const bindings = () => ({
      self: toCelValue(value, rn.node, opts),
      ...(present(old) ? { oldSelf: toCelValue(old, rn.node, opts) } : {}),
    });
    w.errors.push(...evaluateRules(rn.rules, bindings, path, rn.node.schema.type ?? "", w.state));
    if (w.state.stopped) return;
  }
  if (Array.isArray(value)) {
    if (!rn.items) return;
    const byKey = oldItemsByKey(rn, old);
    const keys = rn.node.listMapKeys ?? [];
    value.forEach((item, i) => {
      const oldItem = byKey && isPlainObject(item) ? byKey.get(keyOf(item, keys)) : undefined;
      walk(rn.items!, item, oldItem, `${path}[${i}]`, false, w);
    });
  } else if (isPlainObject(value)) {
    const oldObj = isPlainObject(old) ? old : undefined;
    for (const [k, v] of Object.entries(value)) {
      const sub = rn.properties?.get(k);
      if (sub) walk(sub, v, oldObj?.[k], child(path, k), false, w);
      if (rn.additionalProperties) {
        walk(rn.additionalProperties, v, oldObj?.[k], `${path}[${k}]`, false, w);
      }
    }
  }
}

/**
 * Runs every CEL rule of `compiled` on `object` (already pruned and defaulted) and returns
 * the failures as field errors.
 *
 * Like kube-apiserver's CEL validator: `self` is the value at the rule's node (null values
 * are skipped), transition rules (reading `oldSelf`) run only when `oldObject` has a
 * correlated value, a failed rule reports its `messageExpression` result, its `message`, or
 * `failed rule: <rule>` at the node's path plus its `fieldPath`, typed by its `reason`; a
 * runtime error (e.g. `no such key`) is reported, never thrown. Each rule may use
 * `perRuleCostLimit` steps and all together `totalCostBudget`; past either, validation
 * stops with Kubernetes' cost error. Rules are compiled once per `compiled` (cached).
 *
 * @example
 * ```ts
 * import { compileSchema } from "../schema/compile_schema.ts";
 * import { validateCelRules } from "./validate_cel_rules.ts";
 * const compiled = compileSchema({
 *   type: "object",
 *   properties: {
 *     spec: {
 *       type: "object",
 *       properties: { min: { type: "integer" }, max: { type: "integer" } },
 *       "x-kubernetes-validations": [{ rule: "self.min <= self.max", message: "min > max" }],
 *     },
 *   },
 * });
 * validateCelRules({ spec: { min: 2, max: 1 } }, compiled);
 * // [{ type: "FieldValueInvalid", field: "spec", detail: 'Invalid value: "object": min > max' }]
 * ```
 */
export function validateCelRules(
  object: unknown,
  compiled: CompiledSchema,
  opts: CelValidatorOptions = {},
): FieldError[] {
  const { root, meter } = compileCelRules(compiled);
  if (!root) return [];
  const state: EvalState = {
    meter,
    perRuleLimit: opts.perRuleCostLimit ?? DEFAULT_PER_RULE_COST_LIMIT,
    remaining: opts.totalCostBudget ?? DEFAULT_TOTAL_COST_BUDGET,
    stopped: false,
  };
  const w: Walk = { state, memo: new WeakMap(), errors: [] };
  walk(root, object, opts.oldObject, "", true, w);
  return w.errors;
}
