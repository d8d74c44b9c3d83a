/**
 * A rule's `fieldPath` (`.a.b`, `.m['k.e.y']`) checked against the schema and turned into
 * field-path form (`a.b`, `m[k.e.y]`) (private to the CEL package).
 *
 * @module
 */
import type { CompiledNode } from "../schema/types.ts";

/** The normalized path, or why the `fieldPath` is not valid for the schema. */
export type FieldPathResult =
  | { readonly type: "ok"; readonly path: string }
  | { readonly type: "error"; readonly reason: string };

const UNESCAPE: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "'": "'",
  "\\": "\\",
};

/** Splits on `.`, `[` and `]`, keeping single-quoted strings whole. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === "." || c === "[" || c === "]") {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== "\\")) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !".[]".includes(path[j])) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/**
 * Checks `fieldPath` against `node` (properties and additionalProperties only, as
 * Kubernetes) and returns it in field-path form.
 */
export function normalizeFieldPath(fieldPath: string, node: CompiledNode): FieldPathResult {
  const toks = tokens(fieldPath);
  let path = "";
  let cur: CompiledNode = node;
  const step = (name: string): string | undefined => {
    if (cur.properties) {
      const child = cur.properties.get(name);
      if (!child) return "does not refer to a valid field";
      path = path ? `${path}.${name}` : name;
      cur = child;
    } else if (cur.additionalProperties && typeof cur.additionalProperties === "object") {
      path = `${path}[${name}]`;
      cur = cur.additionalProperties;
    } else return "does not refer to a valid field";
    return undefined;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    let problem: string | undefined;
    if (t === ".") {
      const name = toks[++i];
      if (name === undefined) return { type: "error", reason: "unexpected end of JSON path" };
      problem = step(name);
    } else if (t === "[") {
      const quoted = toks[++i];
      if (quoted === undefined) return { type: "error", reason: "unexpected end of JSON path" };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
        return { type: "error", reason: `expected single quoted string but got ${quoted}` };
      }
      let bad = "";
      const key = quoted.slice(1, -1).replace(/\\./g, (m) => {
        if (m[1] in UNESCAPE) return UNESCAPE[m[1]];
        bad ||= m;
        return "";
      });
      if (bad) {
        return { type: "error", reason: `invalid string literal: invalid escape char ${bad}` };
      }
      problem = step(key);
      if (!problem && toks[++i] !== "]") {
        return { type: "error", reason: `expected ] but got ${toks[i] ?? "end of path"}` };
      }
    } else {
      return { type: "error", reason: `expected [ or . but got: ${t}` };
    }
    if (problem) return { type: "error", reason: problem };
  }
  return { type: "ok", path };
}
