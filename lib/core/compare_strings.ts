/**
 * `compareStrings()`: the order Go's `sort.Strings` and `<` give strings, for sorts that must
 * match the Kubernetes code they mirror.
 *
 * @module
 */

/**
 * Compares by UTF-16 code unit, as `<` does (Go compares bytes; the two agree outside
 * surrogate pairs). Unlike `localeCompare`, it neither depends on the locale nor pays for
 * ICU's collator on first use (~9 ms of a cold start).
 *
 * @example
 * ```ts
 * import { compareStrings } from "./compare_strings.ts";
 * ["b", "B", "a"].sort(compareStrings); // ["B", "a", "b"]
 * ```
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
