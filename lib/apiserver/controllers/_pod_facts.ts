/**
 * Internal: the facts the simulation reads off a stored pod (its node, phase, owner and
 * storage key, and whether the default scheduler still has to place it).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";

/**
 * The pod's `spec.nodeName`, or `""` when it is not bound (or there is no pod).
 *
 * @example
 * ```ts
 * import { podNodeName } from "./_pod_facts.ts";
 * podNodeName({ spec: { nodeName: "n1" } }); // "n1"
 * podNodeName(undefined); // ""
 * ```
 */
export function podNodeName(pod: KubeObject | undefined): string {
  const n = asRecord(pod?.spec).nodeName;
  return typeof n === "string" ? n : "";
}

/**
 * The pod's `status.phase` as stored (`undefined` when unset).
 *
 * @example
 * ```ts
 * import { podPhase } from "./_pod_facts.ts";
 * podPhase({ status: { phase: "Running" } }); // "Running"
 * ```
 */
export function podPhase(pod: KubeObject | undefined): unknown {
  return asRecord(pod?.status).phase;
}

/**
 * Whether the pod has terminated (`Succeeded` or `Failed`).
 *
 * @example
 * ```ts
 * import { podFinished } from "./_pod_facts.ts";
 * podFinished({ status: { phase: "Failed" } }); // true
 * podFinished({ status: { phase: "Running" } }); // false
 * ```
 */
export function podFinished(pod: KubeObject | undefined): boolean {
  return podPhase(pod) === "Succeeded" || podPhase(pod) === "Failed";
}

/**
 * The pod's storage key, `namespace/name`.
 *
 * @example
 * ```ts
 * import { podKey } from "./_pod_facts.ts";
 * podKey({ metadata: { namespace: "default", name: "web" } }); // "default/web"
 * ```
 */
export function podKey(pod: KubeObject): string {
  return `${pod.metadata!.namespace}/${pod.metadata!.name}`;
}

/**
 * Whether the default scheduler should place the pod: not bound, not being deleted, not
 * finished, and asking for `default-scheduler`.
 *
 * @example
 * ```ts
 * import { podUnscheduled } from "./_pod_facts.ts";
 * podUnscheduled({ spec: { containers: [] } }); // true
 * podUnscheduled({ spec: { nodeName: "n1" } }); // false
 * podUnscheduled({ spec: { schedulerName: "other" } }); // false
 * ```
 */
export function podUnscheduled(pod: KubeObject): boolean {
  return !podNodeName(pod) && !pod.metadata?.deletionTimestamp && !podFinished(pod) &&
    (asRecord(pod.spec).schedulerName ?? "default-scheduler") === "default-scheduler";
}
