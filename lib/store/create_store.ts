/**
 * `createStore()`: the indexed cache of one resource, split into a reader and one writer.
 *
 * ## Why one map
 * The delta fold needs the previous state of every object (to emit `Updated(old, new)` and to
 * find what vanished during a relist), and the store needs the current state. Both are the same
 * map, so there is exactly one: the store *is* the fold's state. The writer owns it and folds
 * watch events into it ({@link foldWatchEvent}); deltas are what the writer emits while doing
 * so, and they carry the very objects the store holds. Nothing is copied per event: an object
 * parsed off the wire is transformed (optionally), stored, indexed and emitted by reference.
 * Relists buffer the listed objects and reuse the cached object when the resourceVersion is
 * unchanged, so an unchanged relist costs one map entry per object and emits nothing.
 *
 * ## Guarantees
 * - The reader always reflects every delta emitted so far (the store is written first).
 * - The reader never observes a half-applied relist.
 * - Indexes always equal a recomputation of the indexers over `list()`.
 *
 * ## Assumptions and caveats
 * - Stored objects are shared, not copied: the reader's types are `DeepReadonly`, and nothing
 *   stops a cast from mutating them (the testing kit's `freezeDeep` transform makes that throw).
 * - Transforms must keep `metadata.name`, `namespace` and `resourceVersion`.
 * - Only the writer's holder may write; `writer.apply` is not re-entrant.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";
import type { ObjectKey } from "../core/key.ts";
import type { WatchEvent } from "../watch/watch_event.ts";
import { type Observable, ReplaySubject } from "../deps.ts";
import type { Delta } from "./delta.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { Indexer } from "./indexer.ts";
import { IndexedMap } from "./_indexed_map.ts";
import { type FoldOptions, type FoldState, foldWatchEvent } from "./fold_watch_event.ts";
import { shareManagedFields } from "./share_managed_fields.ts";

/** Read-only view of a store. Every object returned is the stored one, typed read-only. */
export interface StoreReader<T> {
  /** The object under `key` (`namespace/name` or `name`). */
  get(key: ObjectKey): DeepReadonly<T> | undefined;
  /** All objects, in insertion order; the same array until the next write. */
  list(): readonly DeepReadonly<T>[];
  /** All keys. */
  keys(): readonly ObjectKey[];
  /** The objects filed under `value` in index `indexName`; throws for an unknown index. */
  byIndex(indexName: string, value: string): readonly DeepReadonly<T>[];
  /** The keys filed under `value` in index `indexName`; throws for an unknown index. */
  keysByIndex(indexName: string, value: string): readonly ObjectKey[];
  /** The values present in index `indexName`; throws for an unknown index. */
  indexValues(indexName: string): readonly string[];
  /** Number of objects. */
  readonly size: number;
  /** The last resourceVersion seen (list, bookmark or changed object). */
  readonly resourceVersion: string | undefined;
  /** Whether the first list has completed. */
  hasSynced(): boolean;
  /** Emits once and completes when the first list has completed (at once if it has). */
  readonly synced$: Observable<void>;
}

/** The one writer of a store: folds watch events into it and returns the deltas. */
export interface StoreWriter<K, T> {
  /** Folds `event` into the store and returns the deltas it caused (often none or one). */
  apply(event: WatchEvent<K>): readonly Delta<DeepReadonly<T>>[];
  /** Like `apply`, but hands each delta to `emit` without allocating an array. */
  applyTo(event: WatchEvent<K>, emit: (delta: Delta<DeepReadonly<T>>) => void): void;
  /** The read-only view of this store. */
  readonly reader: StoreReader<T>;
  /** Adds indexes (names already present are kept) and files the stored objects under them. */
  addIndexers(indexers: Readonly<Record<string, Indexer<DeepReadonly<T>>>>): void;
}

