/**
 * The delta fold: one watch event in, the cache updated and its deltas out.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";
import type { ObjectKey } from "../core/key.ts";
import { keyOfObject as objectKey } from "./_key.ts";
import type { WatchEvent } from "../watch/watch_event.ts";
import type { Delta } from "./delta.ts";

/** The cache the fold writes to: the one map of objects (a store's, or a plain one in tests). */
export interface FoldCache<T> {
  /** Number of objects, when known: an empty cache skips the lookups of a first list. */
  readonly size?: number;
  get(key: ObjectKey): T | undefined;
  /** Stores `obj` under `key`; `old` is what the cache held there (or undefined). */
  set(key: ObjectKey, obj: T, old: T | undefined): void;
  /** Like `get` then `set` in one lookup: stores `obj` and returns what was there. */
  replace?(key: ObjectKey, obj: T): T | undefined;
  /** Removes `key`, which held `old`. */
  delete(key: ObjectKey, old: T): void;
  /** The keys held (a relist reads the objects of the ones missing from the list). */
  keys(): Iterable<ObjectKey>;
}

/** Everything the fold reads and writes; owned by exactly one writer. */
export interface FoldState<T> {
  /** The objects as of the last live event or completed (re)list. */
  readonly cache: FoldCache<T>;
  /** Objects of the (re)list in progress (between `Init` and `InitDone`), else undefined. */
  relist: Map<ObjectKey, T> | undefined;
  /** The last resourceVersion seen: of a list, a bookmark, or a changed object. */
  resourceVersion: string | undefined;
  /** Whether an `InitDone` has been folded. */
  synced: boolean;
}

/** Options of {@link foldWatchEvent}. */
export interface FoldOptions<K, T> {
  /** Applied to every incoming object before it is stored or emitted. Must keep the key and RV. */
  readonly transform: (obj: K) => T;
  /** Receives the deltas, in order, each after the cache already reflects it. */
  readonly emit: (delta: Delta<T>) => void;
}

/**
 * Folds one watch event into `state` and emits the resulting deltas.
 *
 * Like kube-rs `Store::apply_watcher_event` fused with client-go `DeltaFIFO.Replace`, but with
 * an explicit, documented mutation boundary: the fold mutates `state` (its cache, relist buffer,
 * resourceVersion and synced flag) and nothing else, and it emits a delta only after the cache
 * reflects it. The rules:
 *
 * - `Apply`: `Added` for a new key, else `Updated(old, new)` (every live change is emitted).
 * - `Delete`: `Deleted` with the event's object and `finalStateUnknown: false`; a key the cache
 *   does not hold emits nothing.
 * - `Init` starts buffering a (re)list (dropping any unfinished one); `InitApply` buffers an
 *   object, reusing the cached one when its `metadata.resourceVersion` is the same (so the
 *   transform is skipped and no delta follows); `Apply`/`Delete` during a relist edit the buffer.
 * - `InitDone` swaps the buffer in and emits exactly the differences, deletions first:
 *   `Deleted(finalStateUnknown: true)` for cached keys missing from the list, then `Added` /
 *   `Updated` in list order for new or changed (different resourceVersion) objects, then
 *   `Synced`. All of them are emitted after the whole swap, so the cache is never observed
 *   half-relisted. An `InitDone` without `Init` only emits `Synced`.
 * - `Bookmark` records its resourceVersion and emits nothing.
 *
 * @example
 * ```ts
 * import { foldWatchEvent, type FoldState } from "./fold_watch_event.ts";
 * import type { Delta } from "../../mod.ts";
 * type Obj = { metadata: { name: string; resourceVersion?: string } };
 * const map = new Map<string, Obj>();
 * const state: FoldState<Obj> = {
 *   cache: {
 *     get: (k) => map.get(k),
 *     set: (k, o) => void map.set(k, o),
 *     delete: (k) => void map.delete(k),
 *     keys: () => map.keys(),
 *   },
 *   relist: undefined,
 *   resourceVersion: undefined,
 *   synced: false,
 * };
 * const out: Delta<Obj>[] = [];
 * const options = { transform: (o: Obj) => o, emit: (d: Delta<Obj>) => void out.push(d) };
 * foldWatchEvent(state, { type: "Init" }, options);
 * foldWatchEvent(state, { type: "InitApply", object: { metadata: { name: "a" } } }, options);
 * foldWatchEvent(state, { type: "InitDone", resourceVersion: "5" }, options);
 * out.map((d) => d.type); // ["Added", "Synced"]
 * ```
 */
