/**
 * What objects use of a ResourceQuota, as pure functions — kube's quota evaluators
 * (`pkg/quota/v1/evaluator/core`): object counts (`pods`, `count/deployments.apps`), a pod's
 * compute requests and limits (`requests.cpu`, `limits.memory`, `cpu` = requests) while it is
 * neither terminal nor deleted past its grace period, a claim's `requests.storage` (also per
 * storage class), a service's load balancers and node ports — a namespace's usage as the sum
 * over its objects, and what an update adds (the growth from the old object to the new).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject, plainObjects } from "../../core/object.ts";
import { addQuantity, compareQuantity, parseQuantity, type Quantity } from "../cel/_quantity.ts";
import { resourceList } from "./limit_range_defaults.ts";
import { sumText } from "./limit_range_violations.ts";
import { claimUsage, STORAGE_CLASS_SUFFIX } from "./quota_claims.ts";

/** An amount of a quota resource: the exact value and whether its first term was binary. */
export interface QuotaAmount {
  readonly q: Quantity;
  readonly binary: boolean;
}

/** Quota resource name -> amount. */
export type QuotaUsage = ReadonlyMap<string, QuotaAmount>;

/** The core kinds whose object count has a legacy name (`pods`, not only `count/pods`). */
const LEGACY_COUNTS = new Set([
  "pods",
  "services",
  "configmaps",
  "secrets",
  "persistentvolumeclaims",
  "replicationcontrollers",
  "resourcequotas",
]);
/** Compute resources also quota'd by their bare name (= the request). */
const BARE_REQUESTS = new Set(["cpu", "memory", "ephemeral-storage"]);

const one = (): QuotaAmount => ({ q: { n: 1n, scale: 0 }, binary: false });

function amountOf(text: string): QuotaAmount | undefined {
  const q = parseQuantity(text.trim());
  return q && { q, binary: /i$/.test(text.trim()) };
}

/** Adds `from` into `into` (kube's `quota.Add`: a sum keeps its first term's format). */
export function addUsage(into: Map<string, QuotaAmount>, from: QuotaUsage): void {
  for (const [k, a] of from) {
    const prev = into.get(k);
    into.set(k, prev && prev.q.n !== 0n ? { ...prev, q: addQuantity(prev.q, a.q) } : a);
  }
}

/** The `count/<resource>[.<group>]` name of a resource stored under `group/plural`. */
export function countName(storageKey: string): string {
  const [group, plural] = storageKey.split("/");
  return group ? `count/${plural}.${group}` : `count/${plural}`;
}

/** The storage key (`group/plural`) whose objects a quota resource name counts, if any. */
export function storageKeyOf(resource: string): string | undefined {
  if (resource.startsWith("count/")) {
    const [plural, ...group] = resource.slice("count/".length).split(".");
    return `${group.join(".")}/${plural}`;
  }
  if (LEGACY_COUNTS.has(resource)) return `/${resource}`;
  if (resource.startsWith("services.")) return "/services";
  if (resource === "requests.storage" || resource.includes(STORAGE_CLASS_SUFFIX)) {
    return "/persistentvolumeclaims";
  }
  if (
    BARE_REQUESTS.has(resource) || resource.startsWith("hugepages-") ||
    resource.startsWith("requests.") || resource.startsWith("limits.")
  ) return "/pods";
  return undefined;
}

/** Whether a pod is terminal (Succeeded or Failed): its compute resources are not counted. */
export function isTerminalPod(pod: KubeObject): boolean {
  const phase = isPlainObject(pod.status) ? pod.status.phase : undefined;
  return phase === "Succeeded" || phase === "Failed";
}

