/**
 * The one map of objects behind a store, with its secondary indexes kept up to date.
 *
 * Private to lib/store: only the fold writes to it, readers see it through `StoreReader`.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { Indexer } from "./indexer.ts";

/**
 * The keys filed under one index value: an array while keys are only added (filing a listed
 * object is an append, not a hash insertion), a set from the first removal of a key from a
 * large one on.
 */
type Keys = ObjectKey[] | Set<ObjectKey>;

interface Index<T> {
  readonly indexer: Indexer<T>;
  /** index value -> keys of the objects filed under it, each once. Empty ones are removed. */
  readonly keysByValue: Map<string, Keys>;
}

/** Arrays up to this length lose a key by search and swap; longer ones become sets. */
const SMALL = 16;

/**
 * What one index filed an object under: the value itself when there is exactly one (the common
 * case: a namespace, a label, an owner), else the indexer's array.
 */
type Filed = string | readonly string[];

/** One stored object and, per index (in index order), what it is filed under. */
type Entry<T> = [T, ...Filed[]];

/**
 * A `Map<ObjectKey, T>` plus one inverted index per indexer.
 *
 * Each entry keeps what its object is filed under, so an update runs the indexers on the new
 * object only and compares with the remembered values: reading the replaced object again (a
 * cold one, long parsed) cost more than keeping one small array per object. Only values that
 * differ touch the inverted index. An update changes its entry in place.
 */
export class IndexedMap<T> {
  readonly #entries = new Map<ObjectKey, Entry<T>>();
  #indexes: Index<T>[] = [];
  readonly #names = new Map<string, Index<T>>();
  #list: readonly T[] | undefined;

  constructor(indexers: Readonly<Record<string, Indexer<T>>>) {
    for (const [name, indexer] of Object.entries(indexers)) this.addIndex(name, indexer);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: ObjectKey): T | undefined {
    return this.#entries.get(key)?.[0];
  }

  has(key: ObjectKey): boolean {
    return this.#entries.has(key);
  }

  keys(): IterableIterator<ObjectKey> {
    return this.#entries.keys();
  }

  /** All objects; the array is cached until the next write. */
  list(): readonly T[] {
    if (this.#list !== undefined) return this.#list;
    const out: T[] = new Array(this.#entries.size);
    let i = 0;
    for (const entry of this.#entries.values()) out[i++] = entry[0];
    return this.#list = Object.freeze(out);
  }

  /** Adds an index (kept as is when the name exists) and files every stored object under it. */
  addIndex(name: string, indexer: Indexer<T>): void {
    if (this.#names.has(name)) return;
    const index: Index<T> = { indexer, keysByValue: new Map() };
    for (const [key, entry] of this.#entries) {
      const now = filed(indexer(entry[0]));
      entry.push(now);
      fileAll(index, now, key);
    }
    this.#names.set(name, index);
    this.#indexes = [...this.#indexes, index];
  }

  indexNames(): string[] {
    return [...this.#names.keys()];
  }

  /** Keys filed under `value` in index `name`; throws for an unknown index (programmer error). */
  indexKeys(name: string, value: string): Iterable<ObjectKey> | undefined {
    return this.#index(name).keysByValue.get(value);
  }

  indexValues(name: string): string[] {
    return [...this.#index(name).keysByValue.keys()];
  }

  /** Stores `obj` under `key`, replacing `old` (which must be what the map holds). */
  set(key: ObjectKey, obj: T, old: T | undefined): void {
    this.#put(key, obj, old === undefined ? undefined : this.#entries.get(key));
  }

  /** Stores `obj` under `key` and returns the object it replaced (one lookup). */
  replace(key: ObjectKey, obj: T): T | undefined {
    const entry = this.#entries.get(key);
    const old = entry?.[0];
    this.#put(key, obj, entry);
    return old;
  }

  #put(key: ObjectKey, obj: T, entry: Entry<T> | undefined): void {
    this.#list = undefined;
    const indexes = this.#indexes;
    if (entry === undefined) {
      // Sized once: an array grown by push would reserve 16 spare slots per entry.
      const created = new Array(indexes.length + 1) as Entry<T>;
      created[0] = obj;
      for (let i = 0; i < indexes.length; i++) {
        const now = filed(indexes[i].indexer(obj));
        created[i + 1] = now;
        fileAll(indexes[i], now, key);
      }
      this.#entries.set(key, created);
      return;
    }
    entry[0] = obj;
    for (let i = 0; i < indexes.length; i++) {
      const before = entry[i + 1] as Filed;
      const now = filed(indexes[i].indexer(obj));
      if (before === now || (typeof before !== "string" && sameValues(before, now))) continue;
      entry[i + 1] = now;
      const was = typeof before === "string" ? [before] : before;
      const is = typeof now === "string" ? [now] : now;
      for (const v of was) if (!is.includes(v)) unfile(indexes[i], v, key);
      for (const v of is) if (!was.includes(v)) file(indexes[i], v, key);
    }
  }

  /** Removes `key`, which holds `old`. */
  delete(key: ObjectKey, _old: T): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#list = undefined;
    const indexes = this.#indexes;
    for (let i = 0; i < indexes.length; i++) {
      const before = entry[i + 1] as Filed;
      if (typeof before === "string") unfile(indexes[i], before, key);
      else for (const v of before) unfile(indexes[i], v, key);
    }
  }

  #index(name: string): Index<T> {
    const index = this.#names.get(name);
    if (index === undefined) {
      const known = [...this.#names.keys()].join(", ") || "none";
      throw new Error(`Cannot look up index "${name}": no such indexer (known: ${known})`);
    }
    return index;
  }
}

function filed(values: readonly string[]): Filed {
  if (values.length === 1) return values[0];
  // Each value once, so that a key is filed once under it.
  for (let i = 1; i < values.length; i++) {
    if (values.lastIndexOf(values[i], i - 1) >= 0) return [...new Set(values)];
  }
  return values;
}

function sameValues(a: readonly string[], b: Filed): boolean {
  if (typeof b === "string" || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function fileAll<T>(index: Index<T>, values: Filed, key: ObjectKey): void {
  if (typeof values === "string") file(index, values, key);
  else for (const v of values) file(index, v, key);
}

/** Files `key` under `value`; the caller guarantees it is not filed there yet. */
function file<T>(index: Index<T>, value: string, key: ObjectKey): void {
  const keys = index.keysByValue.get(value);
  if (keys === undefined) index.keysByValue.set(value, [key]);
  else if (Array.isArray(keys)) keys.push(key);
  else keys.add(key);
}

function unfile<T>(index: Index<T>, value: string, key: ObjectKey): void {
  const keys = index.keysByValue.get(value);
  if (keys === undefined) return;
  if (!Array.isArray(keys)) {
    keys.delete(key);
    if (keys.size === 0) index.keysByValue.delete(value);
  } else if (keys.length > SMALL) {
    const set = new Set(keys);
    set.delete(key);
    index.keysByValue.set(value, set);
  } else {
    const at = keys.indexOf(key);
    if (at < 0) return;
    keys[at] = keys[keys.length - 1];
    keys.pop();
    if (keys.length === 0) index.keysByValue.delete(value);
  }
}
