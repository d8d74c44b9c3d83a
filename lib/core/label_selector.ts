/**
 * Label selectors: the query-string grammar (`app=web,tier in (a,b),!canary`), the
 * `metav1.LabelSelector` object form, matching, and a canonical string form.
 *
 * This module converts the object form ({@link fromLabelSelectorObject}) and re-exports the
 * rest: the types from `./label_requirement.ts`, parsing from `./parse_label_selector.ts`,
 * matching from `./matches_labels.ts`, formatting from `./format_label_selector.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLabelSelector, matchesLabels, parseLabelSelector } from "../../mod.ts";
 * const sel = parseLabelSelector("tier in (fe,be), app=web");
 * assert.equal(sel._tag, "Right");
 * if (sel._tag === "Right") {
 *   assert.equal(formatLabelSelector(sel.right), "app=web,tier in (be,fe)");
 *   assert.equal(matchesLabels(sel.right, { app: "web", tier: "fe" }), true);
 * }
 * ```
 *
 * @module
 */
import { E, type Either, type k8sMeta } from "../deps.ts";
import type { DeepReadonly } from "./deep_readonly.ts";
import {
  byLabelKey,
  type LabelRequirement,
  labelRequirement,
  type LabelSelector,
} from "./label_requirement.ts";

export type { LabelRequirement, LabelSelector } from "./label_requirement.ts";
export { parseLabelSelector } from "./parse_label_selector.ts";
export { matchesLabels } from "./matches_labels.ts";
export { formatLabelSelector } from "./format_label_selector.ts";

const ops: Record<string, LabelRequirement["type"]> = {
  In: "in",
  NotIn: "notIn",
  Exists: "exists",
  DoesNotExist: "doesNotExist",
};

/**
 * Converts a `metav1.LabelSelector` object (`matchLabels` + `matchExpressions`) to a selector.
 *
 * Like apimachinery's `LabelSelectorAsSelector`, except for `undefined`: callers decide what
 * a missing selector means (Kubernetes: nothing for most controllers).
 *
 * @example
 * ```ts
 * import { fromLabelSelectorObject } from "../../mod.ts";
 * fromLabelSelectorObject({ matchLabels: { app: "web" }, matchExpressions: [{ key: "t", operator: "Exists" }] });
 * ```
 */
export function fromLabelSelectorObject(
  obj: DeepReadonly<k8sMeta.LabelSelector>,
): Either<string, LabelSelector> {
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(obj.matchLabels ?? {})) {
    const r = labelRequirement("equals", k, [v]);
    if (r._tag === "Left") return r;
    reqs.push(r.right);
  }
  for (const e of obj.matchExpressions ?? []) {
    if (!Object.prototype.hasOwnProperty.call(ops, e.operator)) {
      return E.left(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    }
    const r = labelRequirement(ops[e.operator], e.key, [...(e.values ?? [])]);
    if (r._tag === "Left") return r;
    reqs.push(r.right);
  }
  return E.right(reqs.sort(byLabelKey));
}
