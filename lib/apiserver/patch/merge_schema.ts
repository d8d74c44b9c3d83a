/**
 * `MergeSchema`: the per-field list strategies strategic merge patch needs, as a small tree
 * (the `patchStrategy` / `patchMergeKey` struct tags of the Go API types).
 *
 * Fields the schema does not mention get the default behaviour: objects merge key by key,
 * lists are replaced wholesale.
 *
 * @module
 */

/** A struct (or map): fields with non-default strategies, optionally `retainKeys`. */
export interface StructSchema {
  readonly type: "struct";
  readonly fields: Readonly<Record<string, MergeSchema>>;
  /**
   * `patchStrategy: retainKeys` (e.g. Deployment `spec.strategy`, Pod `spec.volumes[]`).
   * Informational when applying: a `$retainKeys` directive is honoured wherever it appears,
   * as in kube-apiserver; patch generators use this flag to decide when to send one.
   */
  readonly retainKeys?: boolean;
}

/** A list of objects merged item by item, matched on `mergeKey` (`patchStrategy: merge`). */
export interface KeyedListSchema {
  readonly type: "keyedList";
  readonly mergeKey: string;
  readonly items: StructSchema;
}

/** A list of primitives merged as a set (`patchStrategy: merge` on `[]string`). */
export interface SetListSchema {
  readonly type: "setList";
}

/** A list replaced wholesale (the default, or `patchStrategy: replace`). */
export interface AtomicListSchema {
  readonly type: "atomicList";
}

/**
 * The merge metadata of one field.
 *
 * @example
 * ```ts
 * import type { MergeSchema } from "./merge_schema.ts";
 * const meta: MergeSchema = {
 *   type: "struct",
 *   fields: { finalizers: { type: "setList" } },
 * };
 * ```
 */
export type MergeSchema = StructSchema | KeyedListSchema | SetListSchema | AtomicListSchema;

/**
 * Builds a struct schema.
 *
 * @example
 * ```ts
 * import { structSchema, setList } from "./merge_schema.ts";
 * const meta = structSchema({ finalizers: setList });
 * const strategy = structSchema({}, { retainKeys: true });
 * ```
 */
export function structSchema(
  fields: Readonly<Record<string, MergeSchema>>,
  options: { readonly retainKeys?: boolean } = {},
): StructSchema {
  return options.retainKeys
    ? { type: "struct", fields, retainKeys: true }
    : { type: "struct", fields };
}

/**
 * Builds a keyed-list schema (`patchStrategy: merge`, `patchMergeKey: mergeKey`).
 *
 * @example
 * ```ts
 * import { keyedList } from "./merge_schema.ts";
 * const env = keyedList("name");
 * ```
 */
export function keyedList(mergeKey: string, items: StructSchema = emptyStruct): KeyedListSchema {
  return { type: "keyedList", mergeKey, items };
}

/** A struct with default behaviour for every field. */
export const emptyStruct: StructSchema = { type: "struct", fields: {} };

/** A primitive list merged as a set. */
export const setList: SetListSchema = { type: "setList" };

/** A list replaced wholesale. */
export const atomicList: AtomicListSchema = { type: "atomicList" };

/**
 * The schema of field `name` inside `schema`, or `undefined` (default behaviour).
 *
 * @example
 * ```ts
 * import { fieldSchema, setList, structSchema } from "./merge_schema.ts";
 * fieldSchema(structSchema({ finalizers: setList }), "finalizers"); // setList
 * ```
 */
export function fieldSchema(
  schema: StructSchema | undefined,
  name: string,
): MergeSchema | undefined {
  if (schema === undefined || !Object.prototype.hasOwnProperty.call(schema.fields, name)) {
    return undefined;
  }
  return schema.fields[name];
}
