/**
 * The in-server pvc-protection and pv-protection controllers (kube-controller-manager's):
 * a deleted PersistentVolumeClaim keeps `kubernetes.io/pvc-protection` while a scheduled pod
 * uses it, a deleted PersistentVolume keeps `kubernetes.io/pv-protection` while it is Bound;
 * then the finalizer goes and the object with it. Live objects without their finalizer get it.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import type { StoredEvent } from "../watch_hub.ts";
import type { ResourceInfo } from "../resource_info.ts";
import { namespaceSyncs } from "./_namespace_syncs.ts";
import {
  claimProtection,
  type ProtectionAction,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  volumeProtection,
} from "../admission/storage_protection.ts";

/**
 * Starts both controllers on a server context; returns the function that stops them.
 * Synchronous like the other in-server controllers: a claim's finalizer goes in a microtask
 * after the delete or pod event that frees it.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer(); // runs the protection controllers
 * await server.close();
 * ```
 */
export function installStorageProtection(ctx: ServerContext): () => void {
  const claims = ctx.registry.lookup("", "v1", "persistentvolumeclaims")!;
  const volumes = ctx.registry.lookup("", "v1", "persistentvolumes")!;
  const pods = ctx.registry.lookup("", "v1", "pods")!;

  function apply(
    info: ResourceInfo,
    obj: KubeObject,
    finalizer: string,
    action: ProtectionAction,
  ): void {
    if (action === "keep") return;
    const have = obj.metadata?.finalizers ?? [];
    const finalizers = action === "add"
      ? [...have, finalizer]
      : have.filter((f) => f !== finalizer);
    const { finalizers: _old, ...rest } = obj.metadata ?? {};
    const metadata = finalizers.length ? { ...rest, finalizers } : rest;
    updateObject(ctx, info, metadata.namespace, metadata.name!, { ...obj, metadata }, {
      unconditional: true,
      fieldManager: "kube-controller-manager",
    });
  }

  // One volume's sync reads that volume alone: a volume event costs O(1), not O(volumes).
  function syncVolume(name: string): void {
    const s = ctx.storage.get(volumes.storageKey, name);
    if (s) apply(volumes, s.object, PV_PROTECTION_FINALIZER, volumeProtection(s.object));
  }

  function sync(namespace: string): void {
    let inNamespace: KubeObject[] | undefined;
    const podsOf = () =>
      inNamespace ??= ctx.storage.list(pods.storageKey, namespace).map((p) => p.object);
    for (const s of ctx.storage.list(claims.storageKey, namespace)) {
      // The namespace's pods are listed only when a claim is being deleted.
      const action = claimProtection(
        s.object,
        s.object.metadata?.deletionTimestamp ? podsOf() : [],
      );
      // One failed write (a concurrent change) must not hold up the namespace's other claims.
      try {
        apply(claims, s.object, PVC_PROTECTION_FINALIZER, action);
      } catch { /* its event schedules another sync */ }
    }
  }

  const { schedule, close } = namespaceSyncs(sync);
  // Volumes are synced by name, batched the same way (a burst on one volume is one sync).
  const volumeSyncs = namespaceSyncs(syncVolume);
  const watched = (e: StoredEvent) => {
    if (e.storageKey === volumes.storageKey) {
      const name = e.object.metadata?.name;
      if (name && e.type !== "DELETED") volumeSyncs.schedule(name);
    } else if (e.storageKey === claims.storageKey || e.storageKey === pods.storageKey) {
      const ns = e.object.metadata?.namespace;
      if (ns) schedule(ns);
    }
  };
  const unsubscribe = ctx.storage.hub.subscribeAll({ deliver: watched });
  // The initial full pass: every stored volume and every namespace with claims.
  for (const s of ctx.storage.list(volumes.storageKey)) {
    volumeSyncs.schedule(s.object.metadata!.name!);
  }
  for (const s of ctx.storage.list(claims.storageKey)) schedule(s.object.metadata!.namespace!);
  return () => {
    close();
    volumeSyncs.close();
    unsubscribe();
  };
}
