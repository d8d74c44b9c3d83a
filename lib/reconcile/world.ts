/**
 * `World`: the read-only view of the cache a reconciler sees, over a store or over a list.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import { objectKey } from "../core/key.ts";
import type { KubeObject } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Indexer } from "../store/indexer.ts";
import type { StoreReader } from "../store/create_store.ts";
import { byControllerOwnerUid } from "../store/by_controller_owner_uid.ts";
import { isControlledBy } from "./owner_reference.ts";

/**
 * A read-only view of the cached objects of one kind.
 *
 * Like a `StoreReader`, narrowed to what a reconciler needs, plus `ownedBy`.
 */
export interface World<T> {
  /** The object under `key` (`namespace/name` or `name`). */
  get(key: ObjectKey): DeepReadonly<T> | undefined;
  /** All objects. */
  list(): readonly DeepReadonly<T>[];
  /** The objects filed under `value` in index `indexName`; throws for an unknown index. */
  byIndex(indexName: string, value: string): readonly DeepReadonly<T>[];
  /** The objects whose controller owner reference has uid `ownerUid`. */
  ownedBy(ownerUid: string): readonly DeepReadonly<T>[];
}

/** Options of {@link worldFromStore}. */
export interface WorldFromStoreOptions {
  /** The store's index filed by `byControllerOwnerUid` (default `"controller"`). */
  readonly ownerIndex?: string;
}

/**
 * A {@link World} over a store reader; `ownedBy` reads the controller-owner index.
 *
 * @example
 * ```ts
 * import { byControllerOwnerUid, createStore, type KubeObject, worldFromStore } from "../../mod.ts";
 * const { reader } = createStore<KubeObject>({ indexers: { controller: byControllerOwnerUid } });
 * worldFromStore(reader).ownedBy("u1"); // []
 * ```
 */
export function worldFromStore<T extends HasMetadata>(
  reader: StoreReader<T>,
  options: WorldFromStoreOptions = {},
): World<T> {
  const ownerIndex = options.ownerIndex ?? "controller";
  return {
    get: (key) => reader.get(key),
    list: () => reader.list(),
    byIndex: (name, value) => reader.byIndex(name, value),
    ownedBy: (uid) => reader.byIndex(ownerIndex, uid).filter((o) => isControlledBy(o, uid)),
  };
}

/** Options of {@link worldFromObjects}. */
export interface WorldFromObjectsOptions<T> {
  /** Named index functions (default none; `ownedBy` needs none). */
  readonly indexers?: Readonly<Record<string, Indexer<DeepReadonly<T>>>>;
}

/**
 * A {@link World} over a plain list of objects (tests, examples, one-off tools).
 *
 * @example
 * ```ts
 * import { worldFromObjects } from "../../mod.ts";
 * const w = worldFromObjects([
 *   { metadata: { namespace: "d", name: "p", ownerReferences: [{ apiVersion: "v1", kind: "X", name: "x", uid: "u1", controller: true }] } },
 * ]);
 * w.ownedBy("u1").length; // 1
 * w.get("d/p")?.metadata?.name; // "p"
 * ```
 */
export function worldFromObjects<T extends HasMetadata>(
  objects: readonly DeepReadonly<T>[],
  options: WorldFromObjectsOptions<T> = {},
): World<T> {
  const byKey = new Map<ObjectKey, DeepReadonly<T>>();
  for (const o of objects) byKey.set(objectKey(o as KubeObject), o);
  const all = [...byKey.values()];
  const indexers = options.indexers ?? {};
  return {
    get: (key) => byKey.get(key),
    list: () => all,
    byIndex: (name, value) => {
      const index = Object.prototype.hasOwnProperty.call(indexers, name)
        ? indexers[name]
        : undefined;
      if (index === undefined) throw new Error(`Cannot read index ${name}: no such index`);
      return all.filter((o) => index(o).includes(value));
    },
    ownedBy: (uid) => all.filter((o) => byControllerOwnerUid(o).includes(uid)),
  };
}
