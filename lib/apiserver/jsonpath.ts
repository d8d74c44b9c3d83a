/**
 * The JSONPath subset of kubectl and CRD `additionalPrinterColumns`: `.a.b`, `['x.y']`,
 * `[0]`, `[-1]`, `[*]`, `.*`, filters `[?(@.type=="Ready")]`, optional `{...}` and `$`.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";

type Literal = string | number | boolean | null;

/** One step of a compiled path. */
export type JsonPathStep =
  | { readonly type: "field"; readonly name: string }
  | { readonly type: "index"; readonly index: number }
  | { readonly type: "wildcard" }
  | {
    readonly type: "filter";
    readonly path: readonly JsonPathStep[];
    /** `exists` for `[?(@.x)]`. */
    readonly op: "exists" | "==" | "!=" | "<" | "<=" | ">" | ">=";
    readonly value: Literal;
  };

/** A compiled JSONPath expression. */
export interface JsonPath {
  readonly type: "jsonPath";
  readonly source: string;
  readonly steps: readonly JsonPathStep[];
}

const { left, right } = E;

class Parser {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
  eat(lit: string): boolean {
    if (!this.s.startsWith(lit, this.i)) return false;
    this.i += lit.length;
    return true;
  }
  fail(what: string): string {
    return `unrecognized character in JSONPath ${
      JSON.stringify(this.s)
    } at position ${this.i}: ${what}`;
  }
  /** Steps until `stop` says so; `relative` forbids filters (inside a filter). */
  steps(relative: boolean, stop: () => boolean): Either<string, JsonPathStep[]> {
    const out: JsonPathStep[] = [];
    while (this.i < this.s.length && !stop()) {
      if (this.eat("..")) return left(this.fail("recursive descent '..' is not supported"));
      if (this.eat(".")) {
        if (this.eat("*")) {
          out.push({ type: "wildcard" });
          continue;
        }
        const m = /^[^.[\]{}()\s=!<>'"]+/.exec(this.s.slice(this.i));
        if (m === null) return left(this.fail("expected a field name after '.'"));
        out.push({ type: "field", name: m[0] });
        this.i += m[0].length;
      } else if (this.eat("[")) {
        const step = this.bracket(relative);
        if (step._tag === "Left") return step;
        out.push(step.right);
      } else {
        return left(this.fail(`unexpected ${JSON.stringify(this.s[this.i])}`));
      }
    }
    return right(out);
  }
  bracket(relative: boolean): Either<string, JsonPathStep> {
    this.ws();
    let step: JsonPathStep;
    const q = this.s[this.i];
    if (q === "'" || q === '"') {
      const name = this.quoted();
      if (name === undefined) return left(this.fail("unterminated quoted key"));
      step = { type: "field", name };
    } else if (this.eat("*")) {
      step = { type: "wildcard" };
    } else if (this.eat("?(")) {
      if (relative) return left(this.fail("nested filters are not supported"));
      const f = this.filter();
      if (f._tag === "Left") return f;
      step = f.right;
    } else {
      const m = /^-?[0-9]+/.exec(this.s.slice(this.i));
      if (m === null) return left(this.fail("expected a quoted key, an index, '*' or a filter"));
      this.i += m[0].length;
      step = { type: "index", index: Number(m[0]) };
    }
    this.ws();
    return this.eat("]") ? right(step) : left(this.fail("expected ']' (slices are not supported)"));
  }
  quoted(): string | undefined {
    const q = this.s[this.i];
    const end = this.s.indexOf(q, this.i + 1);
    if (end < 0) return undefined;
    const text = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    return text;
  }
  filter(): Either<string, JsonPathStep> {
    this.ws();
    if (!this.eat("@")) return left(this.fail("a filter must start with '@'"));
    const path = this.steps(true, () => /^\s*([=!<>]|\))/.test(this.s.slice(this.i)));
    if (path._tag === "Left") return path;
    this.ws();
    if (this.eat(")")) {
      return right({ type: "filter", path: path.right, op: "exists", value: null });
    }
    const op = ["==", "!=", "<=", ">=", "<", ">"].find((o) => this.eat(o)) as
      | "=="
      | "!="
      | "<"
      | "<="
      | ">"
      | ">="
      | undefined;
    if (op === undefined) return left(this.fail("expected a comparison operator"));
    this.ws();
    let value: Literal;
    const q = this.s[this.i];
    if (q === "'" || q === '"') {
      const v = this.quoted();
      if (v === undefined) return left(this.fail("unterminated string"));
      value = v;
    } else {
      const m = /^(-?[0-9]+(\.[0-9]+)?|true|false|null)/.exec(this.s.slice(this.i));
      if (m === null) return left(this.fail("expected a literal"));
      this.i += m[0].length;
      value = m[0] === "true"
        ? true
        : m[0] === "false"
        ? false
        : m[0] === "null"
        ? null
        : Number(m[0]);
    }
    this.ws();
    return this.eat(")")
      ? right({ type: "filter", path: path.right, op, value })
      : left(this.fail("expected ')' to close the filter"));
  }
}

