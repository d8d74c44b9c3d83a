/**
 * The ResourceQuota admission plugin's decision, as a pure function: whether creating an
 * object fits every quota of its namespace, worded as kube-apiserver's
 * `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go`
 * (`failed quota: <name>: must specify ...`, `exceeded quota: <name>, requested: ..., used:
 * ..., limited: ...`).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject, plainObjects } from "../../core/object.ts";
import { addQuantity, compareQuantity } from "../cel/_quantity.ts";
import { resourceList } from "./limit_range_defaults.ts";
import { inQuotaScopes, type ScopeSelector } from "./quota_scopes.ts";
import {
  maskUsage,
  prettyPrint,
  type QuotaAmount,
  type QuotaUsage,
  usageDelta,
} from "./quota_usage.ts";

/**
 * A quota as admission sees it: its name, `spec.hard`, the namespace's current usage (of the
 * objects in its scopes), and its scopes.
 */
export interface QuotaView {
  readonly name: string;
  readonly scopes?: readonly ScopeSelector[];
  readonly hard: QuotaUsage;
  readonly used: QuotaUsage;
}

/** The compute resources every container must set when a quota constrains them. */
const VALIDATED = [
  "cpu",
  "memory",
  "requests.cpu",
  "requests.memory",
  "limits.cpu",
  "limits.memory",
];

/** The quota names one container sets (kube's `podComputeUsageHelper`, compute part). */
function containerNames(c: Record<string, unknown>): Set<string> {
  const r = isPlainObject(c.resources) ? c.resources : {};
  const out = new Set<string>();
  for (const k of Object.keys(resourceList(r.requests))) {
    if (k === "cpu" || k === "memory") out.add(k).add(`requests.${k}`);
  }
  for (const k of Object.keys(resourceList(r.limits))) {
    if (k === "cpu" || k === "memory") out.add(`limits.${k}`);
  }
  return out;
}

/**
 * kube's pod evaluator `Constraints`: every container (and init container) of a pod must set
 * each compute resource a quota constrains; `undefined` when they do, else e.g.
 * `must specify limits.cpu for: a,b; memory for: a`.
 *
 * @example
 * ```ts ignore
 * podConstraints(pod, ["limits.cpu"]); // "must specify limits.cpu for: web"
 * ```
 */
export function podConstraints(pod: KubeObject, hard: Iterable<string>): string | undefined {
  const required = new Set([...hard].filter((n) => VALIDATED.includes(n)));
  if (!required.size) return undefined;
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const missing = new Map<string, Set<string>>();
  for (const c of [...plainObjects(spec.containers), ...plainObjects(spec.initContainers)]) {
    const has = containerNames(c);
    for (const r of required) {
      if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(String(c.name ?? "")));
    }
  }
  if (!missing.size) return undefined;
  return `must specify ${
    [...missing.keys()].sort()
      .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(",")}`)
      .join("; ")
  }`;
}

/** What {@link quotaRefusal} checks besides the object. */
export interface QuotaRequest {
  /** The stored object an update replaces: then only the growth of its usage is checked. */
  readonly old?: KubeObject;
  /** The server's clock (epoch ms), for pods deleted past their grace period. */
  readonly now?: number;
}

/**
 * Why creating `obj` (stored under `storageKey`), or updating `old` to it, is refused by the
 * namespace's quotas (sorted by name; only those whose scopes the object is in), or
 * `undefined` when it fits: first any quota's constraint (`failed quota: ...`), then the first
 * quota a resource would exceed (`exceeded quota: ...`). Zero usage is ignored; an update is
 * charged what grows ({@link usageDelta}).
 *
 * @example
 * ```ts ignore
 * quotaRefusal("/pods", pod, [{ name: "compute", hard, used }]);
 * // "exceeded quota: compute, requested: limits.cpu=1, used: limits.cpu=1500m, limited: limits.cpu=2"
 * ```
 */
export function quotaRefusal(
  storageKey: string,
  obj: KubeObject,
  quotas: readonly QuotaView[],
  request: QuotaRequest = {},
): string | undefined {
  const sorted = quotas.filter((q) => inQuotaScopes(storageKey, obj, q.scopes ?? [])).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  if (storageKey === "/pods") {
    for (const quota of sorted) {
      const why = podConstraints(obj, quota.hard.keys());
      if (why) return `failed quota: ${quota.name}: ${why}`;
    }
  }
  const delta = usageDelta(storageKey, obj, request.old, request.now);
  for (const quota of sorted) {
    const requested = maskUsage(delta, quota.hard.keys());
    const exceeded: string[] = [];
    for (const [name, req] of requested) {
      const used = quota.used.get(name);
      const next = used ? sum(used, req) : req;
      if (compareQuantity(next.q, quota.hard.get(name)!.q) > 0) exceeded.push(name);
    }
    if (exceeded.length) {
      return `exceeded quota: ${quota.name}, requested: ${
        prettyPrint(maskUsage(requested, exceeded))
      }, used: ${prettyPrint(maskUsage(quota.used, exceeded))}, limited: ${
        prettyPrint(maskUsage(quota.hard, exceeded))
      }`;
    }
  }
  return undefined;
}

function sum(a: QuotaAmount, b: QuotaAmount): QuotaAmount {
  return a.q.n === 0n ? b : { ...a, q: addQuantity(a.q, b.q) };
}
