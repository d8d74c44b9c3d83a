/**
 * In-memory object storage with one global, monotonically increasing resourceVersion.
 * Stored objects are never mutated after commit: writers build a new object and commit it,
 * readers may share stored objects without copying.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { utf8Length } from "../core/utf8_length.ts";
import { type StoredEvent, WatchHub } from "./watch_hub.ts";
import type { RestoredObject, StorageJournal } from "./persistence/journal_entry.ts";

/** An object at rest, with its serialization cached. */
export interface Stored {
  readonly object: KubeObject;
  json?: string;
}

/** Serializes a stored object once. */
export function storedJson(s: Stored | StoredEvent): string {
  return s.json ??= JSON.stringify(s.object);
}

class Table {
  readonly items = new Map<string, Stored>();
  sortedKeys: string[] | undefined;

  keys(): string[] {
    return this.sortedKeys ??= [...this.items.keys()].sort();
  }
}

/** Largest object the storage keeps, serialized (etcd's default request limit: 1.5 MiB). */
export const MAX_OBJECT_BYTES = 1_572_864;

/** A write refused because the object is larger than the storage keeps. */
export class ObjectTooLarge extends Error {
  constructor(readonly bytes: number, readonly limit: number) {
    super(`etcdserver: request is too large`);
  }
}

/** UTF-8 length of a string, counted only when it could exceed `limit`. */
function utf8Bytes(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : utf8Length(text);
}

/** Options of {@link ObjectStorage}. */
export interface StorageOptions {
  /** Events kept per resource for resuming watches (default 10,000). */
  readonly historySize?: number;
  /** Serialized bytes of watch history kept over all resources (default 64 MiB). */
  readonly historyBytes?: number;
  /** Events older than this (ms) are forgotten too (default: kept until the bounds above). */
  readonly historyWindowMs?: number;
  /** Clock of the history window (epoch ms; default `Date.now`). */
  readonly now?: () => number;
  /** The first resourceVersion minus one (default 1). */
  readonly initialRv?: number;
  /** Objects to start with (restored from disk; no events, history starts at `initialRv`). */
  readonly restored?: Iterable<RestoredObject>;
  /** Receives every mutation before it is applied (write-ahead log); a throw fails the write. */
  readonly journal?: StorageJournal;
  /** Puts of larger objects (serialized, UTF-8) throw {@link ObjectTooLarge}; 1.5 MiB. */
  readonly maxObjectBytes?: number;
}

/** Objects by storage key and object key, plus the global revision and watch hub. */
export class ObjectStorage {
  #tables = new Map<string, Table>();
  #rv: number;
  readonly hub: WatchHub;
  readonly #journal: StorageJournal | undefined;
  readonly #maxObjectBytes: number;

  constructor(options: StorageOptions = {}) {
    this.#maxObjectBytes = options.maxObjectBytes ?? MAX_OBJECT_BYTES;
    this.#rv = options.initialRv ?? 1;
    this.hub = new WatchHub(options.historySize ?? 10_000, this.#rv, {
      maxBytes: options.historyBytes,
      windowMs: options.historyWindowMs,
      now: options.now,
    });
    this.#journal = options.journal;
    for (const r of options.restored ?? []) {
      this.#table(r.storageKey).items.set(r.key, { object: r.object });
    }
  }

  /** The current global resourceVersion. */
  get rv(): number {
    return this.#rv;
  }

  #table(storageKey: string): Table {
    let t = this.#tables.get(storageKey);
    if (!t) {
      t = new Table();
      this.#tables.set(storageKey, t);
    }
    return t;
  }

  /** The stored object at a key, if any. */
  get(storageKey: string, key: string): Stored | undefined {
    return this.#tables.get(storageKey)?.items.get(key);
  }

  /** Stored objects of a resource in key order, optionally of one namespace. */
  list(storageKey: string, namespace?: string): Stored[] {
    return [...this.scan(storageKey, namespace)];
  }

  /**
   * Stored objects of a resource in key order, lazily, optionally of one namespace and only
   * after a key (for pages of a list: O(log n) to find the start).
   */
  *scan(storageKey: string, namespace?: string, after?: string): Generator<Stored> {
    const t = this.#tables.get(storageKey);
    if (!t) return;
    const keys = t.keys();
    const prefix = namespace === undefined ? "" : `${namespace}/`;
    const from = after !== undefined && after >= prefix ? after : undefined;
    let lo = 0, hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (from !== undefined ? keys[mid] <= from : keys[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < keys.length && keys[i].startsWith(prefix); i++) {
      yield t.items.get(keys[i])!;
    }
  }

  /** Number of objects of a resource. */
  count(storageKey: string): number {
    return this.#tables.get(storageKey)?.items.size ?? 0;
  }

  /**
   * Commits a create or update: stamps the next resourceVersion on `object` (which the caller
   * built fresh and hands over), stores it and publishes the event. The object is serialized
   * once, for the size limit, the log, the watch events and the response.
   *
   * @throws {ObjectTooLarge} when the serialized object exceeds `maxObjectBytes` (nothing
   *   is committed)
   */
  put(storageKey: string, key: string, object: KubeObject): KubeObject {
    const t = this.#table(storageKey);
    const prev = t.items.get(key);
    const rv = this.#rv + 1;
    object.metadata = { ...object.metadata, resourceVersion: String(rv) };
    const json = JSON.stringify(object);
    const bytes = utf8Bytes(json, this.#maxObjectBytes);
    if (bytes > this.#maxObjectBytes) throw new ObjectTooLarge(bytes, this.#maxObjectBytes);
    this.#journal?.append({ type: "put", rv, storageKey, key, object }, json);
    this.#rv = rv;
    const stored: Stored = { object, json };
    if (!prev) t.sortedKeys = undefined;
    t.items.set(key, stored);
    const event: StoredEvent = prev
      ? { rv, type: "MODIFIED", storageKey, object, prev: prev.object, json }
      : { rv, type: "ADDED", storageKey, object, json };
    this.hub.publish(event);
    return object;
  }

  /** Removes an object; the DELETED event carries its last state with the deletion rv. */
  remove(storageKey: string, key: string): KubeObject | undefined {
    const t = this.#tables.get(storageKey);
    const prev = t?.items.get(key);
    if (!t || !prev) return undefined;
    const rv = this.#rv + 1;
    this.#journal?.append({ type: "remove", rv, storageKey, key });
    this.#rv = rv;
    t.items.delete(key);
    t.sortedKeys = undefined;
    const object = {
      ...prev.object,
      metadata: { ...prev.object.metadata, resourceVersion: String(rv) },
    };
    this.hub.publish({ rv, type: "DELETED", storageKey, object, prev: prev.object });
    return object;
  }

  /** Drops a whole resource's table without events (used when its CRD is gone). */
  dropTable(storageKey: string): void {
    if (this.#tables.has(storageKey)) this.#journal?.append({ type: "drop", storageKey });
    this.#tables.delete(storageKey);
  }
}
