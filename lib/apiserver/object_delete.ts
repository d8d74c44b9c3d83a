/**
 * The delete path: preconditions, finalizers, deferred deletion, and the final removal.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import type { Status } from "../core/status.ts";
import { formatTime } from "../core/time.ts";
import { fail } from "./http_util.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext, storeKey } from "./context.ts";
import { conflict, getStored } from "./object_errors.ts";

/** `DeleteOptions`, validated. */
export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: "Orphan" | "Background" | "Foreground";
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}

/** Parses DeleteOptions from a request body (any group's DeleteOptions) or query. */
export function parseDeleteOptions(body: unknown, query: URLSearchParams): DeleteOptions {
  const src: Record<string, unknown> = isPlainObject(body) ? body : {};
  const grace = src.gracePeriodSeconds ?? query.get("gracePeriodSeconds") ?? undefined;
  const policy = src.propagationPolicy ?? query.get("propagationPolicy") ?? undefined;
  const orphan = src.orphanDependents ?? query.get("orphanDependents") ?? undefined;
  const dryRun = src.dryRun ?? query.getAll("dryRun");
  if (policy !== undefined && !["Orphan", "Background", "Foreground"].includes(String(policy))) {
    fail("BadRequest", `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}`);
  }
  if (policy !== undefined && orphan !== undefined) {
    fail("BadRequest", "orphanDependents and propagationPolicy cannot both be set");
  }
  const pre = isPlainObject(src.preconditions) ? src.preconditions : undefined;
  const graceNum = grace === undefined ? undefined : Number(grace);
  if (graceNum !== undefined && !Number.isInteger(graceNum)) {
    fail("BadRequest", `gracePeriodSeconds: Invalid value: ${JSON.stringify(grace)}`);
  }
  return {
    gracePeriodSeconds: graceNum,
    propagationPolicy: (policy as DeleteOptions["propagationPolicy"]) ??
      (orphan === true || orphan === "true" ? "Orphan" : undefined),
    preconditions: pre
      ? {
        uid: pre.uid as string | undefined,
        resourceVersion: pre.resourceVersion as string | undefined,
      }
      : undefined,
    dryRun: Array.isArray(dryRun) ? dryRun.includes("All") : dryRun === "All",
  };
}

/** The outcome of a delete: removed now, or marked for deletion and kept. */
export type DeleteResult =
  | { readonly type: "removed"; readonly object: KubeObject }
  | { readonly type: "deferred"; readonly object: KubeObject };

/**
 * Removes an object whose deletion is complete (deletionTimestamp set, no finalizers left);
 * returns the removed object, or undefined when it must stay.
 */
export function finishIfDone(
  ctx: ServerContext,
  info: ResourceInfo,
  key: string,
  object: KubeObject,
): KubeObject | undefined {
  const m = object.metadata;
  if (!m?.deletionTimestamp || (m.finalizers?.length ?? 0) > 0) return undefined;
  if (ctx.deletionBlocked?.(info, object)) return undefined;
  const removed = ctx.storage.remove(info.storageKey, key);
  if (removed) ctx.hooks.get(info.storageKey)?.afterCommit?.("DELETED", removed, object);
  return removed;
}

/** The namespaces kube-apiserver never deletes (`default`, `kube-system`, `kube-public`). */
export const immortalNamespaces: readonly string[] = ["default", "kube-system", "kube-public"];

/** Deletes one object (DELETE on an item). */
export function deleteObject(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  opts: DeleteOptions = {},
): DeleteResult {
  if (info.storageKey === "/namespaces" && immortalNamespaces.includes(name)) {
    // kube-apiserver's NamespaceLifecycle admission plugin.
    fail("Forbidden", `namespaces "${name}" is forbidden: this namespace may not be deleted`, {
      name,
      kind: "namespaces",
    });
  }
  const old = getStored(ctx, info, namespace, name);
  const meta = old.metadata!;
  const pre = opts.preconditions;
  if (pre?.uid && pre.uid !== meta.uid) {
    throw conflict(
      info,
      name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid}`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    throw conflict(
      info,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`,
    );
  }
  const key = storeKey(info, namespace, name);
  const finalizers = [...(meta.finalizers ?? [])];
  if (!meta.deletionTimestamp) {
    for (const f of ctx.hooks.get(info.storageKey)?.finalizersOnDelete ?? []) {
      if (!finalizers.includes(f)) finalizers.push(f);
    }
  }
  const policy = opts.propagationPolicy ??
    (finalizers.includes("orphan")
      ? "Orphan"
      : finalizers.includes("foregroundDeletion")
      ? "Foreground"
      : "Background");
  const gcFinalizer = policy === "Orphan"
    ? "orphan"
    : policy === "Foreground"
    ? "foregroundDeletion"
    : "";
  if (gcFinalizer && ctx.gcEnabled && !finalizers.includes(gcFinalizer)) {
    finalizers.push(gcFinalizer);
  }
  const grace = ctx.gracePeriodFor?.(info, old, opts.gracePeriodSeconds) ?? 0;
  if (finalizers.length === 0 && grace === 0 && !ctx.deletionBlocked?.(info, old)) {
    if (opts.dryRun) return { type: "removed", object: present(info, old) };
    const removed = ctx.storage.remove(info.storageKey, key)!;
    ctx.hooks.get(info.storageKey)?.afterCommit?.("DELETED", removed, old);
    return { type: "removed", object: present(info, removed) };
  }
  if (meta.deletionTimestamp && finalizers.length === (meta.finalizers?.length ?? 0)) {
    return { type: "deferred", object: present(info, old) };
  }
  const now = ctx.now();
  const next: KubeObject = {
    ...old,
    metadata: {
      ...meta,
      finalizers: finalizers.length ? finalizers : undefined,
      deletionTimestamp: meta.deletionTimestamp ?? formatTime(now + grace * 1000),
      deletionGracePeriodSeconds: meta.deletionGracePeriodSeconds ?? grace,
      ...(meta.generation !== undefined && !meta.deletionTimestamp
        ? { generation: meta.generation + 1 }
        : {}),
    },
  };
  if (!next.metadata!.finalizers) delete next.metadata!.finalizers;
  if (opts.dryRun) return { type: "deferred", object: present(info, next) };
  const stored = ctx.storage.put(info.storageKey, key, next);
  ctx.hooks.get(info.storageKey)?.afterCommit?.("MODIFIED", stored, old);
  return { type: "deferred", object: present(info, stored) };
}

/** The Status a removal answers with for kinds that do not return the object. */
export function deletedStatus(info: ResourceInfo, object: KubeObject): Status {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: {
      name: object.metadata?.name,
      ...(info.group ? { group: info.group } : {}),
      kind: info.plural,
      uid: object.metadata?.uid,
    },
    // kube-apiserver's Store leaves the code out (it is 0, omitted).
    code: 0,
  };
}
