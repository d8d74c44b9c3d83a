/**
 * The in-server namespace controller: a deleted namespace turns `Terminating`, everything in
 * it is deleted, and once it is empty its `kubernetes` finalizer goes and so does it.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import { deleteObject } from "../object_delete.ts";
import type { StoredEvent } from "../watch_hub.ts";
import { namespaceFinalizer, planNamespace, specFinalizers } from "./plan_namespace.ts";

/**
 * Starts the namespace controller on a server context; returns the function that stops it.
 *
 * Like kube-controller-manager's namespace controller, but event-driven and synchronous: its
 * writes run in a microtask after the write that triggered them. Requires the context's
 * `deletionBlocked` to keep namespaces with `spec.finalizers` (see `namespaceDeletionBlocked`).
 *
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * const server = await startApiServer(); // the server installs the namespace controller
 * await server.close();
 * ```
 */
export function installNamespaceController(ctx: ServerContext): () => void {
  const nsInfo = ctx.registry.lookup("", "v1", "namespaces")!;
  const terminating = new Set<string>();
  const due = new Set<string>();
  let scheduled = false;
  let closed = false;

  const schedule = (name: string) => {
    due.add(name);
    if (scheduled || closed) return;
    scheduled = true;
    queueMicrotask(run);
  };

  function run(): void {
    scheduled = false;
    for (let round = 0; round < 1_000 && due.size && !closed; round++) {
      const names = [...due];
      due.clear();
      for (const name of names) {
        try {
          sync(name);
        } catch {
          // A concurrent change: its event schedules another sync.
        }
      }
    }
  }

  function namespacedStorageKeys(): string[] {
    const keys = new Set<string>();
    for (const info of ctx.registry.all()) if (info.namespaced) keys.add(info.storageKey);
    return [...keys];
  }

  function sync(name: string): void {
    const ns = ctx.storage.get(nsInfo.storageKey, name)?.object;
    if (!ns?.metadata?.deletionTimestamp) {
      terminating.delete(name);
      return;
    }
    terminating.add(name);
    const found = new Map<string, KubeObject>();
    for (const storageKey of namespacedStorageKeys()) {
      for (const s of ctx.storage.list(storageKey, name)) {
        found.set(`${storageKey}|${s.object.metadata!.name}`, s.object);
      }
    }
    const plan = planNamespace(
      ns,
      [...found].map(([id, o]) => ({ id, deleting: !!o.metadata?.deletionTimestamp })),
    );
    if (plan.markTerminating) {
      const status = isPlainObject(ns.status) ? ns.status : {};
      updateObject(ctx, nsInfo, undefined, name, {
        ...ns,
        status: { ...status, phase: "Terminating" },
      }, { subresource: "status", unconditional: true, fieldManager: "kube-controller-manager" });
    }
    for (const id of plan.delete) {
      const [storageKey, objName] = id.split("|");
      const info = ctx.registry.byStorageKey(storageKey);
      if (!info) continue;
      try {
        deleteObject(ctx, info, name, objName);
      } catch {
        // Gone meanwhile, or refused: the next event retries.
      }
    }
    if (!plan.finalize) return;
    const current = ctx.storage.get(nsInfo.storageKey, name)!.object;
    const finalizers = specFinalizers(current).filter((f) => f !== namespaceFinalizer);
    const spec: Record<string, unknown> = { ...(isPlainObject(current.spec) ? current.spec : {}) };
    if (finalizers.length) spec.finalizers = finalizers;
    else delete spec.finalizers;
    updateObject(ctx, nsInfo, undefined, name, { ...current, spec }, {
      unconditional: true,
      fieldManager: "kube-controller-manager",
    });
  }

  function deliver(e: StoredEvent): void {
    if (e.storageKey === nsInfo.storageKey) {
      if (e.type === "DELETED") terminating.delete(e.object.metadata!.name!);
      else if (e.object.metadata?.deletionTimestamp) schedule(e.object.metadata.name!);
      return;
    }
    const ns = e.object.metadata?.namespace;
    if (ns && terminating.has(ns)) schedule(ns);
  }

  for (const s of ctx.storage.list(nsInfo.storageKey)) {
    if (s.object.metadata?.deletionTimestamp) schedule(s.object.metadata.name!);
  }
  const unsubscribe = ctx.storage.hub.subscribeAll({ deliver });
  return () => {
    closed = true;
    unsubscribe();
  };
}
