/**
 * The first error Go's `encoding/json` (kube-apiserver's decoder for built-in kinds) would
 * report decoding a value into the typed struct a built-in schema describes: a JSON type
 * that does not fit a field, an integer out of its range, a bad quantity, time or base64
 * string. Schema-driven: it needs only the compiled schema (with `$ref` names).
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import { parseQuantity, QUANTITY_FORMAT_ERROR } from "../cel/_quantity.ts";
import type { CompiledNode, CompiledSchema } from "./types.ts";
import { isPlainScalar } from "./_plain_scalar.ts";

const QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** Where a value sits, in the terms of Go's `UnmarshalTypeError`. */
interface At {
  /** The innermost Go struct holding the field, e.g. `PodSpec`. */
  readonly struct: string;
  /** JSON field names from the root, without indices or map keys. */
  readonly fields: readonly string[];
}

/** The Go type of a node, as `reflect.Type.String()` prints it: `v1.Container`, `[]string`. */
export function goTypeOf(node: CompiledNode | undefined): string {
  if (!node) return "interface {}";
  if (node.ref) {
    const parts = node.ref.split(".");
    return `${parts.at(-2)}.${parts.at(-1)}`;
  }
  if (node.intOrString) return "intstr.IntOrString";
  switch (node.types[0]) {
    case "string":
      return node.format === "byte" ? "[]uint8" : "string";
    case "integer":
      return node.format === "int32" ? "int32" : node.format === "int64" ? "int64" : "int";
    case "number":
      return node.format === "float" ? "float32" : "float64";
    case "boolean":
      return "bool";
    case "array":
      return `[]${goTypeOf(node.items)}`;
    case "object":
      return typeof node.additionalProperties === "object"
        ? `map[string]${goTypeOf(node.additionalProperties)}`
        : "map[string]interface {}";
  }
  return "interface {}";
}

function jsonKind(x: unknown): string {
  if (typeof x === "boolean") return "bool";
  if (Array.isArray(x)) return "array";
  if (typeof x === "number") return "number";
  return typeof x === "string" ? "string" : "object";
}

function typeError(x: unknown, node: CompiledNode, at: At, value = jsonKind(x)): string {
  const into = at.fields.length > 0
    ? `Go struct field ${at.struct}.${at.fields.join(".")}`
    : "Go value";
  return `json: cannot unmarshal ${value} into ${into} of type ${goTypeOf(node)}`;
}

function scalarError(x: unknown, node: CompiledNode, at: At): string | undefined {
  if (node.ref === QUANTITY) {
    if (typeof x === "number") return undefined;
    return typeof x === "string" && parseQuantity(x.trim()) !== undefined
      ? undefined
      : QUANTITY_FORMAT_ERROR;
  }
  if (node.intOrString) {
    return (typeof x === "number" && Number.isInteger(x)) || typeof x === "string"
      ? undefined
      : typeError(x, node, at);
  }
  switch (node.types[0]) {
    case "string":
      if (typeof x !== "string") return typeError(x, node, at);
      if (node.format === "byte" && !BASE64.test(x)) {
        return `illegal base64 data at input byte ${badBase64At(x)}`;
      }
      if (node.format === "date-time" && !RFC3339.test(x)) {
        return `parsing time ${JSON.stringify(x)} as "2006-01-02T15:04:05Z07:00": ` +
          `cannot parse ${JSON.stringify(x)} as "2006"`;
      }
      return undefined;
    case "boolean":
      return typeof x === "boolean" ? undefined : typeError(x, node, at);
    case "number":
      return typeof x === "number" ? undefined : typeError(x, node, at);
    case "integer": {
      if (typeof x !== "number") return typeError(x, node, at);
      const bits = node.format === "int32" ? 31 : 63;
      const fits = Number.isInteger(x) && x >= -(2 ** bits) && x < 2 ** bits;
      return fits ? undefined : typeError(x, node, at, `number ${x}`);
    }
  }
  return undefined;
}

function badBase64At(s: string): number {
  const i = s.search(/[^A-Za-z0-9+/=]/);
  return i >= 0 ? i : Math.max(0, s.length - (s.length % 4 || 4));
}

function visit(x: unknown, node: CompiledNode | undefined, at: At): string | undefined {
  if (x === null || x === undefined || !node || node.preserveUnknownFields) return undefined;
  const type = node.types[0];
  if (
    node.ref === QUANTITY || node.intOrString || (type && type !== "object" && type !== "array")
  ) {
    return scalarError(x, node, at);
  }
  if (type === "array") {
    if (!Array.isArray(x)) return typeError(x, node, at);
    for (const item of x) {
      const e = visit(item, node.items, at);
      if (e) return e;
    }
    return undefined;
  }
  if (type !== "object") return undefined;
  if (!isPlainObject(x)) return typeError(x, node, at);
  const struct = node.ref ? node.ref.slice(node.ref.lastIndexOf(".") + 1) : at.struct;
  const additional = typeof node.additionalProperties === "object"
    ? node.additionalProperties
    : undefined;
  for (const k in x) {
    const v = x[k];
    const prop = node.properties?.get(k);
    if (prop) {
      if (isPlainScalar(v, prop)) continue;
      const e = visit(v, prop, { struct, fields: [...at.fields, k] });
      if (e) return e;
    } else if (additional && !isPlainScalar(v, additional)) {
      const e = visit(v, additional, at);
      if (e) return e;
    }
  }
  return undefined;
}

/**
 * The error kube-apiserver's JSON decoding of a built-in kind reports for a value, or
 * `undefined` when it decodes. Unknown fields are not errors here (strict decoding reports
 * them); `null` decodes as the zero value anywhere.
 *
 * @param value the request body (or patched object)
 * @param schema the kind's compiled schema (from `builtinSchema()`)
 * @param kind the Go struct of the root, e.g. `ConfigMap`
 *
 * @example
 * ```ts
 * import { goDecodeError } from "./go_decode_error.ts";
 * import { builtinSchema } from "../openapi/builtin/mod.ts";
 * const schema = (await builtinSchema("", "v1", "ConfigMap"))!;
 * goDecodeError({ data: { k: 5 } }, schema, "ConfigMap");
 * // "json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
 * ```
 */
export function goDecodeError(
  value: unknown,
  schema: CompiledSchema,
  kind: string,
): string | undefined {
  return visit(value, schema.root, { struct: kind, fields: [] });
}
