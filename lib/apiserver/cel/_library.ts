/**
 * The Kubernetes CEL library functions CRD rules may call, on top of CEL's standard ones
 * (private to the CEL package). Strings are indexed by code point, as in Go's CEL.
 *
 * @module
 */
import { cel } from "../deps.ts";
import { compilePattern } from "../schema/compile_pattern.ts";
import { netLibrary } from "./_library_net.ts";
import { quantityLibrary } from "./_library_quantity.ts";
import { urlLibrary } from "./_library_url.ts";

const { STRING, INT, DYN, BOOL } = cel.CelScalar;
const LIST = cel.listType(DYN);
const LIST_STRING = cel.listType(STRING);

/** Thrown for a bad argument; the evaluator turns it into a CEL error value. */
const fail = (message: string): never => {
  throw new Error(message);
};

const patterns = new Map<string, RegExp>();

/** Compiles an RE2 pattern once (shared with the schema `pattern` translation). */
export function regexpFor(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (!re) {
    const compiled = compilePattern(pattern);
    if (compiled.type === "error") return fail(`invalid regex ${pattern}: ${compiled.reason}`);
    re = compiled.regexp;
    if (patterns.size > 1000) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}

const chars = (s: string) => Array.from(s);
const int = (n: bigint, what: string): number =>
  n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)
    ? fail(`${what} out of range: ${n}`)
    : Number(n);

