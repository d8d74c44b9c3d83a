/**
 * A tiny schema builder: one definition gives both a CRD's `openAPIV3Schema` and the
 * TypeScript type of the objects it validates, so neither is written twice.
 *
 * @module
 */
import type { k8sApiextensions } from "../deps.ts";

/**
 * A structural OpenAPI v3 schema, as a CRD holds it: kubernetes-types' `JSONSchemaProps`
 * plus the `x-kubernetes-*` extensions it leaves out.
 */
export interface JsonSchema extends
  Omit<
    k8sApiextensions.JSONSchemaProps,
    "items" | "properties" | "additionalProperties"
  > {
  /** The schema of array items. */
  items?: JsonSchema;
  /** The schemas of an object's properties. */
  properties?: Record<string, JsonSchema>;
  /** The schema of a map's values (or whether other properties are allowed). */
  additionalProperties?: JsonSchema | boolean;
  /** Keep fields the schema does not name. */
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  /** The value is a whole Kubernetes object. */
  "x-kubernetes-embedded-resource"?: boolean;
  /** The value is an integer or a string. */
  "x-kubernetes-int-or-string"?: boolean;
  /** How server-side apply merges the list. */
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  /** The keys of a `map` list's items. */
  "x-kubernetes-list-map-keys"?: string[];
  /** How server-side apply merges the map. */
  "x-kubernetes-map-type"?: "granular" | "atomic";
  /** CEL rules checked by the API server. */
  "x-kubernetes-validations"?: k8sApiextensions.ValidationRule[];
}

/**
 * A schema for values of type `T`: its JSON form plus a phantom type.
 *
 * Fields of {@link t.object} are required unless wrapped in {@link t.optional}.
 */
export interface Schema<T> {
  /** The structural schema. */
  readonly json: JsonSchema;
  /** Whether the field holding it may be absent. */
  readonly optional: boolean;
  /** Phantom: never set, only carries `T`. */
  readonly __type?: T;
}

/** A {@link Schema} whose field may be absent. */
export interface OptionalSchema<T> extends Schema<T> {
  /** Marks the property optional. */
  readonly optional: true;
}

/**
 * The TypeScript type a schema describes.
 *
 * @example
 * ```ts
 * import { type Infer, t } from "../../mod.ts";
 * const spec = t.object({ replicas: t.integer({ minimum: 0 }), note: t.optional(t.string()) });
 * type Spec = Infer<typeof spec>; // { replicas: number; note?: string }
 * const ok: Spec = { replicas: 1 };
 * ```
 */
export type Infer<S> = S extends Schema<infer T> ? T : never;

type Shape = Record<string, Schema<unknown>>;
/** The object type of a shape (property name -> schema): required and optional members. */
export type ObjectOf<P extends Record<string, Schema<unknown>>> = (
  & { [K in keyof P as P[K] extends { readonly optional: true } ? never : K]: Infer<P[K]> }
  & { [K in keyof P as P[K] extends { readonly optional: true } ? K : never]?: Infer<P[K]> }
) extends infer O ? { [K in keyof O]: O[K] } : never;

/** Options every builder takes. */
export interface CommonOptions {
  /** A description (shown by `kubectl explain`). */
  readonly description?: string;
  /** Extra schema members merged in last (e.g. `x-kubernetes-validations`). */
  readonly extensions?: Partial<JsonSchema>;
}

const make = <T>(json: JsonSchema, options: CommonOptions = {}): Schema<T> => {
  const { description, extensions } = options;
  return {
    json: { ...json, ...(description ? { description } : {}), ...(extensions ?? {}) },
    optional: false,
  };
};

const pick = <O extends object>(options: O | undefined, keys: readonly (keyof O)[]) => {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (options?.[k] !== undefined) out[k as string] = options[k];
  return out as Partial<JsonSchema>;
};

/** Options of {@link t.string}. */
export interface StringOptions extends CommonOptions {
  /** A regular expression the value must match. */
  readonly pattern?: string;
  /** Least length. */
  readonly minLength?: number;
  /** Greatest length. */
  readonly maxLength?: number;
  /** A format, e.g. `date-time`. */
  readonly format?: string;
  /** The value when absent. */
  readonly default?: string;
}

/** Options of {@link t.integer} and {@link t.number}. */
export interface NumberOptions extends CommonOptions {
  /** Least value. */
  readonly minimum?: number;
  /** Greatest value. */
  readonly maximum?: number;
  /** A format, e.g. `int32`. */
  readonly format?: string;
  /** The value when absent. */
  readonly default?: number;
}

/** Options of {@link t.array}. */
export interface ArrayOptions extends CommonOptions {
  /** Least number of items. */
  readonly minItems?: number;
  /** Greatest number of items. */
  readonly maxItems?: number;
  /** `x-kubernetes-list-type`. */
  readonly listType?: "atomic" | "set" | "map";
  /** `x-kubernetes-list-map-keys` (with `listType: "map"`). */
  readonly listMapKeys?: readonly string[];
}

