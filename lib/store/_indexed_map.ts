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

/**
 * A `Map<ObjectKey, T>` plus one inverted index per indexer.
 *
 * Index maintenance is O(changed index values): on every write the indexer runs on the old and
 * the new object, and only values that differ touch the inverted index (no per-object copy of
 * the values is kept).
 */
export class IndexedMap<T> {
  readonly #objects = new Map<ObjectKey, T>();
  readonly #indexes = new Map<string, Index<T>>();
  #list: readonly T[] | undefined;

  constructor(indexers: Readonly<Record<string, Indexer<T>>>) {
    for (const [name, indexer] of Object.entries(indexers)) {
      this.#indexes.set(name, { indexer, keysByValue: new Map() });
    }
  }

  get size(): number {
    return this.#objects.size;
  }

  get(key: ObjectKey): T | undefined {
    return this.#objects.get(key);
  }

  has(key: ObjectKey): boolean {
    return this.#objects.has(key);
  }

  entries(): IterableIterator<[ObjectKey, T]> {
    return this.#objects.entries();
  }

  keys(): ObjectKey[] {
    return [...this.#objects.keys()];
  }

  /** All objects; the array is cached until the next write. */
  list(): readonly T[] {
    return this.#list ??= Object.freeze([...this.#objects.values()]);
  }

  /** Adds an index (kept as is when the name exists) and files every stored object under it. */
  addIndex(name: string, indexer: Indexer<T>): void {
    if (this.#indexes.has(name)) return;
    const index: Index<T> = { indexer, keysByValue: new Map() };
    for (const [key, obj] of this.#objects) for (const v of indexer(obj)) file(index, v, key);
    this.#indexes.set(name, index);
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

  /** Stores `obj` under `key`, replacing `old` (which must be what the map holds). */
  set(key: ObjectKey, obj: T, old: T | undefined): void {
    this.#objects.set(key, obj);
    this.#list = undefined;
    for (const index of this.#indexes.values()) {
      const now = index.indexer(obj);
      const before = old === undefined ? undefined : index.indexer(old);
      if (before !== undefined) {
        if (sameValues(before, now)) continue;
        for (const v of before) if (!now.includes(v)) unfile(index, v, key);
      }
      for (const v of now) if (before === undefined || !before.includes(v)) file(index, v, key);
    }
  }

  /** Removes `key`, which holds `old`. */
  delete(key: ObjectKey, old: T): void {
    this.#objects.delete(key);
    this.#list = undefined;
    for (const index of this.#indexes.values()) {
      for (const v of index.indexer(old)) unfile(index, v, key);
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
