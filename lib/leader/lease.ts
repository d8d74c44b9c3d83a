/**
 * `Lease`: the `coordination.k8s.io/v1` object leader election writes, and its resource.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ApiResource } from "../client/api_resource.ts";

/** The spec of a Lease: who holds it, for how long, since when (MicroTime strings). */
export interface LeaseSpec {
  /** The holder; `""` or absent means nobody holds the lease. */
  holderIdentity?: string;
  /** How long others must wait, after seeing the record change, before taking over. */
  leaseDurationSeconds?: number;
  /** When the current holder acquired the lease (MicroTime). */
  acquireTime?: string;
  /** When the current holder last renewed the lease (MicroTime). */
  renewTime?: string;
  /** How many times the lease changed hands. */
  leaseTransitions?: number;
}

/**
 * A `coordination.k8s.io/v1` Lease.
 *
 * Like `k8sCoordination.Lease`, but shaped as a {@link KubeObject} so the client's verbs take
 * it as it is.
 *
 * @example
 * ```ts
 * import type { Lease } from "../../mod.ts";
 * const lease: Lease = {
 *   apiVersion: "coordination.k8s.io/v1",
 *   kind: "Lease",
 *   metadata: { name: "podset-controller", namespace: "default" },
 *   spec: { holderIdentity: "host-a", leaseDurationSeconds: 15 },
 * };
 * ```
 */
export interface Lease extends KubeObject {
  /** Who holds the lease, since when, for how long. */
  spec?: LeaseSpec;
}

/**
 * The Lease resource, resolved (no discovery round trip needed).
 *
 * @example
 * ```ts
 * import { leaseResource, resourcePath } from "../../mod.ts";
 * resourcePath(leaseResource, { namespace: "default", name: "a" });
 * // "/apis/coordination.k8s.io/v1/namespaces/default/leases/a"
 * ```
 */
export const leaseResource: ApiResource = {
  group: "coordination.k8s.io",
  version: "v1",
  plural: "leases",
  kind: "Lease",
  namespaced: true,
};
