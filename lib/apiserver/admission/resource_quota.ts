/**
 * The ResourceQuota admission plugin (on by default in kube-apiserver, the last validating
 * step): the effects at the edge of {@link quotaRefusal} — reading the namespace's quotas and
 * the objects they count from storage (at the server's clock), and refusing with kube's 403 a
 * create, or an update of a claim or a service, that does not fit.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import { fail } from "../http_util.ts";
import { admissionName } from "./forbid.ts";
import { quotaRefusal, type QuotaView } from "./quota_decision.ts";
import { namespaceUsage, type QuotaAmount } from "./quota_usage.ts";
import { parseQuantity } from "../cel/_quantity.ts";
import { inQuotaScopes, quotaScopes } from "./quota_scopes.ts";

/** The storage key of ResourceQuotas. */
export const RESOURCE_QUOTAS = "/resourcequotas";

/** A quota's `spec.hard` as amounts (entries that are not quantities left out). */
export function hardOf(quota: KubeObject): Map<string, QuotaAmount> {
  const spec = isPlainObject(quota.spec) ? quota.spec : {};
  const hard = isPlainObject(spec.hard) ? spec.hard : {};
  const out = new Map<string, QuotaAmount>();
  for (const [k, v] of Object.entries(hard)) {
    const q = typeof v === "string" || typeof v === "number"
      ? parseQuantity(String(v).trim())
      : undefined;
    if (q) out.set(k, { q, binary: /i$/.test(String(v).trim()) });
  }
  return out;
}

/**
 * Each quota of `namespace` with the namespace's current usage of its hard resources by the
 * objects in its scopes, counted from storage (not from `status.used`).
 *
 * @example
 * ```ts ignore
 * quotaViews(ctx, "default"); // [{ name: "q", hard: Map {...}, used: Map {...} }]
 * ```
 */
export function quotaViews(ctx: ServerContext, namespace: string): QuotaView[] {
  const quotas = ctx.storage.list(RESOURCE_QUOTAS, namespace).map((s) => s.object);
  if (!quotas.length) return [];
  const cache = new Map<string, KubeObject[]>();
  const objectsOf = (key: string) => {
    let objs = cache.get(key);
    if (!objs) cache.set(key, objs = ctx.storage.list(key, namespace).map((s) => s.object));
    return objs;
  };
  return quotas.map((quota) => {
    const hard = hardOf(quota);
    const scopes = quotaScopes(quota);
    const inScope = (key: string) => objectsOf(key).filter((o) => inQuotaScopes(key, o, scopes));
    return {
      name: quota.metadata?.name ?? "",
      scopes,
      hard,
      used: namespaceUsage([...hard.keys()], inScope, ctx.now()),
    };
  });
}

/** Storage keys whose updates kube's evaluators check (a resize; a change of service type). */
const CHECKED_UPDATES = new Set(["/persistentvolumeclaims", "/services"]);

/**
 * Whether kube 1.32's quota plugin checks a write: never a subresource's (the plugin skips
 * them; a pod's `resize` needs the alpha InPlacePodVerticalScaling); every create; updates of
 * claims and services only (the generic object-count evaluators and, without that gate, the
 * pod evaluator handle creates alone).
 *
 * @example
 * ```ts ignore
 * quotaChecksWrite("/services", true, undefined); // true
 * quotaChecksWrite("/pods", true, undefined); // false
 * ```
 */
export function quotaChecksWrite(
  storageKey: string,
  update: boolean,
  subresource: string | undefined,
): boolean {
  return !subresource && (!update || CHECKED_UPDATES.has(storageKey));
}

/**
 * Refuses (403) creating a namespaced object, or updating a claim or a service, when it does
 * not fit its namespace's ResourceQuotas (an update is charged what its usage grows by).
 * Deletes, subresource writes and other updates are let through ({@link quotaChecksWrite}).
 *
 * @example
 * ```ts ignore
 * validateResourceQuota(ctx, podsInfo, pod, undefined, undefined);
 * // throws: pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1
 * ```
 */
export function validateResourceQuota(
  ctx: ServerContext,
  info: ResourceInfo,
  obj: KubeObject,
  old: KubeObject | undefined,
  subresource: string | undefined,
): void {
  const namespace = obj.metadata?.namespace;
  if (!info.namespaced || !namespace) return;
  if (!quotaChecksWrite(info.storageKey, old !== undefined, subresource)) return;
  const quotas = quotaViews(ctx, namespace);
  if (!quotas.length) return;
  const why = quotaRefusal(info.storageKey, obj, quotas, { old, now: ctx.now() });
  if (!why) return;
  const name = admissionName(obj);
  // forbid() without the group: a count/<resource>.<group> refusal names it, as kube's does.
  fail("Forbidden", `${info.plural} "${name}" is forbidden: ${why}`, {
    ...(name ? { name } : {}),
    ...(info.group ? { group: info.group } : {}),
    kind: info.plural,
  });
}
