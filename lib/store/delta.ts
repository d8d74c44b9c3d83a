/**
 * The `Delta` union: what changed in a cache, as folded from watch events.
 *
 * @module
 */

/**
 * One change to a cache of objects.
 *
 * Like client-go's `Delta` (Added/Updated/Deleted/Sync), but with `Updated` carrying the old
 * object, `Deleted` saying whether its object is the final state (`finalStateUnknown: false`, from
 * a watch `DELETED`) or the last state the cache saw (`true`, the object vanished while the watch
 * was disconnected and a relist found it gone), and `Synced` marking the end of every (re)list.
 *
 * - `Added`: a key the cache did not hold now holds `object`.
 * - `Updated`: the key of `object` held `old` and now holds `object`.
 * - `Deleted`: the key of `object` is no longer held.
 * - `Synced`: a (re)list at `resourceVersion` is complete; the cache equals that list.
 *
 * @example
 * ```ts
 * import type { Delta } from "../../mod.ts";
 * function describe(d: Delta<{ metadata?: { name?: string } }>): string {
 *   switch (d.type) {
 *     case "Added":
 *       return `+${d.object.metadata?.name}`;
 *     case "Updated":
 *       return `~${d.object.metadata?.name}`;
 *     case "Deleted":
 *       return `-${d.object.metadata?.name}${d.finalStateUnknown ? "?" : ""}`;
 *     case "Synced":
 *       return `synced@${d.resourceVersion}`;
 *   }
 * }
 * describe({ type: "Synced", resourceVersion: "7" }); // "synced@7"
 * ```
 */
export type Delta<T> =
  | { readonly type: "Added"; readonly object: T }
  | { readonly type: "Updated"; readonly old: T; readonly object: T }
  | { readonly type: "Deleted"; readonly object: T; readonly finalStateUnknown: boolean }
  | { readonly type: "Synced"; readonly resourceVersion: string };