// The fields every custom resource's root schema has beside its own (see `t.resource`).
const optionalOf = <T>(schema: Schema<T>): OptionalSchema<T> => ({ ...schema, optional: true });
const resourceMeta: {
  readonly apiVersion: OptionalSchema<string>;
  readonly kind: OptionalSchema<string>;
  readonly metadata: OptionalSchema<ObjectOf<Record<never, never>>>;
} = {
  apiVersion: optionalOf(make<string>({ type: "string" })),
  kind: optionalOf(make<string>({ type: "string" })),
  metadata: optionalOf(make<ObjectOf<Record<never, never>>>({ type: "object" })),
};

/**
 * The builders. Each returns a {@link Schema}; compose them, then take `.json` for the CRD
 * and `Infer<typeof schema>` for the type.
 *
 * @example
 * ```ts
 * import { type Infer, t } from "../../mod.ts";
 * const spec = t.object({
 *   replicas: t.optional(t.integer({ minimum: 0, default: 1 })),
 *   mode: t.enumOf(["Fast", "Safe"] as const),
 *   labels: t.optional(t.record(t.string())),
 * });
 * spec.json.required; // ["mode"]
 * const s: Infer<typeof spec> = { mode: "Safe", labels: { app: "web" } };
 * ```
 */
export const t = {
  /** A string. */
  string: (options?: StringOptions): Schema<string> =>
    make(
      {
        type: "string",
        ...pick(options, ["pattern", "minLength", "maxLength", "format", "default"]),
      },
      options,
    ),
  /** One of the given strings. */
  enumOf: <const V extends readonly string[]>(
    values: V,
    options?: CommonOptions & { readonly default?: V[number] },
  ): Schema<V[number]> =>
    make({ type: "string", enum: [...values], ...pick(options, ["default"]) }, options),
  /** An integer (`int64` unless `format` says `int32`). */
  integer: (options?: NumberOptions): Schema<number> =>
    make(
      { type: "integer", ...pick(options, ["minimum", "maximum", "format", "default"]) },
      options,
    ),
  /** A number. */
  number: (options?: NumberOptions): Schema<number> =>
    make(
      { type: "number", ...pick(options, ["minimum", "maximum", "format", "default"]) },
      options,
    ),
  /** A boolean. */
  boolean: (options?: CommonOptions & { readonly default?: boolean }): Schema<boolean> =>
    make({ type: "boolean", ...pick(options, ["default"]) }, options),
  /** A list of items. */
  array: <S extends Schema<unknown>>(items: S, options?: ArrayOptions): Schema<Infer<S>[]> =>
    make(
      {
        type: "array",
        items: items.json,
        ...pick(options, ["minItems", "maxItems"]),
        ...(options?.listType ? { "x-kubernetes-list-type": options.listType } : {}),
        ...(options?.listMapKeys ? { "x-kubernetes-list-map-keys": [...options.listMapKeys] } : {}),
      },
      options,
    ),
  /** A map from strings to values (`additionalProperties`), e.g. labels. */
  record: <S extends Schema<unknown>>(
    values: S,
    options?: CommonOptions,
  ): Schema<Record<string, Infer<S>>> =>
    make({ type: "object", additionalProperties: values.json }, options),
  /** An object with the given fields (required unless {@link t.optional}). */
  object: <P extends Shape>(shape: P, options?: CommonOptions): Schema<ObjectOf<P>> => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [k, s] of Object.entries(shape)) {
      properties[k] = s.json;
      if (!s.optional) required.push(k);
    }
    // An empty shape is a bare `type: object` (what CRDs use for `metadata`).
    return make(
      {
        type: "object",
        ...(required.length + Object.keys(properties).length > 0 ? { properties } : {}),
        ...(required.length > 0 ? { required } : {}),
      },
      options,
    );
  },
  /**
   * A whole custom resource (a CRD's `openAPIV3Schema`): optional `apiVersion`, `kind` and
   * `metadata` (a bare object, as CRDs have it) beside the given fields, e.g.
   * `t.resource({ spec, status: t.optional(status) })`.
   */
  resource: <P extends Shape>(
    fields: P,
    options?: CommonOptions,
  ): Schema<ObjectOf<typeof resourceMeta & P>> => t.object({ ...resourceMeta, ...fields }, options),
  /** An object whose contents the server keeps unvalidated (`x-kubernetes-preserve-unknown-fields`). */
  preserveUnknown: <T = Record<string, unknown>>(options?: CommonOptions): Schema<T> =>
    make({ type: "object", "x-kubernetes-preserve-unknown-fields": true }, options),
  /** Marks a field of {@link t.object} optional. */
  optional: optionalOf,
} as const;
