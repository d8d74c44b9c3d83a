/**
 * `formatLabelSelector()`: the canonical query-string form of a {@link LabelSelector}.
 *
 * @module
 */
import type { LabelSelector } from "./label_requirement.ts";

/**
 * The canonical string form of a selector; `parseLabelSelector` reads it back.
 *
 * Like apimachinery's `Selector.String()`, except that a set holding only the empty value
 * is written `(,)` so that it parses again.
 *
 * @example
 * ```ts
 * import { formatLabelSelector } from "../../mod.ts";
 * formatLabelSelector([{ type: "in", key: "tier", values: ["a", "b"] }, { type: "doesNotExist", key: "x" }]);
 * // "tier in (a,b),!x"
 * ```
 */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector.map((r) => {
    switch (r.type) {
      case "exists":
        return r.key;
      case "doesNotExist":
        return `!${r.key}`;
      case "equals":
        return `${r.key}=${r.value}`;
      case "notEquals":
        return `${r.key}!=${r.value}`;
      case "in":
      case "notIn": {
        const list = r.values.length === 1 && r.values[0] === "" ? "," : r.values.join(",");
        return `${r.key} ${r.type === "in" ? "in" : "notin"} (${list})`;
      }
      case "greaterThan":
        return `${r.key}>${r.value}`;
      case "lessThan":
        return `${r.key}<${r.value}`;
    }
  }).join(",");
}
