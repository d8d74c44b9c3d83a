/**
 * `shareManagedFields()`: a transform that keeps each distinct `managedFields[].fieldsV1` tree
 * once, however many cached objects carry it.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";

/** Options of {@link shareManagedFields}. */
export interface ShareManagedFieldsOptions {
  /** Distinct trees remembered; when full, the table starts over (default 4,096). */
  readonly maxShapes?: number;
}

/**
 * Returns a transform that replaces each `fieldsV1` tree by the first equal tree it saw, so
 * that the objects of one workload (whose field sets are usually identical) share one copy.
 * The result is deep-equal to its input; only identity changes.
 *
 * Like interning strings, but for the field-set trees that make up most of a parsed object's
 * heap (a tree of small objects per field costs about 2.5x its JSON). Safe because cached
 * objects are read-only. The table is bounded by `maxShapes`; objects without managed
 * fields, or whose trees are already shared, are returned as they are (no copy).
 *
 * @example
 * ```ts
 * import { shareManagedFields } from "../../mod.ts";
 * const share = shareManagedFields();
 * const pod = (name: string) => ({
 *   metadata: { name, managedFields: [{ manager: "m", fieldsV1: { "f:spec": {} } }] },
 * });
 * const a = share(pod("a")), b = share(pod("b"));
 * a.metadata!.managedFields![0].fieldsV1 === b.metadata!.managedFields![0].fieldsV1; // true
 * ```
 */
export function shareManagedFields<T extends HasMetadata>(
  options: ShareManagedFieldsOptions = {},
): (obj: T) => T {
  const max = options.maxShapes ?? 4096;
  const shapes = new Map<string, unknown>();
  return (obj) => {
    const entries = obj.metadata?.managedFields;
    if (entries === undefined || entries.length === 0) return obj;
    let out: (typeof entries)[number][] | undefined;
    for (let i = 0; i < entries.length; i++) {
      const tree = entries[i].fieldsV1;
      if (tree === null || typeof tree !== "object") continue;
      const key = JSON.stringify(tree);
      let shared = shapes.get(key);
      if (shared === undefined) {
        if (shapes.size >= max) shapes.clear();
        shapes.set(key, tree);
        shared = tree;
      }
      if (shared !== tree) {
        out ??= [...entries];
        out[i] = { ...entries[i], fieldsV1: shared as typeof tree };
      }
    }
    return out === undefined ? obj : { ...obj, metadata: { ...obj.metadata, managedFields: out } };
  };
}
