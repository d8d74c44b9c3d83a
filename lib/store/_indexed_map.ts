/**
 * The one map of objects behind a store, with its secondary indexes kept up to date.
 *
 * Private to lib/store: only the fold writes to it, readers see it through `StoreReader`.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { Indexer } from "./indexer.ts";

interface Index<T> {
  readonly indexer: Indexer<T>;
  /** index value -> keys of the objects filed under it. Empty sets are removed. */
  readonly keysByValue: Map<string, Set<ObjectKey>>;
}

/** One stored object and the values its indexers gave it (in the order of `#indexList`). */
interface Entry<T> {
  obj: T;
  readonly values: (readonly string[])[];
}

/**
 * A `Map<ObjectKey, T>` plus one inverted index per indexer.
 *
 * Index maintenance is O(changed index values): each entry keeps the values its indexers gave
 * the stored object, so a write runs the indexers on the new object only, and only values
 * that differ touch the inverted index. Replacing an object updates its entry in place (no
 * map insertion), and a `set` right after a `get` of the same key reuses that lookup.
 */
export class IndexedMap<T> {
  readonly #entries = new Map<ObjectKey, Entry<T>>();
  readonly #indexes = new Map<string, Index<T>>();
  /** The same indexes as an array, in the order of every entry's `values`. */
  #indexList: Index<T>[] = [];
  #list: readonly T[] | undefined;
  /** The last key looked up and its entry: the fold's `get` then `set` hash the key once. */
  #lastKey: ObjectKey | undefined;
  #last: Entry<T> | undefined;

  constructor(indexers: Readonly<Record<string, Indexer<T>>>) {
    for (const [name, indexer] of Object.entries(indexers)) {
      this.#indexes.set(name, { indexer, keysByValue: new Map() });
    }
    this.#indexList = [...this.#indexes.values()];
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: ObjectKey): T | undefined {
    const entry = this.#entries.get(key);
    this.#lastKey = key;
    this.#last = entry;
    return entry?.obj;
  }

  has(key: ObjectKey): boolean {
    return this.#entries.has(key);
  }

  *entries(): IterableIterator<[ObjectKey, T]> {
    for (const [key, entry] of this.#entries) yield [key, entry.obj];
  }

  keys(): ObjectKey[] {
    return [...this.#entries.keys()];
  }

  /** All objects; the array is cached until the next write. */
  list(): readonly T[] {
    if (this.#list === undefined) {
      const out: T[] = [];
      for (const entry of this.#entries.values()) out.push(entry.obj);
      this.#list = Object.freeze(out);
    }
    return this.#list;
  }

  /** Adds an index (kept as is when the name exists) and files every stored object under it. */
  addIndex(name: string, indexer: Indexer<T>): void {
    if (this.#indexes.has(name)) return;
    const index: Index<T> = { indexer, keysByValue: new Map() };
    for (const [key, entry] of this.#entries) {
      const values = indexer(entry.obj);
      entry.values.push(values);
      for (const v of values) file(index, v, key);
    }
    this.#indexes.set(name, index);
    this.#indexList = [...this.#indexes.values()];
  }

  indexNames(): string[] {
    return [...this.#indexes.keys()];
  }

  /** Keys filed under `value` in index `name`; throws for an unknown index (programmer error). */
  indexKeys(name: string, value: string): ReadonlySet<ObjectKey> | undefined {
    return this.#index(name).keysByValue.get(value);
  }

  indexValues(name: string): string[] {
    return [...this.#index(name).keysByValue.keys()];
  }

  /**
   * Stores `obj` under `key`, replacing what the map holds there. `_old` (what the map holds,
   * part of the fold's cache interface) is not needed: the entry remembers its index values.
   */
  set(key: ObjectKey, obj: T, _old?: T): void {
    const entry = key === this.#lastKey ? this.#last : this.#entries.get(key);
    const indexes = this.#indexList;
    this.#list = undefined;
    if (entry === undefined) {
      const values: (readonly string[])[] = new Array(indexes.length);
      for (let i = 0; i < indexes.length; i++) {
        const now = indexes[i].indexer(obj);
        values[i] = now;
        for (const v of now) file(indexes[i], v, key);
      }
      const created: Entry<T> = { obj, values };
      this.#entries.set(key, created);
      this.#lastKey = key;
      this.#last = created;
      return;
    }
    entry.obj = obj;
    const values = entry.values;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i];
      const now = index.indexer(obj);
      const before = values[i];
      if (before === now || sameValues(before, now)) continue;
      for (const v of before) if (!now.includes(v)) unfile(index, v, key);
      for (const v of now) if (!before.includes(v)) file(index, v, key);
      values[i] = now;
    }
  }

  /** Removes `key` (`_old` is what it holds; part of the fold's cache interface). */
  delete(key: ObjectKey, _old?: T): void {
    const entry = this.#entries.get(key);
    this.#lastKey = undefined;
    this.#last = undefined;
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#list = undefined;
    const indexes = this.#indexList;
    for (let i = 0; i < indexes.length; i++) {
      for (const v of entry.values[i]) unfile(indexes[i], v, key);
    }
  }

  #index(name: string): Index<T> {
    const index = this.#indexes.get(name);
    if (index === undefined) {
      const known = [...this.#indexes.keys()].join(", ") || "none";
      throw new Error(`Cannot look up index "${name}": no such indexer (known: ${known})`);
    }
    return index;
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function file<T>(index: Index<T>, value: string, key: ObjectKey): void {
  const keys = index.keysByValue.get(value);
  if (keys === undefined) index.keysByValue.set(value, new Set<ObjectKey>().add(key));
  else keys.add(key);
}

function unfile<T>(index: Index<T>, value: string, key: ObjectKey): void {
  const keys = index.keysByValue.get(value);
  if (keys === undefined) return;
  keys.delete(key);
  if (keys.size === 0) index.keysByValue.delete(value);
}
