/**
 * What the store knows about its built-in indexers beyond their public signature, kept private
 * to lib/store so that `Indexer` stays a plain function type.
 *
 * - A single-valued indexer has a twin that returns its one value (or `undefined`) without
 *   building an array: an update compares that string with the one remembered.
 * - A key-derived indexer's value follows from the object's key (`byNamespace`: the key is
 *   `namespace/name`), so an update of a stored key never moves it and the store skips it.
 *
 * @module
 */

/** The one value an object is filed under, or `undefined` for none. */
export type SingleValue<T> = (obj: T) => string | undefined;

const singles = new WeakMap<object, SingleValue<never>>();
const keyDerived = new WeakSet<object>();

/**
 * Marks `indexer` as returning at most one value, which `one` returns without an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { singleValueOf, singleValued } from "./_indexer_traits.ts";
 * type Named = { name: string };
 * const byName = singleValued((o: Named) => [o.name], (o: Named) => o.name);
 * assert.equal(singleValueOf(byName)?.({ name: "a" }), "a");
 * ```
 */
export function singleValued<T, I extends (obj: T) => readonly string[]>(
  indexer: I,
  one: SingleValue<T>,
): I {
  singles.set(indexer, one as SingleValue<never>);
  return indexer;
}

/** The single-value twin of `indexer`, if it has one. */
export function singleValueOf<T>(
  indexer: (obj: T) => readonly string[],
): SingleValue<T> | undefined {
  return singles.get(indexer) as SingleValue<T> | undefined;
}

/** Marks `indexer` as a function of the object's key alone. */
export function derivedFromKey<I extends object>(indexer: I): I {
  keyDerived.add(indexer);
  return indexer;
}

/** Whether `indexer`'s value follows from the object's key. */
export function isDerivedFromKey(indexer: object): boolean {
  return keyDerived.has(indexer);
}
