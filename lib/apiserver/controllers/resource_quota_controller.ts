/**
 * The in-server ResourceQuota controller: every quota's `status.hard` mirrors its
 * `spec.hard` and `status.used` is its namespace's current usage, recomputed in a microtask
 * after any write in a namespace that has quotas (kube-controller-manager's resourcequota
 * controller, without its resync delay), and again when a deleted pod's grace period runs
 * out (it then stops counting).
 *
 * @module
 */
import type { Subscription } from "../../deps.ts";
import type { KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import type { StoredEvent } from "../watch_hub.ts";
import { namespaceSyncs } from "./_namespace_syncs.ts";
import { quotaViews, RESOURCE_QUOTAS } from "../admission/resource_quota.ts";
import { amountText, nextPodExpiry, type QuotaUsage } from "../admission/quota_usage.ts";

const texts = (u: QuotaUsage) =>
  Object.fromEntries([...u.keys()].sort().map((k) => [k, amountText(u.get(k)!)]));

/**
 * The status a quota should have: `hard` as its spec says, `used` as counted.
 *
 * @example
 * ```ts ignore
 * quotaStatus(hard, used); // { hard: { pods: "2" }, used: { pods: "1" } }
 * ```
 */
export function quotaStatus(hard: QuotaUsage, used: QuotaUsage): Record<string, unknown> {
  return { hard: texts(hard), used: texts(used) };
}

/**
 * Starts the quota controller on a server context; returns the function that stops it.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer(); // runs the quota controller
 * await server.close();
 * ```
 */
export function installResourceQuotaController(ctx: ServerContext): () => void {
  const info = ctx.registry.lookup("", "v1", "resourcequotas")!;
  // A wake-up per namespace for the next deleted pod whose grace period runs out.
  const wakeups = new Map<string, { at: number; timer: Subscription }>();
  function wakeAt(namespace: string): void {
    const now = ctx.now();
    const at = nextPodExpiry(ctx.storage.list("/pods", namespace).map((s) => s.object), now);
    const set = wakeups.get(namespace);
    if (set && (at === undefined || set.at <= at)) return;
    if (set) set.timer.unsubscribe();
    if (at === undefined) return;
    const timer = ctx.scheduler.schedule(() => {
      wakeups.delete(namespace);
      schedule(namespace);
    }, at - now);
    wakeups.set(namespace, { at, timer });
  }
  function sync(namespace: string): void {
    wakeAt(namespace);
    const stored = new Map(
      ctx.storage.list(RESOURCE_QUOTAS, namespace).map((s) => [s.object.metadata!.name!, s]),
    );
    for (const view of quotaViews(ctx, namespace)) {
      const quota: KubeObject | undefined = stored.get(view.name)?.object;
      if (!quota || quota.metadata?.deletionTimestamp) continue;
      const status = quotaStatus(view.hard, view.used);
      if (deepEqual(quota.status, status)) continue;
      updateObject(ctx, info, namespace, view.name, { ...quota, status }, {
        subresource: "status",
        unconditional: true,
        fieldManager: "kube-controller-manager",
      });
    }
  }

  const { schedule, close } = namespaceSyncs(sync);
  // The namespaces holding quotas, refreshed on a quota's own events (rare), so that a write
  // elsewhere costs one set lookup rather than a listing of quotas.
  const quotaNamespaces = () =>
    new Set(ctx.storage.list(RESOURCE_QUOTAS).map((s) => s.object.metadata!.namespace!));
  let withQuotas = quotaNamespaces();
  const watched = (e: StoredEvent) => {
    const namespace = e.object.metadata?.namespace;
    if (!namespace) return;
    if (e.storageKey === RESOURCE_QUOTAS) withQuotas = quotaNamespaces();
    else if (!withQuotas.has(namespace)) return;
    schedule(namespace);
  };
  const unsubscribe = ctx.storage.hub.subscribeAll({ deliver: watched });
  for (const n of withQuotas) {
    try {
      sync(n);
    } catch { /* retried on the namespace's next write */ }
  }
  return () => {
    close();
    unsubscribe();
    for (const { timer } of wakeups.values()) timer.unsubscribe();
  };
}
