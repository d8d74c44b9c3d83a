/**
 * Label selectors: the query-string grammar (`app=web,tier in (a,b),!canary`), the
 * `metav1.LabelSelector` object form, matching, and a canonical string form.
 *
 * @module
 */
import { E, type Either, type k8sMeta } from "../deps.ts";

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

/** Builds a validated, normalised requirement (shared by both input forms). */
function requirement(
  type: LabelRequirement["type"],
  key: string,
  values: string[],
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

const byKey = (
  a: LabelRequirement,
  b: LabelRequirement,
) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

type Token = { readonly kind: "id" | "op" | "end"; readonly lit: string };

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
    } else if ("!=<>(),".includes(c)) {
      const two = input.slice(i, i + 2);
      const lit = two === "==" || two === "!=" ? two : c;
      out.push({ kind: "op", lit });
      i += lit.length;
    } else {
      let j = i;
      while (j < input.length && !/\s/.test(input[j]) && !"!=<>(),".includes(input[j])) j++;
      out.push({ kind: "id", lit: input.slice(i, j) });
      i = j;
    }
  }
  out.push({ kind: "end", lit: "end of string" });
  return out;
}

const opTypes: Record<string, LabelRequirement["type"]> = {
  "=": "equals",
  "==": "equals",
  "!=": "notEquals",
  in: "in",
  notin: "notIn",
  ">": "greaterThan",
  "<": "lessThan",
};

function parseRequirement(toks: Token[], pos: { i: number }): Either<string, LabelRequirement> {
  const next = () => toks[pos.i++];
  const peek = () => toks[pos.i];
  const atEnd = () => peek().kind === "end" || peek().lit === ",";
  let negated = false;
  if (peek().lit === "!") {
    next();
    negated = true;
  }
  const k = next();
  if (k.kind !== "id") return left(`found '${k.lit}', expected: identifier`);
  if (negated || atEnd()) return requirement(negated ? "doesNotExist" : "exists", k.lit, []);
  const op = next();
  const type = Object.prototype.hasOwnProperty.call(opTypes, op.lit) ? opTypes[op.lit] : undefined;
  if (type === undefined) return left(`found '${op.lit}', expected: [!= == = in notin > <]`);
  if (type !== "in" && type !== "notIn") {
    if (atEnd()) return requirement(type, k.lit, [""]);
    const v = next();
    return v.kind === "id"
      ? requirement(type, k.lit, [v.lit])
      : left(`found '${v.lit}', expected: identifier`);
  }
  const open = next();
  if (open.lit !== "(") return left(`found '${open.lit}', expected: '('`);
  const values: string[] = [];
  let expectValue = true;
  for (;;) {
    const t = next();
    if (t.kind === "id" && expectValue) {
      values.push(t.lit);
      expectValue = false;
    } else if (t.lit === ",") {
      if (expectValue) values.push("");
      expectValue = true;
    } else if (t.lit === ")") {
      if (expectValue && values.length > 0) values.push("");
      break;
    } else {
      return left(`found '${t.lit}', expected: ',', ')' or identifier`);
    }
  }
  return requirement(type, k.lit, values);
}

/**
 * Parses the string form of a label selector (the `labelSelector` query parameter).
 *
 * Like apimachinery's `labels.Parse`: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`,
 * `k`, `!k`, `k>5`, `k<5`, comma = AND, whitespace tolerant, keys and values validated.
 *
 * @param input the selector string (`""` selects everything)
 * @returns the selector, or the error message kube-apiserver answers with (400)
 *
 * @example
 * ```ts
 * import { parseLabelSelector } from "./label_selector.ts";
 * parseLabelSelector("app=web, tier in (a,b)");
 * // right([{ type: "equals", key: "app", value: "web" }, { type: "in", key: "tier", values: ["a", "b"] }])
 * ```
 */
export function parseLabelSelector(input: string): Either<string, LabelSelector> {
  const toks = lex(input);
  const pos = { i: 0 };
  const reqs: LabelRequirement[] = [];
  while (toks[pos.i].kind !== "end") {
    const t = toks[pos.i];
    if (t.kind !== "id" && t.lit !== "!") {
      return left(`found '${t.lit}', expected: !, identifier, or 'end of string'`);
    }
    const r = parseRequirement(toks, pos);
    if (r._tag === "Left") return left(`unable to parse requirement: ${r.left}`);
    reqs.push(r.right);
    const sep = toks[pos.i++];
    if (sep.kind === "end") break;
    if (sep.lit !== ",") return left(`found '${sep.lit}', expected: ',' or 'end of string'`);
    const after = toks[pos.i];
    if (after.kind !== "id" && after.lit !== "!") {
      return left(`found '${after.lit}', expected: identifier after ','`);
    }
  }
  return right(reqs.sort(byKey));
}

/**
 * Converts a `metav1.LabelSelector` object (`matchLabels` + `matchExpressions`) to a selector.
 *
 * Like apimachinery's `LabelSelectorAsSelector`, except for `undefined`: callers decide what
 * a missing selector means (Kubernetes: nothing for most controllers).
 *
 * @example
 * ```ts
 * import { fromLabelSelectorObject } from "./label_selector.ts";
 * fromLabelSelectorObject({ matchLabels: { app: "web" }, matchExpressions: [{ key: "t", operator: "Exists" }] });
 * ```
 */
export function fromLabelSelectorObject(obj: k8sMeta.LabelSelector): Either<string, LabelSelector> {
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(obj.matchLabels ?? {})) {
    const r = requirement("equals", k, [v]);
    if (r._tag === "Left") return r;
    reqs.push(r.right);
  }
  const ops: Record<string, LabelRequirement["type"]> = {
    In: "in",
    NotIn: "notIn",
    Exists: "exists",
    DoesNotExist: "doesNotExist",
  };
  for (const e of obj.matchExpressions ?? []) {
    if (!Object.prototype.hasOwnProperty.call(ops, e.operator)) {
      return left(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    }
    const r = requirement(ops[e.operator], e.key, [...(e.values ?? [])]);
    if (r._tag === "Left") return r;
    reqs.push(r.right);
  }
  return right(reqs.sort(byKey));
}

/**
 * Whether a set of labels satisfies every requirement of a selector.
 *
 * @example
 * ```ts
 * import { matchesLabels } from "./label_selector.ts";
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

/**
 * The canonical string form of a selector; `parseLabelSelector` reads it back.
 *
 * Like apimachinery's `Selector.String()`, except that a set holding only the empty value
 * is written `(,)` so that it parses again.
 *
 * @example
 * ```ts
 * import { formatLabelSelector } from "./label_selector.ts";
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
