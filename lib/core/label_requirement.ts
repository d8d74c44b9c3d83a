/**
 * Label requirements: the {@link LabelRequirement} union, the {@link LabelSelector} built from
 * them, and {@link labelRequirement}, the validating constructor both selector forms (query
 * string and `metav1.LabelSelector` object) go through.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";

/** One requirement of a label selector; all must hold. */
export type LabelRequirement =
  | { readonly type: "exists"; readonly key: string }
  | { readonly type: "doesNotExist"; readonly key: string }
  | { readonly type: "equals"; readonly key: string; readonly value: string }
  | { readonly type: "notEquals"; readonly key: string; readonly value: string }
  | { readonly type: "in"; readonly key: string; readonly values: readonly string[] }
  | { readonly type: "notIn"; readonly key: string; readonly values: readonly string[] }
  | { readonly type: "greaterThan"; readonly key: string; readonly value: number }
  | { readonly type: "lessThan"; readonly key: string; readonly value: number };

/** A parsed label selector: requirements sorted by key, set values sorted and unique. `[]` selects everything. */
export type LabelSelector = readonly LabelRequirement[];

const { left, right } = E;

const nameRe = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const valueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const dnsRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const nameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const dnsMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function keyProblem(key: string): string | undefined {
  const parts = key.split("/");
  if (parts.length > 2) {
    return `a qualified name must have at most one '/' (e.g. 'example.com/MyName')`;
  }
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === "") return "prefix part must be non-empty";
    if (prefix.length > 253) return "prefix part must be no more than 253 characters";
    if (!dnsRe.test(prefix)) return `prefix part ${dnsMsg}`;
  }
  if (name === "") return "name part must be non-empty";
  if (name.length > 63) return "name part must be no more than 63 characters";
  if (!nameRe.test(name)) return nameMsg;
  return undefined;
}

function validateKey(key: string): string | undefined {
  const p = keyProblem(key);
  return p === undefined ? undefined : `key: Invalid value: ${JSON.stringify(key)}: ${p}`;
}

function validateValue(key: string, value: string, i: number): string | undefined {
  const p = value.length > 63
    ? "must be no more than 63 characters"
    : valueRe.test(value)
    ? undefined
    : valueMsg;
  return p === undefined
    ? undefined
    : `values[${i}][${key}]: Invalid value: ${JSON.stringify(value)}: ${p}`;
}

/**
 * Builds a validated, normalised requirement from an operator, a key and its raw values.
 *
 * Like apimachinery's `labels.NewRequirement`: the key must be a qualified name, every value a
 * label value, and the number of values must fit the operator; `in`/`notIn` values come back
 * sorted and unique, `greaterThan`/`lessThan` values as integers.
 *
 * @param type the operator
 * @param key the label key, e.g. `app` or `example.com/tier`
 * @param values the raw values (none for `exists`/`doesNotExist`, one for the others but sets)
 * @returns the requirement, or the error message kube-apiserver answers with (400)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelRequirement } from "./label_requirement.ts";
 * assert.deepEqual(labelRequirement("in", "tier", ["b", "a", "b"]), {
 *   _tag: "Right",
 *   right: { type: "in", key: "tier", values: ["a", "b"] },
 * });
 * assert.equal(labelRequirement("exists", "-bad", [])._tag, "Left");
 * ```
 */
export function labelRequirement(
  type: LabelRequirement["type"],
  key: string,
  values: readonly string[],
): Either<string, LabelRequirement> {
  const badKey = validateKey(key);
  if (badKey) return left(badKey);
  for (let i = 0; i < values.length; i++) {
    const bad = validateValue(key, values[i], i);
    if (bad) return left(bad);
  }
  switch (type) {
    case "exists":
    case "doesNotExist":
      return values.length === 0 ? right({ type, key }) : left(
        `values: Invalid value: ${
          JSON.stringify(values)
        }: values set must be empty for exists and does not exist`,
      );
    case "equals":
    case "notEquals":
      return values.length === 1 ? right({ type, key, value: values[0] }) : left(
        `values: Invalid value: ${
          JSON.stringify(values)
        }: exact-match compatibility requires one single value`,
      );
    case "in":
    case "notIn":
      return values.length === 0
        ? left("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty")
        : right({ type, key, values: [...new Set(values)].sort() });
    case "greaterThan":
    case "lessThan": {
      const n = values.length === 1 && /^[0-9]+$/.test(values[0]) ? Number(values[0]) : NaN;
      return Number.isSafeInteger(n) ? right({ type, key, value: n }) : left(
        `values[0]: Invalid value: ${
          JSON.stringify(values[0] ?? "")
        }: for 'Gt', 'Lt' operators, the value must be an integer`,
      );
    }
  }
}

/**
 * Orders requirements by key (code-unit order), the order of a {@link LabelSelector}.
 *
 * A comparator for `Array.prototype.sort`; the sort is stable, so requirements on the same key
 * keep their input order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { byLabelKey } from "./label_requirement.ts";
 * import type { LabelRequirement } from "../../mod.ts";
 * const reqs: LabelRequirement[] = [{ type: "exists", key: "b" }, { type: "exists", key: "a" }];
 * assert.deepEqual(reqs.sort(byLabelKey).map((r) => r.key), ["a", "b"]);
 * ```
 */
export function byLabelKey(a: LabelRequirement, b: LabelRequirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
