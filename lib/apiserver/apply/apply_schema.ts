/**
 * `ApplySchema`: what server-side apply needs to know about an object's shape: which objects
 * merge field by field (granular) and which are replaced whole (atomic), and how lists merge
 * (`x-kubernetes-list-type`: `map` keyed by `x-kubernetes-list-map-keys`, `set`, `atomic`).
 *
 * Unlike strategic merge patch's {@link import("../patch/merge_schema.ts").MergeSchema},
 * list-map keys may be compound (container ports are keyed by `containerPort` + `protocol`),
 * key fields may have defaults, and maps can be atomic or carry a schema for every value.
 * Anything the schema does not describe is deduced from the value: objects are granular,
 * lists atomic.
 *
 * @module
 */
import type { Json } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";

/** An object merged field by field; `fields` by name, `elements` for any other key. */
export interface StructApplySchema {
  readonly type: "struct";
  readonly fields?: Readonly<Record<string, ApplySchema>>;
  readonly elements?: ApplySchema;
}

/** A value replaced whole: scalars, atomic lists, atomic maps (`x-kubernetes-map-type: atomic`). */
export interface AtomicApplySchema {
  readonly type: "atomic";
}

/** A list of objects merged item by item, identified by `keys` (`x-kubernetes-list-type: map`). */
export interface ListMapApplySchema {
  readonly type: "listMap";
  readonly keys: readonly string[];
  /** Values of key fields an item may omit (e.g. `protocol: "TCP"` for ports). */
  readonly keyDefaults?: Readonly<Record<string, Json>>;
  readonly items?: StructApplySchema;
}

/** A list of scalars merged as a set (`x-kubernetes-list-type: set`). */
export interface ListSetApplySchema {
  readonly type: "listSet";
}

/**
 * The merge semantics of one value in an applied object.
 *
 * @example
 * ```ts
 * import type { ApplySchema } from "./apply_schema.ts";
 * const schema: ApplySchema = {
 *   type: "struct",
 *   fields: { spec: { type: "struct", fields: { hosts: { type: "listSet" } } } },
 * };
 * ```
 */
export type ApplySchema =
  | StructApplySchema
  | AtomicApplySchema
  | ListMapApplySchema
  | ListSetApplySchema;

/** The atomic schema (a value replaced whole). */
export const atomic: AtomicApplySchema = { type: "atomic" };

/** A list of scalars merged as a set. */
export const listSet: ListSetApplySchema = { type: "listSet" };

/**
 * A granular struct schema.
 *
 * @example
 * ```ts
 * import { listSet, struct } from "./apply_schema.ts";
 * const meta = struct({ finalizers: listSet });
 * ```
 */
export function struct(
  fields: Readonly<Record<string, ApplySchema>> = {},
  elements?: ApplySchema,
): StructApplySchema {
  return elements ? { type: "struct", fields, elements } : { type: "struct", fields };
}

/**
 * A list-map schema keyed by `keys`.
 *
 * @example
 * ```ts
 * import { listMap } from "./apply_schema.ts";
 * const ports = listMap(["containerPort", "protocol"], undefined, { protocol: "TCP" });
 * ```
 */
export function listMap(
  keys: readonly string[],
  items?: StructApplySchema,
  keyDefaults?: Readonly<Record<string, Json>>,
): ListMapApplySchema {
  return {
    type: "listMap",
    keys,
    ...(items ? { items } : {}),
    ...(keyDefaults ? { keyDefaults } : {}),
  };
}

/**
 * The schema of field `name` of a struct schema (`undefined`: deduce from the value).
 *
 * @example
 * ```ts
 * import { fieldApplySchema, listSet, struct } from "./apply_schema.ts";
 * fieldApplySchema(struct({ finalizers: listSet }), "finalizers"); // listSet
 * ```
 */
export function fieldApplySchema(
  schema: ApplySchema | undefined,
  name: string,
): ApplySchema | undefined {
  if (schema?.type !== "struct") return undefined;
  const f = schema.fields;
  if (f && Object.prototype.hasOwnProperty.call(f, name)) return f[name];
  return schema.elements;
}

/** How a value is walked: a granular object, a list map, a set, or a leaf (replaced whole). */
export type ValueShape = "struct" | "listMap" | "listSet" | "leaf";

/**
 * How a value is treated under a schema; a value whose JSON type does not fit is a leaf.
 *
 * @example
 * ```ts
 * import { shapeOf } from "./apply_schema.ts";
 * shapeOf(undefined, { a: 1 }); // "struct"
 * shapeOf(undefined, [1]); // "leaf"
 * ```
 */
export function shapeOf(schema: ApplySchema | undefined, value: unknown): ValueShape {
  const type = schema?.type ?? (isPlainObject(value) ? "struct" : "atomic");
  switch (type) {
    case "struct":
      return isPlainObject(value) ? "struct" : "leaf";
    case "listMap":
      return Array.isArray(value) ? "listMap" : "leaf";
    case "listSet":
      return Array.isArray(value) ? "listSet" : "leaf";
    case "atomic":
      return "leaf";
  }
}
