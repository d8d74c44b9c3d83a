/**
 * A tiny builder for OpenAPI v3 schemas written as data: scalars, objects, arrays, maps and
 * references to named component schemas (`allOf: [{$ref}]`, as kube-openapi publishes them so
 * that a description can sit next to the reference).
 *
 * @module
 */

/** An OpenAPI v3 schema object (JSON). */
export type Schema = { readonly [key: string]: unknown };

/** A group/version/kind as the `x-kubernetes-group-version-kind` extension spells it. */
export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** Prefix of local component references. */
export const refPrefix = "#/components/schemas/";

const described = (description: string | undefined): Schema =>
  description === undefined ? {} : { description };

/**
 * Schema constructors. Each takes the field description first (the text `kubectl explain`
 * prints) and returns plain JSON.
 *
 * @example
 * ```ts
 * import { s } from "./schema_builder.ts";
 * s.obj("A box.", { size: s.int("How big.") }, { required: ["size"] }).required; // ["size"]
 * ```
 */
export const s = {
  /** A string; `extra` adds e.g. `format` or `enum`. */
  str: (description?: string, extra: Schema = {}): Schema => ({
    ...described(description),
    type: "string",
    ...extra,
  }),
  /** An integer (int32 unless `format` says otherwise). */
  int: (description?: string, format = "int32"): Schema => ({
    ...described(description),
    type: "integer",
    format,
  }),
  /** A boolean. */
  bool: (description?: string): Schema => ({ ...described(description), type: "boolean" }),
  /** An object with the given properties. */
  obj: (
    description: string | undefined,
    properties: Readonly<Record<string, Schema>>,
    opts: { readonly required?: readonly string[] } = {},
  ): Schema => ({
    ...described(description),
    type: "object",
    ...(opts.required?.length ? { required: opts.required } : {}),
    properties,
  }),
  /** An array of `items`. */
  arr: (description: string | undefined, items: Schema): Schema => ({
    ...described(description),
    type: "array",
    items,
  }),
  /** A map from strings to `values` (strings by default). */
  map: (description?: string, values: Schema = { type: "string" }): Schema => ({
    ...described(description),
    type: "object",
    additionalProperties: values,
  }),
  /** A reference to the named component schema, keeping this field's description. */
  use: (name: string, description?: string): Schema => ({
    ...described(description),
    allOf: [{ $ref: `${refPrefix}${name}` }],
  }),
  /** A bare `$ref` (array items, request and response bodies). */
  ref: (name: string): Schema => ({ $ref: `${refPrefix}${name}` }),
} as const;

/**
 * The names of all component schemas referenced anywhere inside `value`.
 *
 * @example
 * ```ts
 * import { referencedNames, s } from "./schema_builder.ts";
 * referencedNames(s.arr("", s.ref("a.B"))); // ["a.B"]
 * ```
 */
export function referencedNames(value: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === "$ref" && typeof x === "string" && x.startsWith(refPrefix)) {
          out.add(x.slice(refPrefix.length));
        } else walk(x);
      }
    }
  };
  walk(value);
  return [...out];
}
