/**
 * `DeepReadonly<T>`: the type of every object a store hands out.
 *
 * @module
 */

/**
 * `T` with every property and array element read-only, recursively.
 *
 * Like TypeScript's `Readonly<T>`, but deep. Store readers and deltas hand out the stored
 * objects themselves (no copies), so the type system is what keeps callers from mutating the
 * cache; the testing kit's `freezeDeep` makes such mutation throw at run time as well.
 *
 * @example
 * ```ts
 * import type { DeepReadonly } from "../../mod.ts";
 * const pod: DeepReadonly<{ metadata: { labels: Record<string, string> } }> = {
 *   metadata: { labels: { app: "web" } },
 * };
 * // pod.metadata.labels.app = "db"; // type error: read-only property
 * ```
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown ? T
  : T extends ReadonlyArray<infer U> ? ReadonlyArray<DeepReadonly<U>>
  : T extends ReadonlyMap<infer K, infer V> ? ReadonlyMap<K, DeepReadonly<V>>
  : T extends ReadonlySet<infer U> ? ReadonlySet<DeepReadonly<U>>
  : T extends object ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
  : T;
