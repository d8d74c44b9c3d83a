/**
 * Values in field errors the way kube-apiserver prints them: `field.Error` renders numbers
 * and booleans plainly, strings quoted, and everything else with Go's `%#v` (apimachinery
 * `pkg/util/validation/field/errors.go`, `ErrorBody`). These helpers write the `%#v` text of
 * the Go types kube's validation passes: string maps, string slices, label selectors.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import { goString } from "../apply/_go_json.ts";
import { compareStrings } from "../../core/compare_strings.ts";

/**
 * Go's `%q` of a string (what `strconv.Quote` writes for printable text).
 *
 * @example
 * ```ts
 * import { goQuote } from "./go_value.ts";
 * goQuote('say "hi" <b>'); // '"say \"hi\" <b>"'
 * ```
 */
export function goQuote(s: string): string {
  return goString(s).replace(/\\u003c/g, "<").replace(/\\u003e/g, ">").replace(/\\u0026/g, "&");
}

/**
 * `%#v` of a `map[string]string` (keys sorted; `(nil)` when absent).
 *
 * @example
 * ```ts
 * import { goStringMap } from "./go_value.ts";
 * goStringMap({ b: "2", a: "1" }); // 'map[string]string{"a":"1", "b":"2"}'
 * goStringMap(undefined); // "map[string]string(nil)"
 * ```
 */
export function goStringMap(map: unknown): string {
  if (!isPlainObject(map)) return "map[string]string(nil)";
  const entries = Object.keys(map).sort(compareStrings).map((k) =>
    `${goQuote(k)}:${goQuote(String(map[k]))}`
  );
  return `map[string]string{${entries.join(", ")}}`;
}

/**
 * `%#v` of a `[]string`, or of a slice of a named string type (`(nil)` when absent).
 *
 * @example
 * ```ts
 * import { goStringSlice } from "./go_value.ts";
 * goStringSlice(["10.96.0.5"]); // '[]string{"10.96.0.5"}'
 * goStringSlice(undefined, "core.ResourceQuotaScope"); // '[]core.ResourceQuotaScope(nil)'
 * ```
 */
export function goStringSlice(list: unknown, type = "string"): string {
  if (!Array.isArray(list)) return `[]${type}(nil)`;
  return `[]${type}{${list.map((s) => goQuote(String(s))).join(", ")}}`;
}

function requirement(r: unknown): string {
  const o = isPlainObject(r) ? r : {};
  return `v1.LabelSelectorRequirement{Key:${goQuote(String(o.key ?? ""))}, Operator:${
    goQuote(String(o.operator ?? ""))
  }, Values:${goStringSlice(o.values)}}`;
}

/**
 * `%#v` of a `metav1.LabelSelector` value, as in the well-known immutable-selector message.
 *
 * @example
 * ```ts
 * import { goLabelSelector } from "./go_value.ts";
 * goLabelSelector({ matchLabels: { app: "web" } });
 * // 'v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}'
 * ```
 */
export function goLabelSelector(selector: unknown): string {
  if (!isPlainObject(selector)) return "null";
  const exprs = Array.isArray(selector.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${selector.matchExpressions.map(requirement).join(", ")}}`
    : "[]v1.LabelSelectorRequirement(nil)";
  return `v1.LabelSelector{MatchLabels:${
    goStringMap(selector.matchLabels)
  }, MatchExpressions:${exprs}}`;
}

/**
 * A value as `field.Error` prints a simple one: numbers and booleans plain, strings quoted,
 * absent values `null`.
 *
 * @example
 * ```ts
 * import { goScalar } from "./go_value.ts";
 * goScalar("None"); // '"None"'
 * goScalar(3); // "3"
 * ```
 */
export function goScalar(value: unknown): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return goQuote(value);
  return String(value);
}

/**
 * `%#v` of an `intstr.IntOrString` value (kube passes the struct, whose `String()` has a
 * pointer receiver, so `%#v` applies).
 *
 * @example
 * ```ts
 * import { goIntOrString } from "./go_value.ts";
 * goIntOrString(0); // 'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}'
 * goIntOrString("25%"); // 'intstr.IntOrString{Type:1, IntVal:0, StrVal:"25%"}'
 * ```
 */
export function goIntOrString(value: unknown): string {
  return typeof value === "string"
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`
    : `intstr.IntOrString{Type:0, IntVal:${Number(value ?? 0)}, StrVal:""}`;
}
