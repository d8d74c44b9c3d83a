/**
 * Path elements: the steps of a field path in structured-merge-diff's model (field name,
 * list item by key, set member by value, list item by index), with kube's total order, the
 * FieldsV1 key form (`f:`, `k:`, `v:`, `i:`) and the text form used in conflict messages.
 *
 * @module
 */
import type { Json } from "../../core/object.ts";
import { compareStrings, compareValues, goJson } from "./_go_json.ts";

/** One step of a field path. Key fields are sorted by name. */
export type PathElement =
  | { readonly type: "field"; readonly name: string }
  | { readonly type: "key"; readonly fields: readonly (readonly [string, Json])[] }
  | { readonly type: "value"; readonly value: Json }
  | { readonly type: "index"; readonly index: number };

/** A field path from the object root. */
export type FieldPath = readonly PathElement[];

/** A field-name element. */
export const fieldElement = (name: string): PathElement => ({ type: "field", name });

/**
 * A list-item-by-key element; fields are sorted by name as kube does.
 *
 * @example
 * ```ts
 * import { keyElement, elementKey } from "./path_element.ts";
 * elementKey(keyElement({ protocol: "TCP", containerPort: 80 }));
 * // 'k:{"containerPort":80,"protocol":"TCP"}'
 * ```
 */
export function keyElement(fields: Readonly<Record<string, Json>>): PathElement {
  const names = Object.keys(fields).sort(compareStrings);
  return { type: "key", fields: names.map((n) => [n, fields[n]] as const) };
}

/** A set-member element. */
export const valueElement = (value: Json): PathElement => ({ type: "value", value });

/** A list-index element. */
export const indexElement = (index: number): PathElement => ({ type: "index", index });

const typeRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/**
 * kube's total order of path elements: field names, then keys, then values, then indexes.
 *
 * @example
 * ```ts
 * import { compareElements, fieldElement } from "./path_element.ts";
 * compareElements(fieldElement("a"), fieldElement("b")); // -1
 * ```
 */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.type !== b.type) return typeRank[a.type] < typeRank[b.type] ? -1 : 1;
  switch (a.type) {
    case "field":
      return compareStrings(a.name, (b as typeof a).name);
    case "key": {
      const x = a.fields, y = (b as typeof a).fields;
      for (let i = 0; i < x.length && i < y.length; i++) {
        const c = compareStrings(x[i][0], y[i][0]) || compareValues(x[i][1], y[i][1]);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case "value":
      return compareValues(a.value, (b as typeof a).value);
    case "index": {
      const j = (b as typeof a).index;
      return a.index === j ? 0 : a.index < j ? -1 : 1;
    }
  }
}

/**
 * The FieldsV1 key of an element: `f:name`, `k:{"name":"c1"}`, `v:"x"`, `i:0`. It is also
 * the element's identity (two elements are equal iff their keys are).
 *
 * @example
 * ```ts
 * import { elementKey, valueElement } from "./path_element.ts";
 * elementKey(valueElement("example.com/f")); // 'v:"example.com/f"'
 * ```
 */
export function elementKey(e: PathElement): string {
  switch (e.type) {
    case "field":
      return `f:${e.name}`;
    case "key":
      return `k:{${e.fields.map(([n, v]) => `${goJson(n)}:${goJson(v)}`).join(",")}}`;
    case "value":
      return `v:${goJson(e.value)}`;
    case "index":
      return `i:${e.index}`;
  }
}

/** Why a FieldsV1 key could not be read; `unknown` keys are skipped, as kube does. */
export type ElementParse =
  | { readonly type: "ok"; readonly element: PathElement }
  | { readonly type: "unknown" }
  | { readonly type: "error"; readonly detail: string };

/**
 * Reads a FieldsV1 key back into an element.
 *
 * @example
 * ```ts
 * import { parseElementKey } from "./path_element.ts";
 * parseElementKey('k:{"name":"c1"}').type; // "ok"
 * ```
 */
export function parseElementKey(key: string): ElementParse {
  if (key.length < 2 || key[1] !== ":") {
    return { type: "error", detail: `missing colon: ${key}` };
  }
  const rest = key.slice(2);
  try {
    switch (key[0]) {
      case "f":
        return { type: "ok", element: fieldElement(rest) };
      case "v":
        return { type: "ok", element: valueElement(JSON.parse(rest)) };
      case "k": {
        const obj = JSON.parse(rest);
        if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
          return { type: "error", detail: `key is not an object: ${key}` };
        }
        return { type: "ok", element: keyElement(obj) };
      }
      case "i": {
        if (!/^-?\d+$/.test(rest)) return { type: "error", detail: `bad index: ${key}` };
        return { type: "ok", element: indexElement(Number(rest)) };
      }
      default:
        return { type: "unknown" };
    }
  } catch (e) {
    return { type: "error", detail: `${key}: ${(e as Error).message}` };
  }
}

/**
 * A path in kube's text form, as conflict messages print it:
 * `.spec.containers[name="web"].image`, `.metadata.finalizers[="f"]`, `.items[0]`.
 *
 * @example
 * ```ts
 * import { fieldElement, formatPath, keyElement } from "./path_element.ts";
 * formatPath([fieldElement("spec"), fieldElement("containers"), keyElement({ name: "web" }),
 *   fieldElement("image")]); // '.spec.containers[name="web"].image'
 * ```
 */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const e of path) {
    switch (e.type) {
      case "field":
        out += `.${e.name}`;
        break;
      case "key":
        out += `[${e.fields.map(([n, v]) => `${n}=${goJson(v)}`).join(",")}]`;
        break;
      case "value":
        out += `[=${goJson(e.value)}]`;
        break;
      case "index":
        out += `[${e.index}]`;
        break;
    }
  }
  return out;
}
