/**
 * What kube-aggregator's autoregister and CRD-registration controllers keep: one Local
 * APIService per served group/version (`v1.apps`, `v1.` for the core group), with the
 * priorities kube-apiserver registers them with, and the plan that brings stored ones there.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";

/** Label on registered APIServices: `onstart` (built-in groups) or `true` (CRD groups). */
export const AUTOMANAGED_LABEL = "kube-aggregator.kubernetes.io/automanaged";

/** A served group/version and whether it comes from a CRD. */
export interface ServedGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly custom: boolean;
}

/** kube-apiserver's group priorities (controlplane/apiserver aggregator), by group. */
const groupPriority: Readonly<Record<string, number>> = {
  "": 18000,
  "apiregistration.k8s.io": 18000,
  "apps": 17800,
  "events.k8s.io": 17750,
  "authentication.k8s.io": 17700,
  "authorization.k8s.io": 17600,
  "autoscaling": 17500,
  "batch": 17400,
  "certificates.k8s.io": 17300,
  "networking.k8s.io": 17200,
  "policy": 17100,
  "rbac.authorization.k8s.io": 17000,
  "storage.k8s.io": 16800,
  "apiextensions.k8s.io": 16700,
  "admissionregistration.k8s.io": 16700,
  "scheduling.k8s.io": 16600,
  "coordination.k8s.io": 16500,
  "node.k8s.io": 16300,
  "discovery.k8s.io": 16200,
  "flowcontrol.apiserver.k8s.io": 16100,
};

/** The APIService name of a group/version: `v1.apps`, `v1.` for the core group. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/**
 * The APIServices that should exist, with the Available condition of a local service.
 *
 * @example
 * ```ts
 * import { desiredApiServices } from "./plan_api_services.ts";
 * const [core] = desiredApiServices([{ group: "", version: "v1", custom: false }], "2025-01-01T00:00:00Z");
 * core.metadata?.name; // "v1."
 * ```
 */
export function desiredApiServices(
  served: readonly ServedGroupVersion[],
  now: string,
): KubeObject[] {
  return served.map((gv) => ({
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    metadata: {
      name: apiServiceName(gv.group, gv.version),
      labels: { [AUTOMANAGED_LABEL]: gv.custom ? "true" : "onstart" },
    },
    spec: {
      ...(gv.group ? { group: gv.group } : {}),
      version: gv.version,
      groupPriorityMinimum: gv.custom ? 1000 : groupPriority[gv.group] ?? 15000,
      versionPriority: gv.custom ? 100 : gv.group === "" ? 1 : gv.version === "v2" ? 30 : 15,
    },
    status: {
      conditions: [{
        type: "Available",
        status: "True",
        lastTransitionTime: now,
        reason: "Local",
        message: "Local APIServices are always available",
      }],
    },
  }));
}

/** Creates, spec/label updates and deletes that bring stored APIServices to the desired set. */
export interface ApiServicePlan {
  readonly create: readonly KubeObject[];
  readonly update: readonly KubeObject[];
  /** Names of automanaged APIServices no longer served. */
  readonly remove: readonly string[];
}

/**
 * Plans the sync: missing ones are created, drifted ones updated, automanaged ones whose
 * group/version is gone removed; APIServices registered by users are never touched.
 *
 * @example
 * ```ts
 * import { desiredApiServices, planApiServices } from "./plan_api_services.ts";
 * const want = desiredApiServices([{ group: "apps", version: "v1", custom: false }], "t");
 * planApiServices(want, []).create.length; // 1
 * planApiServices([], want).remove; // ["v1.apps"]
 * ```
 */
export function planApiServices(
  desired: readonly KubeObject[],
  existing: readonly KubeObject[],
): ApiServicePlan {
  const byName = new Map(existing.map((o) => [o.metadata?.name ?? "", o]));
  const wanted = new Set(desired.map((o) => o.metadata?.name ?? ""));
  const create: KubeObject[] = [], update: KubeObject[] = [];
  for (const want of desired) {
    const have = byName.get(want.metadata?.name ?? "");
    if (!have) create.push(want);
    else if (
      !deepEqual(have.spec, want.spec) ||
      !deepEqual(
        have.metadata?.labels?.[AUTOMANAGED_LABEL],
        want.metadata?.labels?.[AUTOMANAGED_LABEL],
      )
    ) update.push(want);
  }
  const remove = existing
    .filter((o) => o.metadata?.labels?.[AUTOMANAGED_LABEL] !== undefined)
    .map((o) => o.metadata?.name ?? "")
    .filter((n) => !wanted.has(n));
  return { create, update, remove };
}
