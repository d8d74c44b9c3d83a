/**
 * `applyDelta()`: replays a delta onto a plain map.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";
import type { ObjectKey } from "../core/key.ts";
import { keyOfObject as objectKey } from "./_key.ts";
import type { Delta } from "./delta.ts";

/**
 * Applies one delta to `map` (mutating it) and returns the map.
 *
 * Like folding client-go `Delta`s into a `cache.Store`, but on any plain `Map`: the way to keep
 * a secondary cache (or a test model) in step with a delta stream. `Synced` changes nothing.
 *
 * @example
 * ```ts
 * import { applyDelta } from "./apply_delta.ts";
 * const map = new Map<string, { metadata: { name: string } }>();
 * applyDelta(map, { type: "Added", object: { metadata: { name: "a" } } });
 * map.has("a"); // true
 * applyDelta(map, { type: "Deleted", object: { metadata: { name: "a" } }, finalStateUnknown: true });
 * map.size; // 0
 * ```
 */
export function applyDelta<T extends HasMetadata>(
  map: Map<ObjectKey, T>,
  delta: Delta<T>,
): Map<ObjectKey, T> {
  switch (delta.type) {
    case "Added":
    case "Updated":
      map.set(objectKey(delta.object), delta.object);
      return map;
    case "Deleted":
      map.delete(objectKey(delta.object));
      return map;
    case "Synced":
      return map;
  }
}
