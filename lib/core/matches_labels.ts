/**
 * `matchesLabels()`: whether an object's labels satisfy a {@link LabelSelector}.
 *
 * @module
 */
import type { LabelRequirement, LabelSelector } from "./label_requirement.ts";

/**
 * Whether a set of labels satisfies every requirement of a selector.
 *
 * Like apimachinery's `Selector.Matches`: a missing label fails `exists`, `equals`, `in`,
 * `greaterThan` and `lessThan`, and passes `doesNotExist`, `notEquals` and `notIn`.
 *
 * @example
 * ```ts
 * import { matchesLabels } from "../../mod.ts";
 * matchesLabels([{ type: "notEquals", key: "env", value: "prod" }], { app: "web" }); // true
 * ```
 */
export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const ls = labels ?? {};
  for (const r of selector) {
    const has = Object.prototype.hasOwnProperty.call(ls, r.key);
    const v = has ? ls[r.key] : "";
    if (!holds(r, has, v)) return false;
  }
  return true;
}

function holds(r: LabelRequirement, has: boolean, v: string): boolean {
  switch (r.type) {
    case "exists":
      return has;
    case "doesNotExist":
      return !has;
    case "equals":
      return has && v === r.value;
    case "notEquals":
      return !has || v !== r.value;
    case "in":
      return has && r.values.includes(v);
    case "notIn":
      return !has || !r.values.includes(v);
    case "greaterThan":
      return has && /^[+-]?[0-9]+$/.test(v) && Number(v) > r.value;
    case "lessThan":
      return has && /^[+-]?[0-9]+$/.test(v) && Number(v) < r.value;
  }
}
