/**
 * Opaque library values (`net.IP`, `net.IPPrefix`, `kubernetes.URL`, `kubernetes.Quantity`)
 * for an evaluator without custom types (private to the CEL package).
 *
 * `@bufbuild/cel` 0.6.1 only knows scalars, lists, maps and protobuf messages, so a library
 * value is a two-entry CEL map: its type name and its canonical text. Equality of two values
 * is then map equality, that is equality of canonical texts, and every member function is
 * declared on `map(dyn, dyn)` and refuses maps that are not of its type.
 *
 * @module
 */
import { cel } from "../deps.ts";

/** The CEL type every opaque value has (`map(dyn, dyn)`). */
export const OPAQUE = cel.mapType(cel.CelScalar.DYN, cel.CelScalar.DYN);

const TYPE_KEY = "@kubefold.type";
const VALUE_KEY = "@kubefold.value";

/** Thrown for a bad argument; the function wrapper turns it into a CEL error value. */
export const fail = (message: string): never => {
  throw new Error(message);
};

/**
 * Wraps the canonical text of a value of library type `typeName`.
 *
 * @example
 * ```ts
 * import { opaque, opaqueText } from "./_opaque.ts";
 * opaqueText(opaque("net.IP", "::1"), "net.IP", "family"); // "::1"
 * ```
 */
export function opaque(typeName: string, text: string): cel.CelMap {
  return cel.celMap(new Map<string, cel.CelInput>([[TYPE_KEY, typeName], [VALUE_KEY, text]]));
}

/**
 * The canonical text of `value` when it is of library type `typeName`; otherwise a
 * `no such overload` error naming `fn`.
 *
 * @example
 * ```ts
 * import { opaque, opaqueText } from "./_opaque.ts";
 * opaqueText(opaque("kubernetes.URL", "https://a"), "kubernetes.URL", "getHost"); // "https://a"
 * ```
 */
export function opaqueText(value: cel.CelMap, typeName: string, fn: string): string {
  const text = value.get(VALUE_KEY);
  return value.size === 2 && value.get(TYPE_KEY) === typeName && typeof text === "string"
    ? text
    : fail(`no such overload: ${fn}`);
}

/**
 * The library type name of `value`, if it is an opaque library value.
 *
 * @example
 * ```ts
 * import { cel } from "../deps.ts";
 * import { opaque, opaqueType } from "./_opaque.ts";
 * opaqueType(opaque("net.IP", "::1")); // "net.IP"
 * opaqueType(cel.celMap(new Map())); // undefined
 * ```
 */
export function opaqueType(value: cel.CelMap): string | undefined {
  const t = value.size === 2 ? value.get(TYPE_KEY) : undefined;
  return typeof t === "string" && typeof value.get(VALUE_KEY) === "string" ? t : undefined;
}