/**
 * Compiles a printer-column JSONPath once, for evaluation on many objects.
 *
 * @param expr e.g. `.status.conditions[?(@.type=="Ready")].status` or `{.spec.size}`
 * @returns the compiled path, or an error message naming the position
 *
 * @example
 * ```ts
 * import { compileJsonPath } from "./jsonpath.ts";
 * compileJsonPath(".metadata.labels['app.kubernetes.io/name']")._tag; // "Right"
 * ```
 */
export function compileJsonPath(expr: string): Either<string, JsonPath> {
  let body = expr.trim();
  if (body.startsWith("{")) {
    if (!body.endsWith("}")) return left(`unclosed action in JSONPath ${JSON.stringify(expr)}`);
    body = body.slice(1, -1).trim();
  }
  if (body.startsWith("$")) body = body.slice(1);
  if (body === "" || body === ".") return right({ type: "jsonPath", source: expr, steps: [] });
  const p = new Parser(body);
  const steps = p.steps(false, () => false);
  return steps._tag === "Left"
    ? steps
    : right({ type: "jsonPath", source: expr, steps: steps.right });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function compare(a: unknown, op: JsonPathStep & { type: "filter" }): boolean {
  const b = op.value;
  switch (op.op) {
    case "exists":
      return true;
    case "==":
      return a === b;
    case "!=":
      return a !== b;
  }
  if (typeof a !== typeof b || (typeof a !== "number" && typeof a !== "string")) return false;
  const x = a as number | string;
  const y = b as number | string;
  return op.op === "<" ? x < y : op.op === "<=" ? x <= y : op.op === ">" ? x > y : x >= y;
}

function run(steps: readonly JsonPathStep[], input: unknown[]): unknown[] {
  let cur = input;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      switch (step.type) {
        case "field":
          if (isObject(v) && Object.prototype.hasOwnProperty.call(v, step.name)) {
            next.push(v[step.name]);
          }
          break;
        case "index":
          if (Array.isArray(v)) {
            const i = step.index < 0 ? v.length + step.index : step.index;
            if (i >= 0 && i < v.length) next.push(v[i]);
          }
          break;
        case "wildcard":
          if (Array.isArray(v)) next.push(...v);
          else if (isObject(v)) next.push(...Object.values(v));
          break;
        case "filter":
          if (Array.isArray(v)) {
            for (const item of v) {
              const found = run(step.path, [item]);
              if (found.length > 0 && compare(found[0], step)) next.push(item);
            }
          }
          break;
      }
    }
    cur = next;
  }
  return cur;
}

/**
 * Evaluates a compiled path; missing keys and out-of-range indexes yield no result.
 *
 * @returns every result, in document order
 *
 * @example
 * ```ts
 * import { compileJsonPath, evalJsonPath } from "./jsonpath.ts";
 * const p = compileJsonPath(".spec.containers[*].name");
 * if (p._tag === "Right") evalJsonPath(p.right, { spec: { containers: [{ name: "a" }, { name: "b" }] } }); // ["a", "b"]
 * ```
 */
export function evalJsonPath(path: JsonPath, obj: unknown): unknown[] {
  return run(path.steps, [obj]);
}

/** A printer column `type`. */
export type PrinterColumnType = "string" | "integer" | "number" | "boolean" | "date";

/** A Table cell value. */
export type TableCell = string | number | boolean | null;

function text(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * Renders one Table cell from a printer-column path, as kube-apiserver's custom-resource
 * table convertor does: no result -> `null`; otherwise the FIRST result, converted by column
 * type (`string`: text, objects/arrays as JSON; `integer`: truncated number; `number`;
 * `boolean`; `date`: the raw timestamp string, which the caller turns into an age). A value
 * of the wrong type -> `null`.
 *
 * Like kubectl `custom-columns` instead with `{ multiple: "join" }`: all results as text,
 * joined with `,` (a string cell).
 *
 * @example
 * ```ts
 * import { compileJsonPath, renderJsonPathCell } from "./jsonpath.ts";
 * const p = compileJsonPath('.status.conditions[?(@.type=="Ready")].status');
 * const obj = { status: { conditions: [{ type: "Ready", status: "True" }] } };
 * if (p._tag === "Right") renderJsonPathCell(p.right, obj); // "True"
 * ```
 */
export function renderJsonPathCell(
  path: JsonPath,
  obj: unknown,
  options: { readonly columnType?: PrinterColumnType; readonly multiple?: "first" | "join" } = {},
): TableCell {
  const results = evalJsonPath(path, obj);
  if (results.length === 0) return null;
  if (options.multiple === "join" && results.length > 1) return results.map(text).join(",");
  const v = results[0];
  switch (options.columnType ?? "string") {
    case "string":
      return v === null || v === undefined ? null : text(v);
    case "integer":
      return typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : null;
    case "number":
      return typeof v === "number" ? v : null;
    case "boolean":
      return typeof v === "boolean" ? v : null;
    case "date":
      return typeof v === "string" ? v : null;
  }
}
