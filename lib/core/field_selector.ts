/**
 * Field selectors (the `fieldSelector` query parameter): `metadata.name=web,status.phase!=Running`.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";

/** One term of a field selector; all must hold. */
export type FieldRequirement =
  | { readonly type: "equals"; readonly field: string; readonly value: string }
  | { readonly type: "notEquals"; readonly field: string; readonly value: string };

/** A parsed field selector, terms in apimachinery's order (sorted by raw term). `[]` selects everything. */
export type FieldSelector = readonly FieldRequirement[];

const { left, right } = E;

/** Splits on commas not escaped by a backslash (escapes are kept for `unescape`). */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === "\\") i++;
    else if (c === ",") {
      terms.push(input.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(input.slice(start));
  return terms;
}

function unescape(value: string): Either<string, string> {
  if (!/[\\,=]/.test(value)) return right(value);
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") {
      const n = value[i + 1];
      if (n !== "\\" && n !== "," && n !== "=") {
        return left(`invalid field selector: invalid escape sequence: \\${n ?? ""}`);
      }
      out += n;
      i++;
    } else if (c === "," || c === "=") {
      return left(`invalid field selector: unescaped character in value: ${c}`);
    } else {
      out += c;
    }
  }
  return right(out);
}

/**
 * Escapes a field-selector value (`\` `,` `=`), like apimachinery's `fields.EscapeValue`.
 *
 * @example
 * ```ts
 * import { escapeFieldValue } from "./field_selector.ts";
 * escapeFieldValue("a=b,c"); // "a\\=b\\,c"
 * ```
 */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * Parses a field selector.
 *
 * Like apimachinery's `fields.ParseSelector`: operators `=`, `==`, `!=`; comma = AND; empty
 * terms are skipped; values are unescaped (`\,` `\=` `\\`); field paths are taken as written
 * (the server checks them per type, see {@link fieldSelectorPaths}).
 *
 * @param input the selector string (`""` selects everything)
 * @returns the selector, or the error message kube-apiserver answers with (400)
 *
 * @example
 * ```ts
 * import { parseFieldSelector } from "../../mod.ts";
 * parseFieldSelector("status.phase!=Running,metadata.name=web");
 * // right([{ type: "equals", field: "metadata.name", value: "web" },
 * //        { type: "notEquals", field: "status.phase", value: "Running" }])
 * ```
 */
export function parseFieldSelector(input: string): Either<string, FieldSelector> {
  const out: FieldRequirement[] = [];
  for (const term of splitTerms(input).sort()) {
    if (term === "") continue;
    const m = /!=|==|=/.exec(term);
    if (m === null) return left(`invalid selector: '${input}'; can't understand '${term}'`);
    const field = term.slice(0, m.index);
    const value = unescape(term.slice(m.index + m[0].length));
    if (value._tag === "Left") return value;
    out.push({ type: m[0] === "!=" ? "notEquals" : "equals", field, value: value.right });
  }
  return right(out);
}

/**
 * Whether an object satisfies every term; `getField` reads a field path's string value
 * (`undefined` counts as `""`, as in apimachinery's `fields.Set`).
 *
 * @example
 * ```ts
 * import { matchesFields } from "../../mod.ts";
 * const pod = { "metadata.name": "web", "status.phase": "Pending" } as Record<string, string>;
 * matchesFields([{ type: "notEquals", field: "status.phase", value: "Running" }], (p) => pod[p]); // true
 * ```
 */
export function matchesFields(
  selector: FieldSelector,
  getField: (path: string) => string | undefined,
): boolean {
  for (const r of selector) {
    const v = getField(r.field) ?? "";
    if (r.type === "equals" ? v !== r.value : v === r.value) return false;
  }
  return true;
}

/**
 * The distinct field paths a selector references, for per-type validation.
 *
 * @example
 * ```ts
 * import { fieldSelectorPaths } from "./field_selector.ts";
 * fieldSelectorPaths([{ type: "equals", field: "spec.nodeName", value: "n1" }]); // ["spec.nodeName"]
 * ```
 */
export function fieldSelectorPaths(selector: FieldSelector): string[] {
  return [...new Set(selector.map((r) => r.field))];
}

/**
 * The value a selector requires `field` to equal exactly, if any (e.g. `metadata.name=x`
 * lets a list become a get).
 *
 * @example
 * ```ts
 * import { requiredFieldValue } from "./field_selector.ts";
 * requiredFieldValue([{ type: "equals", field: "metadata.name", value: "web" }], "metadata.name"); // "web"
 * ```
 */
export function requiredFieldValue(selector: FieldSelector, field: string): string | undefined {
  return selector.find((r) => r.type === "equals" && r.field === field)?.value;
}

/**
 * The canonical string form (`=` and `!=`, values escaped); `parseFieldSelector` reads it back.
 *
 * @example
 * ```ts
 * import { formatFieldSelector } from "../../mod.ts";
 * formatFieldSelector([{ type: "equals", field: "metadata.name", value: "a,b" }]); // "metadata.name=a\\,b"
 * ```
 */
export function formatFieldSelector(selector: FieldSelector): string {
  return selector.map((r) =>
    `${r.field}${r.type === "equals" ? "=" : "!="}${escapeFieldValue(r.value)}`
  )
    .join(",");
}