/**
 * kube's `QuotaV1Pod`: whether a pod's compute resources (and `pods`) count — not when it is
 * terminal, nor once `now` (epoch ms) is after its `deletionTimestamp` plus its
 * `deletionGracePeriodSeconds` (a pod stuck terminating, on a lost node say). Without `now`
 * only the phase is looked at.
 *
 * @example
 * ```ts ignore
 * quotaCountsPod({ metadata: { deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 30 } },
 *   Date.parse("2026-01-01T00:00:31Z")); // false
 * ```
 */
export function quotaCountsPod(pod: KubeObject, now?: number): boolean {
  if (isTerminalPod(pod)) return false;
  const meta = pod.metadata ?? {};
  const grace = meta.deletionGracePeriodSeconds;
  if (now === undefined || !meta.deletionTimestamp || typeof grace !== "number") return true;
  const deletion = Date.parse(meta.deletionTimestamp);
  return Number.isNaN(deletion) || !(now > deletion + grace * 1000);
}

/**
 * The earliest moment (epoch ms) after `now` when one of `pods` stops counting because its
 * deletion grace period ran out ({@link quotaCountsPod}), if any: when a quota's
 * `status.used` must be counted again though nothing was written.
 *
 * @example
 * ```ts ignore
 * nextPodExpiry([deletingPod], Date.now()); // deletionTimestamp + grace, + 1 ms
 * ```
 */
