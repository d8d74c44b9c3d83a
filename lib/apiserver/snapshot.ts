/**
 * Consistent reads at a past resourceVersion, rebuilt from the current state and the
 * resource's event history (events after the asked revision are undone newest first).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ObjectStorage } from "./storage.ts";
import { type Stored, storedJson } from "./storage.ts";

/** An object of a snapshot, with its serialization when it is the current stored one. */
export interface SnapshotItem {
  readonly key: string;
  readonly object: KubeObject;
  readonly json?: () => string;
}

/**
 * Objects of a resource as of revision `rv`, in key order; undefined when history no longer
 * covers `rv` (the caller answers 410 Expired).
 *
 * @example
 * ```ts
 * import { snapshotAt } from "./snapshot.ts";
 * import { ObjectStorage } from "./storage.ts";
 * const s = new ObjectStorage();
 * s.put("/configmaps", "default/a", { metadata: { name: "a", namespace: "default" } });
 * snapshotAt(s, "/configmaps", s.rv, "default")?.length; // 1
 * ```
 */
export function snapshotAt(
  storage: ObjectStorage,
  storageKey: string,
  rv: number,
  namespace?: string,
): SnapshotItem[] | undefined {
  const items = snapshotScan(storage, storageKey, rv, namespace);
  return items && [...items];
}

/**
 * Like {@link snapshotAt}, but lazy and starting after a key: a page of a list costs
 * O(log n + page) when nothing changed since `rv`.
 *
 * @example
 * ```ts
 * import { snapshotScan } from "./snapshot.ts";
 * import { ObjectStorage } from "./storage.ts";
 * const s = new ObjectStorage();
 * s.put("/configmaps", "default/a", { metadata: { name: "a", namespace: "default" } });
 * s.put("/configmaps", "default/b", { metadata: { name: "b", namespace: "default" } });
 * [...snapshotScan(s, "/configmaps", s.rv, undefined, "default/a")!].map((i) => i.key); // ["default/b"]
 * ```
 */
export function snapshotScan(
  storage: ObjectStorage,
  storageKey: string,
  rv: number,
  namespace?: string,
  after?: string,
): Iterable<SnapshotItem> | undefined {
  const replay = storage.hub.since(storageKey, rv);
  if (replay.type === "expired") return undefined;
  const keyOf = (o: KubeObject) =>
    o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : `${o.metadata?.name}`;
  const item = (s: Stored): SnapshotItem => ({
    key: keyOf(s.object),
    object: s.object,
    json: () => storedJson(s),
  });
  if (replay.events.length === 0) {
    return (function* () {
      for (const s of storage.scan(storageKey, namespace, after)) yield item(s);
    })();
  }
  const state = new Map<string, SnapshotItem>();
  for (const s of storage.scan(storageKey, namespace)) state.set(keyOf(s.object), item(s));
  const inScope = (o: KubeObject) => namespace === undefined || o.metadata?.namespace === namespace;
  for (let i = replay.events.length - 1; i >= 0; i--) {
    const e = replay.events[i];
    if (!inScope(e.object)) continue;
    const key = keyOf(e.object);
    if (e.type === "ADDED") state.delete(key);
    else state.set(key, { key, object: e.prev! });
  }
  return [...state.values()]
    .filter((x) => after === undefined || x.key > after)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
