/**
 * `parseLabelSelector()`: reads the query-string grammar of label selectors
 * (`app=web,tier in (a,b),!canary`) into a {@link LabelSelector}.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import {
  byLabelKey,
  type LabelRequirement,
  labelRequirement,
  type LabelSelector,
} from "./label_requirement.ts";

const { left, right } = E;

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
  if (negated || atEnd()) return labelRequirement(negated ? "doesNotExist" : "exists", k.lit, []);
  const op = next();
  const type = Object.prototype.hasOwnProperty.call(opTypes, op.lit) ? opTypes[op.lit] : undefined;
  if (type === undefined) return left(`found '${op.lit}', expected: [!= == = in notin > <]`);
  if (type !== "in" && type !== "notIn") {
    if (atEnd()) return labelRequirement(type, k.lit, [""]);
    const v = next();
    return v.kind === "id"
      ? labelRequirement(type, k.lit, [v.lit])
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
  return labelRequirement(type, k.lit, values);
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
 * import { parseLabelSelector } from "../../mod.ts";
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
  return right(reqs.sort(byLabelKey));
}
