/**
 * Private: JSON text the way the Go side of Kubernetes writes values inside FieldsV1 keys
 * (map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped), and the total order
 * structured-merge-diff gives values.
 *
 * @module
 */
import type { Json } from "../../core/object.ts";

const goEscapes: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
  "\b": "\\u0008",
  "\f": "\\u000c",
};

/** Go-compatible JSON text of a string (HTML characters, U+2028 and U+2029 escaped). */
export function goString(s: string): string {
  return JSON.stringify(s).replace(
    /[<>&\u2028\u2029]|\\[bf]/g,
    (m) => m.length === 1 ? goEscapes[m] : goEscapes[m === "\\b" ? "\b" : "\f"],
  );
}

/** Go-compatible JSON text of a value (object keys sorted). */
export function goJson(value: Json): string {
  if (typeof value === "string") return goString(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(",")}]`;
  const keys = Object.keys(value).sort(compareStrings);
  return `{${keys.map((k) => `${goString(k)}:${goJson(value[k])}`).join(",")}}`;
}

// UTF-16 code units reordered so that comparing them gives code point (= UTF-8 byte) order.
const unit = (c: number) => c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c;

/** Go `strings.Compare`: byte order of the UTF-8 encodings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x !== y) return unit(x) < unit(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

function rank(v: Json): number {
  if (typeof v === "number") return 0;
  if (typeof v === "string") return 1;
  if (typeof v === "boolean") return 2;
  if (Array.isArray(v)) return 3;
  return v === null ? 5 : 4;
}

/** structured-merge-diff's total order of values: numbers, strings, booleans, lists, maps, null. */
export function compareValues(a: Json, b: Json): number {
  const ra = rank(a), rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const x = a as Json[], y = b as Json[];
      for (let i = 0; i < x.length && i < y.length; i++) {
        const c = compareValues(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 4: {
      const x = a as Record<string, Json>, y = b as Record<string, Json>;
      const kx = Object.keys(x).sort(compareStrings), ky = Object.keys(y).sort(compareStrings);
      for (let i = 0; i < kx.length && i < ky.length; i++) {
        const c = compareStrings(kx[i], ky[i]) || compareValues(x[kx[i]], y[ky[i]]);
        if (c !== 0) return c;
      }
      return kx.length === ky.length ? 0 : kx.length < ky.length ? -1 : 1;
    }
    default:
      return 0;
  }
}
