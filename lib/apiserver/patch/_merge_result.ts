/**
 * Internal: the result values shared by the strategic merge patch recursion (an expected
 * failure, the "delete this field" marker) and its small path/object helpers.
 *
 * @module
 */
import type { JsonObject } from "../../core/object.ts";
import type { StructSchema } from "./merge_schema.ts";
import { copyObject } from "./_json.ts";

/**
 * An expected failure inside the recursion; turned into a `PatchError` at the boundary.
 *
 * @example
 * ```ts
 * import { Fail } from "./_merge_result.ts";
 * new Fail("unknown directive at spec").message; // "unknown directive at spec"
 * ```
 */
export class Fail {
  /** @param message what is wrong, naming the field. */
  constructor(readonly message: string) {}
}

/**
 * Marker returned for a map patched with `{"$patch":"delete"}`: the field is removed.
 *
 * @example
 * ```ts
 * import { DELETE, type Merged } from "./_merge_result.ts";
 * const r: Merged = DELETE;
 * r === DELETE; // true
 * ```
 */
export const DELETE: unique symbol = Symbol("delete");

/**
 * The outcome of merging one map: the merged map, a failure, or {@link DELETE}.
 *
 * @example
 * ```ts
 * import { DELETE, Fail, type Merged } from "./_merge_result.ts";
 * const outcomes: Merged[] = [{ a: 1 }, new Fail("bad"), DELETE];
 * ```
 */
export type Merged = JsonObject | Fail | typeof DELETE;

/**
 * The map merge the list strategies recurse into (passed in to avoid an import cycle).
 *
 * @example
 * ```ts
 * import type { MergeObject } from "./_merge_result.ts";
 * const replaceOnly: MergeObject = (_orig, patch) => patch;
 * ```
 */
export type MergeObject = (
  orig: JsonObject | undefined,
  patch: JsonObject,
  schema: StructSchema | undefined,
  path: string,
) => Merged;

/**
 * The dotted path of field `key` under `path` (`""` is the root).
 *
 * @example
 * ```ts
 * import { at } from "./_merge_result.ts";
 * at("", "spec"); // "spec"
 * at("spec", "replicas"); // "spec.replicas"
 * ```
 */
export function at(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

/**
 * A shallow copy of `obj` without `key` (prototype-safe).
 *
 * @example
 * ```ts
 * import { without } from "./_merge_result.ts";
 * without({ $patch: "merge", a: 1 }, "$patch"); // { a: 1 }
 * ```
 */
export function without(obj: JsonObject, key: string): JsonObject {
  const out = copyObject(obj);
  delete out[key];
  return out;
}
