/**
 * The one map of objects behind a store, with its secondary indexes kept up to date.
 *
 * Private to lib/store: only the fold writes to it, readers see it through `StoreReader`.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { Indexer } from "./indexer.ts";
import { isDerivedFromKey, type SingleValue, singleValueOf } from "./_indexer_traits.ts";

/**
 * The keys filed under one index value: an array while keys are only added (filing a listed
 * object is an append, not a hash insertion), a set from the first removal of a key from a
 * large one on.
 */
type Keys = ObjectKey[] | Set<ObjectKey>;

/**
 * One index value and its keys. Entries keep `value` — one string per value, shared — instead
 * of the string their object held: an update compares against a string read moments ago by
 * every object filed under it, not one parsed with an object long gone cold.
 */
interface Bucket {
  readonly value: string;
  keys: Keys;
}

interface Index<T> {
  readonly indexer: Indexer<T>;
  /** The built-in indexers' array-free twin (see _indexer_traits.ts). */
  readonly one: SingleValue<T> | undefined;
  /** The value follows from the key: an update of a stored key leaves it where it is. */
  readonly fixed: boolean;
  /** index value -> the keys of the objects filed under it, each once. Empty ones are removed. */
  readonly keysByValue: Map<string, Bucket>;
}

/** Arrays up to this length lose a key by search and swap; longer ones become sets. */
const SMALL = 16;

/**
 * What one index filed an object under: the value itself when there is exactly one (the common
 * case: a namespace, a label, an owner), else the indexer's array.
 */
type Filed = string | readonly string[];

/** Filed under no value. */
const NONE: readonly string[] = Object.freeze([]);

/** What `index` files `obj` under. */
function filedBy<T>(index: Index<T>, obj: T): Filed {
  return index.one !== undefined ? index.one(obj) ?? NONE : filed(index.indexer(obj));
}

/** One stored object and, per index (in index order), what it is filed under. */
type Entry<T> = [T, ...Filed[]];

/**
 * A `Map<ObjectKey, T>` plus one inverted index per indexer.
 *
 * Each entry keeps what its object is filed under, so an update runs the indexers on the new
 * object only and compares with the remembered values: reading the replaced object again (a
 * cold one, long parsed) cost more than keeping one small array per object. Only values that
 * differ touch the inverted index. An update changes its entry in place.
 *
 * Keys are the objects' own keys (`namespace/name`, as the fold files them), so an index whose
 * value follows from the key (`byNamespace`) is not looked at again on an update.
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
    const index: Index<T> = {
      indexer,
      one: singleValueOf(indexer),
      fixed: isDerivedFromKey(indexer),
      keysByValue: new Map(),
    };
    for (const [key, entry] of this.#entries) {
      entry.push(fileAll(index, filedBy(index, entry[0]), key));
    }
    this.#names.set(name, index);
    this.#indexes = [...this.#indexes, index];
  }

  indexNames(): string[] {
    return [...this.#names.keys()];
  }

  /** Keys filed under `value` in index `name`; throws for an unknown index (programmer error). */
  indexKeys(name: string, value: string): Iterable<ObjectKey> | undefined {
    return this.#index(name).keysByValue.get(value)?.keys;
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
        created[i + 1] = fileAll(indexes[i], filedBy(indexes[i], obj), key);
      }
      this.#entries.set(key, created);
      return;
    }
    entry[0] = obj;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i];
      if (index.fixed) continue;
      const before = entry[i + 1] as Filed;
      let now: Filed;
      if (index.one !== undefined) {
        const value = index.one(obj);
        if (
          value === undefined ? typeof before !== "string" && before.length === 0 : before === value
        ) {
          continue;
        }
        now = value ?? NONE;
      } else {
        now = filed(index.indexer(obj));
        if (before === now || (typeof before !== "string" && sameValues(before, now))) continue;
      }
      const was = typeof before === "string" ? [before] : before;
      const is = typeof now === "string" ? [now] : now;
      for (const v of was) if (!is.includes(v)) unfile(index, v, key);
      for (const v of is) if (!was.includes(v)) file(index, v, key);
      entry[i + 1] = typeof now === "string" ? index.keysByValue.get(now)?.value ?? now : now;
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

/** Files `key` under each of `values`; returns what the entry keeps (the shared string). */
function fileAll<T>(index: Index<T>, values: Filed, key: ObjectKey): Filed {
  if (typeof values === "string") return file(index, values, key);
  for (const v of values) file(index, v, key);
  return values;
}

/** Files `key` under `value`; returns the index's one string for `value`. */
function file<T>(index: Index<T>, value: string, key: ObjectKey): string {
  const bucket = index.keysByValue.get(value);
  if (bucket === undefined) {
    index.keysByValue.set(value, { value, keys: [key] });
    return value;
  }
  const keys = bucket.keys;
  if (Array.isArray(keys)) keys.push(key);
  else keys.add(key);
  return bucket.value;
}

function unfile<T>(index: Index<T>, value: string, key: ObjectKey): void {
  const bucket = index.keysByValue.get(value);
  if (bucket === undefined) return;
  const keys = bucket.keys;
  if (!Array.isArray(keys)) {
    keys.delete(key);
    if (keys.size === 0) index.keysByValue.delete(value);
  } else if (keys.length > SMALL) {
    const set = new Set(keys);
    set.delete(key);
    bucket.keys = set;
  } else {
    const at = keys.indexOf(key);
    if (at < 0) return;
    keys[at] = keys[keys.length - 1];
    keys.pop();
    if (keys.length === 0) index.keysByValue.delete(value);
  }
}