/** Options of {@link createStore}. */
export interface StoreOptions<K, T> {
  /** Named index functions (default none), e.g. `{ namespace: byNamespace }`. */
  readonly indexers?: Readonly<Record<string, Indexer<DeepReadonly<T>>>>;
  /** Applied to each incoming object before it is stored (default: none), e.g. `stripManagedFields`. */
  readonly transform?: (obj: K) => T;
  /**
   * Keep each distinct `managedFields[].fieldsV1` tree once, shared by every stored object that
   * carries it (see `shareManagedFields`); applied after `transform`. Default false: it saves
   * heap (about a fifth of a cached pod) but serializes every tree of every event, which costs
   * about a quarter of parsing the event; a controller that never reads managed fields saves
   * more with `transform: stripManagedFields`, at no CPU cost.
   */
  readonly shareManagedFields?: boolean;
}

/**
 * Creates an indexed store folded from watch events: `{ reader, writer }`.
 *
 * Like client-go's `Indexer` + `DeltaFIFO` and kube-rs's `reflector::store()`, but the delta
 * fold and the store share one map of objects (see the module doc), and readers get
 * `DeepReadonly` views of the stored objects instead of copies.
 *
 * @example
 * ```ts
 * import { byNamespace, createStore, type KubeObject, stripManagedFields } from "../../mod.ts";
 * const { reader, writer } = createStore<KubeObject>({
 *   indexers: { namespace: byNamespace },
 *   transform: stripManagedFields,
 * });
 * writer.apply({ type: "Init" });
 * writer.apply({ type: "InitApply", object: { metadata: { namespace: "a", name: "x" } } });
 * writer.apply({ type: "InitDone", resourceVersion: "1" }); // [Added x, Synced "1"]
 * reader.byIndex("namespace", "a").length; // 1
 * reader.get("a/x")?.metadata?.name; // "x"
 * ```
 */
export function createStore<T extends HasMetadata, K extends HasMetadata = T>(
  options: StoreOptions<K, T> = {},
): { reader: StoreReader<T>; writer: StoreWriter<K, T> } {
  type R = DeepReadonly<T>;
  const map = new IndexedMap<R>(options.indexers ?? {});
  const state: FoldState<R> = {
    cache: map,
    relist: undefined,
    resourceVersion: undefined,
    synced: false,
  };
  // Without a transform K is T (its default): the identity is sound, so one cast from unknown.
  const own: (obj: K) => T = options.transform ?? ((o: unknown) => o as T);
  const share = options.shareManagedFields === true ? shareManagedFields<T>() : undefined;
  const transform = (share ? (o: K) => share(own(o)) : own) as (obj: K) => R;
  const synced = new ReplaySubject<void>(1);
  const syncedObservable: Observable<void> = synced.asObservable();

  const objectsOf = (keys: Iterable<ObjectKey> | undefined): R[] => {
    const out: R[] = [];
    if (keys !== undefined) { for (const k of keys) out.push(map.get(k) as R); }
    return out;
  };

  const reader: StoreReader<T> = {
    get: (key) => map.get(key),
    list: () => map.list(),
    keys: () => [...map.keys()],
    byIndex: (name, value) => objectsOf(map.indexKeys(name, value)),
    keysByIndex: (name, value) => [...(map.indexKeys(name, value) ?? [])],
    indexValues: (name) => map.indexValues(name),
    get size() {
      return map.size;
    },
    get resourceVersion() {
      return state.resourceVersion;
    },
    hasSynced: () => state.synced,
    synced$: syncedObservable,
  };

  // One options object per distinct `emit` (reflect passes the same one for every event).
  let foldOptions: FoldOptions<K, R & HasMetadata> | undefined;
  const applyTo = (event: WatchEvent<K>, emit: (delta: Delta<R>) => void): void => {
    const wasSynced = state.synced;
    if (foldOptions === undefined || foldOptions.emit !== emit) {
      foldOptions = { transform: transform as (obj: K) => R & HasMetadata, emit };
    }
    foldWatchEvent<K, R & HasMetadata>(state as FoldState<R & HasMetadata>, event, foldOptions);
    if (!wasSynced && state.synced) {
      synced.next();
      synced.complete();
    }
  };

  const writer: StoreWriter<K, T> = {
    apply: (event) => {
      const out: Delta<R>[] = [];
      applyTo(event, (d) => void out.push(d));
      return out;
    },
    applyTo,
    reader,
    addIndexers: (indexers) => {
      for (const [name, indexer] of Object.entries(indexers)) map.addIndex(name, indexer);
    },
  };
  return { reader, writer };
}