export function nextPodExpiry(pods: readonly KubeObject[], now: number): number | undefined {
  let next: number | undefined;
  for (const pod of pods) {
    const meta = pod.metadata ?? {};
    const grace = meta.deletionGracePeriodSeconds;
    if (!meta.deletionTimestamp || typeof grace !== "number" || isTerminalPod(pod)) continue;
    const at = Date.parse(meta.deletionTimestamp) + grace * 1000 + 1;
    if (at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}

function listOf(v: unknown): Map<string, QuotaAmount> {
  const out = new Map<string, QuotaAmount>();
  for (const [k, t] of Object.entries(resourceList(v))) {
    const a = amountOf(t);
    if (a) out.set(k, a);
  }
  return out;
}

/** kube's `PodRequests`/`PodLimits`: the sum over containers, at least each init container's. */
function podTotal(spec: Record<string, unknown>, kind: "requests" | "limits") {
  const res = (c: Record<string, unknown>) =>
    listOf(isPlainObject(c.resources) ? c.resources[kind] : undefined);
  const total = new Map<string, QuotaAmount>();
  for (const c of plainObjects(spec.containers)) addUsage(total, res(c));
  for (const c of plainObjects(spec.initContainers)) {
    for (const [k, a] of res(c)) {
      const have = total.get(k);
      if (!have || compareQuantity(a.q, have.q) > 0) total.set(k, a);
    }
  }
  addUsage(total, listOf(spec.overhead));
  return total;
}

function podUsage(pod: KubeObject, out: Map<string, QuotaAmount>, now?: number): void {
  if (!quotaCountsPod(pod, now)) return; // kube: then it only counts as count/pods
  out.set("pods", one());
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  for (const [k, a] of podTotal(spec, "requests")) {
    out.set(`requests.${k}`, a);
    if (BARE_REQUESTS.has(k) || k.startsWith("hugepages-")) out.set(k, a);
  }
  for (const [k, a] of podTotal(spec, "limits")) {
    if (BARE_REQUESTS.has(k)) out.set(`limits.${k}`, a);
  }
}

function serviceUsage(svc: KubeObject, out: Map<string, QuotaAmount>): void {
  const spec = isPlainObject(svc.spec) ? svc.spec : {};
  const type = spec.type ?? "ClusterIP";
  if (type === "LoadBalancer") out.set("services.loadbalancers", one());
  if (type === "LoadBalancer" || type === "NodePort") {
    // A load balancer without node ports allocated counts only the ports that name one.
    const ports = plainObjects(spec.ports).filter((p) =>
      type === "NodePort" || spec.allocateLoadBalancerNodePorts !== false ||
      (typeof p.nodePort === "number" && p.nodePort !== 0)
    );
    const n = BigInt(ports.length);
    if (n) out.set("services.nodeports", { q: { n, scale: 0 }, binary: false });
  }
}

/**
 * What one object of the resource stored under `storageKey` uses (kube's evaluator `Usage`);
 * `now` (epoch ms) is the clock pods' deletion grace periods are measured against.
 *
 * @example
 * ```ts ignore
 * objectUsage("apps/deployments", deploy); // Map { "count/deployments.apps" => 1 }
 * ```
 */
export function objectUsage(storageKey: string, obj: KubeObject, now?: number): QuotaUsage {
  const out = new Map<string, QuotaAmount>([[countName(storageKey), one()]]);
  const plural = storageKey.split("/")[1];
  if (storageKey === "/pods") podUsage(obj, out, now);
  else if (storageKey.startsWith("/") && LEGACY_COUNTS.has(plural)) out.set(plural, one());
  if (storageKey === "/services") serviceUsage(obj, out);
  if (storageKey === "/persistentvolumeclaims") claimUsage(obj, out);
  return out;
}

/**
 * What writing `obj` adds to its namespace's usage, zeros left out (kube's `CheckRequest`): on
 * a create its whole usage; on an update of `old` only what grows — for each resource the new
 * usage less the old, where that is positive (`quota.SubtractWithNonNegativeResult`).
 *
 * @example
 * ```ts ignore
 * usageDelta("/persistentvolumeclaims", claim20Gi, claim10Gi); // Map { "requests.storage" => 10Gi }
 * ```
 */
export function usageDelta(
  storageKey: string,
  obj: KubeObject,
  old?: KubeObject,
  now?: number,
): Map<string, QuotaAmount> {
  const next = objectUsage(storageKey, obj, now);
  const before = old ? objectUsage(storageKey, old, now) : new Map<string, QuotaAmount>();
  const out = new Map<string, QuotaAmount>();
  for (const [k, a] of next) {
    const b = before.get(k);
    const q = b ? addQuantity(a.q, b.q, -1) : a.q;
    if (q.n > 0n) out.set(k, { ...a, q });
  }
  return out;
}

/** Keeps the entries of `usage` named in `names` (kube's `quota.Mask`). */
export function maskUsage(usage: QuotaUsage, names: Iterable<string>): Map<string, QuotaAmount> {
  const out = new Map<string, QuotaAmount>();
  for (const n of names) {
    const a = usage.get(n);
    if (a) out.set(n, a);
  }
  return out;
}

/**
 * A namespace's usage of the resources `names` (zero for those nothing uses): the sum of
 * {@link objectUsage} (at `now`) over the objects `objectsOf` gives for each storage key they
 * count.
 *
 * @example
 * ```ts ignore
 * namespaceUsage(["pods"], (key) => key === "/pods" ? [pod] : []); // Map { "pods" => 1 }
 * ```
 */
export function namespaceUsage(
  names: readonly string[],
  objectsOf: (storageKey: string) => readonly KubeObject[],
  now?: number,
): Map<string, QuotaAmount> {
  const keys = new Set(names.flatMap((n) => storageKeyOf(n) ?? []));
  const total = new Map<string, QuotaAmount>();
  for (const key of keys) {
    for (const o of objectsOf(key)) addUsage(total, maskUsage(objectUsage(key, o, now), names));
  }
  for (const n of names) if (!total.has(n)) total.set(n, { q: { n: 0n, scale: 0 }, binary: false });
  return total;
}

/** An amount as kube's `Quantity.String()` writes it. */
export function amountText(a: QuotaAmount): string {
  return sumText(a.q, a.binary);
}

/** `name=value` pairs sorted by name, joined with commas (the quota plugin's `prettyPrint`). */
export function prettyPrint(usage: QuotaUsage): string {
  return [...usage.keys()].sort().map((k) => `${k}=${amountText(usage.get(k)!)}`).join(",");
}