export function foldWatchEvent<K extends HasMetadata, T extends HasMetadata>(
  state: FoldState<T>,
  event: WatchEvent<K>,
  options: FoldOptions<K, T>,
): void {
  switch (event.type) {
    case "Init":
      state.relist = new Map();
      return;
    case "InitApply": {
      const relist = state.relist ??= new Map();
      const key = objectKey(event.object);
      const cached = state.cache.size === 0 ? undefined : state.cache.get(key);
      const unchanged = cached !== undefined && sameVersion(cached, event.object);
      relist.set(key, unchanged ? cached : options.transform(event.object));
      return;
    }
    case "InitDone":
      state.resourceVersion = event.resourceVersion;
      state.synced = true;
      if (state.relist !== undefined) swapIn(state, state.relist, options.emit);
      state.relist = undefined;
      options.emit({ type: "Synced", resourceVersion: event.resourceVersion });
      return;
    case "Apply": {
      const obj = options.transform(event.object);
      const key = objectKey(obj);
      noteVersion(state, obj);
      if (state.relist !== undefined) {
        state.relist.set(key, obj);
        return;
      }
      const cache = state.cache;
      let old: T | undefined;
      if (cache.replace !== undefined) old = cache.replace(key, obj);
      else cache.set(key, obj, old = cache.get(key));
      options.emit(
        old === undefined ? { type: "Added", object: obj } : {
          type: "Updated",
          old,
          object: obj,
        },
      );
      return;
    }
    case "Delete": {
      const key = objectKey(event.object);
      noteVersion(state, event.object);
      if (state.relist !== undefined) {
        state.relist.delete(key);
        return;
      }
      const old = state.cache.get(key);
      if (old === undefined) return;
      state.cache.delete(key, old);
      const object = options.transform(event.object);
      options.emit({ type: "Deleted", object, finalStateUnknown: false });
      return;
    }
    case "Bookmark":
      state.resourceVersion = event.resourceVersion;
      return;
  }
}

function swapIn<T extends HasMetadata>(
  state: FoldState<T>,
  relist: Map<ObjectKey, T>,
  emit: (delta: Delta<T>) => void,
): void {
  const deltas: Delta<T>[] = [];
  const gone: ObjectKey[] = [];
  const empty = state.cache.size === 0;
  if (!empty) { for (const key of state.cache.keys()) if (!relist.has(key)) gone.push(key); }
  for (const key of gone) {
    const old = state.cache.get(key);
    if (old === undefined) continue;
    state.cache.delete(key, old);
    deltas.push({ type: "Deleted", object: old, finalStateUnknown: true });
  }
  for (const [key, obj] of relist) {
    const old = empty ? undefined : state.cache.get(key);
    if (old === obj) continue;
    state.cache.set(key, obj, old);
    deltas.push(
      old === undefined ? { type: "Added", object: obj } : {
        type: "Updated",
        old,
        object: obj,
      },
    );
  }
  for (const delta of deltas) emit(delta);
}

function sameVersion(a: HasMetadata, b: HasMetadata): boolean {
  const rv = b.metadata?.resourceVersion;
  return rv !== undefined && rv !== "" && a.metadata?.resourceVersion === rv;
}

function noteVersion(state: FoldState<unknown>, obj: HasMetadata): void {
  const rv = obj.metadata?.resourceVersion;
  if (rv) state.resourceVersion = rv;
}