function indexOf(s: string, sub: string, from: number): bigint {
  const cs = chars(s);
  if (from < 0 || from > cs.length) fail(`index out of range: ${from}`);
  const subCs = chars(sub);
  for (let i = from; i + subCs.length <= cs.length; i++) {
    if (subCs.every((c, j) => cs[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, from?: number): bigint {
  const cs = chars(s);
  const subCs = chars(sub);
  const start = from ?? cs.length - subCs.length;
  if (from !== undefined && (from < 0 || from >= Math.max(cs.length, 1))) {
    fail(`index out of range: ${from}`);
  }
  for (let i = Math.min(start, cs.length - subCs.length); i >= 0; i--) {
    if (subCs.every((c, j) => cs[i + j] === c)) return BigInt(i);
  }
  return -1n;
}

function split(s: string, sep: string, limit: number): string[] {
  if (limit === 0) return [];
  const parts = sep === "" ? chars(s) : s.split(sep);
  if (limit < 0 || parts.length <= limit) return parts;
  const head = parts.slice(0, limit - 1);
  const restStart = head.reduce((n, p) => n + p.length + sep.length, 0);
  return sep === "" ? [...head, chars(s).slice(limit - 1).join("")] : [...head, s.slice(restStart)];
}

function replace(s: string, from: string, to: string, limit: number): string {
  if (from === "") {
    const cs = chars(s);
    const n = limit < 0 ? cs.length + 1 : Math.min(limit, cs.length + 1);
    return cs.map((c, i) => (i < n ? to : "") + c).join("") + (n > cs.length ? to : "");
  }
  if (limit < 0) return s.split(from).join(to);
  let out = "";
  let rest = s;
  for (let n = 0; n < limit; n++) {
    const i = rest.indexOf(from);
    if (i < 0) break;
    out += rest.slice(0, i) + to;
    rest = rest.slice(i + from.length);
  }
  return out + rest;
}

function substring(s: string, start: number, end?: number): string {
  const cs = chars(s);
  const stop = end ?? cs.length;
  if (start < 0 || start > cs.length || stop < start || stop > cs.length) {
    fail(`index out of range: ${start}, ${stop}`);
  }
  return cs.slice(start, stop).join("");
}

const upper = (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const lower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
const listStrings = (l: cel.CelList): string[] =>
  Array.from(l, (v) => typeof v === "string" ? v : fail("join requires a list of strings"));

type Comparable = bigint | number | string | boolean;
function compare(a: unknown, b: unknown): number {
  const numeric = (v: unknown) => typeof v === "bigint" || typeof v === "number";
  if (numeric(a) && numeric(b)) {
    const x = a as number | bigint;
    const y = b as number | bigint;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === typeof b && (typeof a === "string" || typeof a === "boolean")) {
    const x = a as Comparable;
    const y = b as Comparable;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return fail(`no such overload: compare ${typeof a} with ${typeof b}`);
}

function extreme(l: cel.CelList, sign: number): cel.CelValue {
  if (l.size === 0) return fail("min/max of an empty list");
  let best: cel.CelValue = l.get(0)!;
  for (const v of l) if (compare(v, best) * sign > 0) best = v;
  return best;
}

function sum(l: cel.CelList): bigint | number {
  let total: bigint | number = 0n;
  for (const v of l) {
    if (typeof v === "bigint" && typeof total === "bigint") total += v;
    else if (typeof v === "number") total = Number(total) + v;
    else if (typeof v === "bigint") total = Number(total) + Number(v);
    else fail("sum requires a list of numbers");
  }
  return total;
}

function findAll(s: string, pattern: string, limit: number): string[] {
  const re = regexpFor(pattern);
  const out: string[] = [];
  if (limit === 0) return out;
  for (const m of s.matchAll(new RegExp(re.source, re.flags + "g"))) {
    out.push(m[0]);
    if (limit > 0 && out.length >= limit) break;
  }
  return out;
}

const indexIn = (l: cel.CelList, v: cel.CelValue, last: boolean): bigint => {
  const items = Array.from(l);
  const eq = (x: cel.CelValue) => JSON.stringify(celKey(x)) === JSON.stringify(celKey(v));
  const i = last ? items.findLastIndex(eq) : items.findIndex(eq);
  return BigInt(i);
};
const celKey = (v: unknown): unknown =>
  typeof v === "bigint" ? Number(v) : cel.isCelList(v) ? Array.from(v, celKey) : v;

/** Every library function: the Kubernetes strings, lists, regex, IP, CIDR, URL and quantity extensions. */
export const kubernetesLibrary: cel.CelFunc[] = [
  ...netLibrary,
  ...urlLibrary,
  ...quantityLibrary,
  cel.celMethod("charAt", STRING, [INT], STRING, function (i) {
    const cs = chars(this);
    const n = int(i, "index");
    return n === cs.length ? "" : n < 0 || n > cs.length ? fail(`index out of range: ${n}`) : cs[n];
  }),
  cel.celMethod("indexOf", STRING, [STRING], INT, function (sub) {
    return indexOf(this, sub, 0);
  }),
  cel.celMethod("indexOf", STRING, [STRING, INT], INT, function (sub, from) {
    return indexOf(this, sub, int(from, "index"));
  }),
  cel.celMethod("lastIndexOf", STRING, [STRING], INT, function (sub) {
    return lastIndexOf(this, sub);
  }),
  cel.celMethod("lastIndexOf", STRING, [STRING, INT], INT, function (sub, from) {
    return lastIndexOf(this, sub, int(from, "index"));
  }),
  cel.celMethod("lowerAscii", STRING, [], STRING, function () {
    return lower(this);
  }),
  cel.celMethod("upperAscii", STRING, [], STRING, function () {
    return upper(this);
  }),
  cel.celMethod("replace", STRING, [STRING, STRING], STRING, function (a, b) {
    return replace(this, a, b, -1);
  }),
  cel.celMethod("replace", STRING, [STRING, STRING, INT], STRING, function (a, b, n) {
    return replace(this, a, b, int(n, "limit"));
  }),
  cel.celMethod("split", STRING, [STRING], LIST_STRING, function (sep) {
    return split(this, sep, -1);
  }),
  cel.celMethod("split", STRING, [STRING, INT], LIST_STRING, function (sep, n) {
    return split(this, sep, int(n, "limit"));
  }),
  cel.celMethod("substring", STRING, [INT], STRING, function (start) {
    return substring(this, int(start, "index"));
  }),
  cel.celMethod("substring", STRING, [INT, INT], STRING, function (start, end) {
    return substring(this, int(start, "index"), int(end, "index"));
  }),
  cel.celMethod("trim", STRING, [], STRING, function () {
    return this.trim();
  }),
  cel.celMethod("reverse", STRING, [], STRING, function () {
    return chars(this).reverse().join("");
  }),
  cel.celMethod("join", LIST, [], STRING, function () {
    return listStrings(this).join("");
  }),
  cel.celMethod("join", LIST, [STRING], STRING, function (sep) {
    return listStrings(this).join(sep);
  }),
  cel.celMethod("find", STRING, [STRING], STRING, function (p) {
    return findAll(this, p, 1)[0] ?? "";
  }),
  cel.celMethod("findAll", STRING, [STRING], LIST_STRING, function (p) {
    return findAll(this, p, -1);
  }),
  cel.celMethod("findAll", STRING, [STRING, INT], LIST_STRING, function (p, n) {
    return findAll(this, p, int(n, "limit"));
  }),
  cel.celMethod("isSorted", LIST, [], BOOL, function () {
    const items = Array.from(this);
    return items.every((v, i) => i === 0 || compare(items[i - 1], v) <= 0);
  }),
  cel.celMethod("sum", LIST, [], DYN, function () {
    return sum(this);
  }),
  cel.celMethod("min", LIST, [], DYN, function () {
    return extreme(this, -1);
  }),
  cel.celMethod("max", LIST, [], DYN, function () {
    return extreme(this, 1);
  }),
  cel.celMethod("indexOf", LIST, [DYN], INT, function (v) {
    return indexIn(this, v, false);
  }),
  cel.celMethod("lastIndexOf", LIST, [DYN], INT, function (v) {
    return indexIn(this, v, true);
  }),
];

/** RE2 `matches` through the same RE2 -> ECMAScript translation as schema `pattern`s. */
export const re2: { compile(pattern: string): { test(text: string): boolean } } = {
  compile: regexpFor,
};
