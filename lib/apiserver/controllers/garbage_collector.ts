/**
 * The in-server garbage collector: deletes dependents whose owners are gone, orphans the
 * dependents of owners deleted with `orphan`, and lets owners deleted in the foreground go
 * once no dependent blocks them.
 *
 * @module
 */
import type { KubeObject, ObjectMeta, OwnerReference } from "../../core/object.ts";
import { present, type ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import { deleteObject } from "../object_delete.ts";
import type { StoredEvent } from "../watch_hub.ts";
import { decideDependent, type OwnerState, type ResolvedOwner } from "./decide_dependent.ts";
import { decideOwner } from "./decide_owner.ts";
import { type Location, OwnerIndex } from "./owner_index.ts";

const gcFinalizers = ["orphan", "foregroundDeletion"];

const refsOf = (o: KubeObject | undefined): readonly OwnerReference[] =>
  Array.isArray(o?.metadata?.ownerReferences) ? o!.metadata!.ownerReferences! : [];

/**
 * Starts the garbage collector on a server context; returns the function that stops it.
 *
 * Like kube-controller-manager's garbage collector, but driven synchronously by the storage's
 * events: the graph is updated in the write path and the collector's own writes (deletes and
 * `ownerReferences` patches through the ordinary write path) run in a microtask right after.
 *
 * Guarantees: every write goes through `updateObject`/`deleteObject` (validation, events).
 * Caveats: objects restored into storage before the collector starts are indexed only if
 * their resource is registered at that time.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * const server = await startApiServer({ gc: true }); // the server installs the collector
 * await server.close();
 * ```
 */
export function installGarbageCollector(ctx: ServerContext): () => void {
  const index = new OwnerIndex();
  const dependentsDue = new Set<string>();
  const ownersDue = new Set<string>();
  let scheduled = false;
  let closed = false;

  const stored = (loc: Location) => ctx.storage.get(loc.storageKey, loc.key)?.object;
  const isWaiting = (o: KubeObject | undefined) =>
    !!o?.metadata?.deletionTimestamp &&
    (o.metadata.finalizers ?? []).includes("foregroundDeletion");

  /** Whether an owner is being deleted with a GC finalizer (its dependents matter to it). */
  const ownerPending = (uid: string) => {
    const loc = index.locate(uid);
    const o = loc && stored(loc);
    return !!o?.metadata?.deletionTimestamp &&
      (o.metadata.finalizers ?? []).some((f) => gcFinalizers.includes(f));
  };

  const schedule = () => {
    if (scheduled || closed) return;
    scheduled = true;
    queueMicrotask(run);
  };

  const ownerState = (ref: OwnerReference, dependent: Location): OwnerState => {
    const loc = index.locate(ref.uid);
    if (!loc || loc.name !== ref.name || loc.kind !== ref.kind) return "dangling";
    if (loc.namespace !== undefined && loc.namespace !== dependent.namespace) {
      return dependent.namespace === undefined ? "unresolvable" : "dangling";
    }
    return isWaiting(stored(loc)) ? "waiting" : "solid";
  };

  function deliver(e: StoredEvent): void {
    const obj = e.object;
    const uid = obj.metadata?.uid;
    if (!uid) return;
    if (e.type === "DELETED") {
      index.remove(obj);
      for (const d of index.dependentsOf(uid)) dependentsDue.add(d);
      for (const r of refsOf(obj)) if (ownerPending(r.uid)) ownersDue.add(r.uid);
      schedule();
      return;
    }
    index.put(e.storageKey, key(e), obj, e.prev);
    const refs = refsOf(obj);
    const refsChanged = e.type === "ADDED" || refs !== refsOf(e.prev);
    if (refsChanged && refs.length > 0) {
      const loc = index.locate(uid)!;
      if (refs.some((r) => ownerState(r, loc) !== "solid")) dependentsDue.add(uid);
    }
    if (refsChanged) {
      for (const r of refsOf(e.prev)) if (ownerPending(r.uid)) ownersDue.add(r.uid);
    }
    const fin = obj.metadata!.finalizers ?? [];
    if (obj.metadata!.deletionTimestamp && fin.some((f) => gcFinalizers.includes(f))) {
      ownersDue.add(uid);
      if (isWaiting(obj) && !isWaiting(e.prev)) {
        for (const d of index.dependentsOf(uid)) dependentsDue.add(d);
      }
    }
    if (dependentsDue.size || ownersDue.size) schedule();
  }

  function key(e: StoredEvent): string {
    const m = e.object.metadata!;
    return m.namespace !== undefined && m.namespace !== "" ? `${m.namespace}/${m.name}` : m.name!;
  }

  function run(): void {
    scheduled = false;
    for (let round = 0; round < 10_000 && !closed; round++) {
      if (!dependentsDue.size && !ownersDue.size) return;
      const deps = [...dependentsDue], owners = [...ownersDue];
      dependentsDue.clear();
      ownersDue.clear();
      for (const uid of deps) attempt(() => syncDependent(uid));
      for (const uid of owners) attempt(() => syncOwner(uid));
    }
  }

  const attempt = (f: () => void) => {
    try {
      f();
    } catch {
      // A concurrent change (conflict, not found): the event it caused schedules a retry.
    }
  };

  // The version the object is stored in, when served: a metadata-only write then needs no
  // conversion (custom resources with a conversion webhook cannot be converted here).
  const infoOf = (loc: Location, obj?: KubeObject) => {
    const any = ctx.registry.byStorageKey(loc.storageKey);
    const av = String(obj?.apiVersion ?? "");
    const version = av.slice(av.lastIndexOf("/") + 1);
    const info = (any && ctx.registry.lookup(any.group, version, any.plural)) ?? any;
    if (!info) throw new Error(`Cannot collect garbage: resource ${loc.storageKey} is not served`);
    return info;
  };

  function removeRefs(loc: Location, obj: KubeObject, uids: readonly string[]): void {
    const info = infoOf(loc, obj);
    const kept = refsOf(obj).filter((r) => !uids.includes(r.uid));
    const metadata: ObjectMeta = { ...obj.metadata };
    if (kept.length) metadata.ownerReferences = kept;
    else delete metadata.ownerReferences;
    updateObject(ctx, info, loc.namespace, loc.name, present(info, { ...obj, metadata }), {
      unconditional: true,
      fieldManager: "kube-controller-manager",
    });
  }

  function syncDependent(uid: string): void {
    const loc = index.locate(uid);
    const obj = loc && stored(loc);
    if (!loc || !obj) return;
    const owners: ResolvedOwner[] = refsOf(obj).map((r) => ({
      uid: r.uid,
      state: ownerState(r, loc),
    }));
    const decision = decideDependent({
      owners,
      deleting: !!obj.metadata?.deletionTimestamp,
      hasDependents: [...index.dependentsOf(uid)].some((d) => index.locate(d)),
      finalizers: obj.metadata?.finalizers ?? [],
    });
    switch (decision.type) {
      case "keep":
        return;
      case "removeOwnerRefs":
        return removeRefs(loc, obj, decision.uids);
      case "delete":
        deleteObject(ctx, infoOf(loc), loc.namespace, loc.name, {
          propagationPolicy: decision.propagation,
          preconditions: { uid },
        });
        return;
      default:
        decision satisfies never;
    }
  }

  function syncOwner(uid: string): void {
    const loc = index.locate(uid);
    const owner = loc && stored(loc);
    if (!loc || !owner) return;
    const dependents: { uid: string; loc: Location; obj: KubeObject; blocks: boolean }[] = [];
    for (const d of index.dependentsOf(uid)) {
      const dl = index.locate(d);
      const dobj = dl && stored(dl);
      const ref = refsOf(dobj).find((r) => r.uid === uid);
      if (dl && dobj && ref) {
        dependents.push({ uid: d, loc: dl, obj: dobj, blocks: ref.blockOwnerDeletion === true });
      }
    }
    const decision = decideOwner({
      deleting: !!owner.metadata?.deletionTimestamp,
      finalizers: owner.metadata?.finalizers ?? [],
    }, dependents);
    switch (decision.type) {
      case "none":
        return;
      case "orphan":
        for (const d of dependents) attempt(() => removeRefs(d.loc, d.obj, [uid]));
        return removeFinalizer(loc, "orphan");
      case "awaitDependents":
        for (const d of decision.dependents) dependentsDue.add(d);
        return;
      case "finishForeground":
        return removeFinalizer(loc, "foregroundDeletion");
      default:
        decision satisfies never;
    }
  }

  function removeFinalizer(loc: Location, finalizer: string): void {
    const obj = stored(loc);
    if (!obj) return;
    const info = infoOf(loc, obj);
    const metadata = { ...obj.metadata };
    metadata.finalizers = (metadata.finalizers ?? []).filter((f) => f !== finalizer);
    if (metadata.finalizers.length === 0) delete metadata.finalizers;
    updateObject(ctx, info, loc.namespace, loc.name, present(info, { ...obj, metadata }), {
      unconditional: true,
      fieldManager: "kube-controller-manager",
    });
  }

  const seen = new Set<string>();
  for (const info of ctx.registry.all()) {
    if (seen.has(info.storageKey)) continue;
    seen.add(info.storageKey);
    for (const s of ctx.storage.list(info.storageKey)) {
      index.put(info.storageKey, key({ object: s.object } as StoredEvent), s.object, undefined);
      if (refsOf(s.object).length) dependentsDue.add(s.object.metadata!.uid!);
    }
  }
  if (dependentsDue.size) schedule();
  const unsubscribe = ctx.storage.hub.subscribeAll({ deliver });
  return () => {
    closed = true;
    unsubscribe();
  };
}
