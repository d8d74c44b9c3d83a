/**
 * The `Indexer` function type.
 *
 * @module
 */

/**
 * The index values of an object: the store files the object's key under each returned value.
 *
 * Like client-go's `IndexFunc`, but pure and infallible: return `[]` when the object has no
 * value for this index. Must depend on the object alone and be cheap; the store calls it on the
 * old and the new object at every update (it keeps no per-object copy of the values).
 *
 * @example
 * ```ts
 * import type { Indexer } from "../../mod.ts";
 * const byNodeName: Indexer<{ spec?: { nodeName?: string } }> = (pod) =>
 *   pod.spec?.nodeName ? [pod.spec.nodeName] : [];
 * byNodeName({ spec: { nodeName: "n1" } }); // ["n1"]
 * ```
 */
export type Indexer<T> = (obj: T) => readonly string[];
