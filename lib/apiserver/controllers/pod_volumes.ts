/**
 * `podVolumeReadiness()`: what a pod's PersistentVolumeClaims let the scheduler do — the
 * VolumeBinding plugin of kube-scheduler as a pure function: bind (on nodes the bound volumes'
 * node affinity allows), wait for the first consumer's claims to be provisioned, or not
 * schedule at all with the plugin's reason.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject } from "../../core/object.ts";
import { matchesNodeAffinity } from "../../core/node_affinity.ts";

/** The annotation the scheduler puts on a WaitForFirstConsumer claim: the chosen node. */
export const SELECTED_NODE_ANNOTATION = "volume.kubernetes.io/selected-node";

/** Reads claims, volumes and classes. */
export interface VolumeLookup {
  readonly claim: (namespace: string, name: string) => KubeObject | undefined;
  readonly volume: (name: string) => KubeObject | undefined;
  readonly storageClass: (name: string) => KubeObject | undefined;
}

/** The scheduler's answer for a pod's volumes. */
export type VolumeReadiness =
  /** Schedulable on the nodes `allows` accepts (the bound volumes' node affinity). */
  | { readonly type: "ready"; readonly allows: (node: KubeObject) => boolean }
  /** Pick a node among those `allows` accepts, mark `claims` with it, wait for binding. */
  | {
    readonly type: "waitForFirstConsumer";
    readonly claims: readonly KubeObject[];
    readonly allows: (node: KubeObject) => boolean;
  }
  /** Not schedulable: the plugin's reason (`pod has unbound immediate PersistentVolumeClaims`). */
  | { readonly type: "unschedulable"; readonly reason: string };

/**
 * The claims a pod mounts, by name. Generic ephemeral volumes are left out: no ephemeral-volume
 * controller creates their claims here, so waiting for them would keep the pod Pending forever.
 */
export function podClaimNames(pod: KubeObject): string[] {
  const volumes = asRecord(pod.spec).volumes;
  if (!Array.isArray(volumes)) return [];
  return volumes.flatMap((v) => {
    if (!isPlainObject(v)) return [];
    const claim = asRecord(v.persistentVolumeClaim).claimName;
    return typeof claim === "string" && claim ? [claim] : [];
  });
}

/** Whether a claim is bound to a volume. */
export function claimBound(claim: KubeObject): boolean {
  return !!asRecord(claim.spec).volumeName && asRecord(claim.status).phase === "Bound";
}

/**
 * Decides, as the VolumeBinding plugin does: a missing or deleting claim, or an unbound claim
 * whose class binds immediately, makes the pod unschedulable; unbound claims of a
 * WaitForFirstConsumer class wait for a node to be chosen; bound claims restrict the nodes to
 * their volumes' node affinity.
 *
 * @example
 * ```ts
 * import { podVolumeReadiness } from "./pod_volumes.ts";
 * const pod = { metadata: { name: "p", namespace: "ns" }, spec: { volumes: [{ name: "d", persistentVolumeClaim: { claimName: "data" } }] } };
 * const lookup = { claim: () => ({ metadata: { name: "data" }, spec: {} }), volume: () => undefined, storageClass: () => undefined };
 * const r = podVolumeReadiness(pod, lookup);
 * r.type === "unschedulable" && r.reason; // "pod has unbound immediate PersistentVolumeClaims"
 * ```
 */
export function podVolumeReadiness(pod: KubeObject, lookup: VolumeLookup): VolumeReadiness {
  const ns = pod.metadata?.namespace ?? "";
  const affinities: KubeObject[] = [];
  const waiting: KubeObject[] = [];
  for (const name of podClaimNames(pod)) {
    const claim = lookup.claim(ns, name);
    if (!claim) {
      return { type: "unschedulable", reason: `persistentvolumeclaim "${name}" not found` };
    }
    if (claim.metadata?.deletionTimestamp) {
      return { type: "unschedulable", reason: `persistentvolumeclaim "${name}" is being deleted` };
    }
    if (claimBound(claim)) {
      const pvName = String(asRecord(claim.spec).volumeName);
      const pv = lookup.volume(pvName);
      if (!pv) return { type: "unschedulable", reason: `persistentvolume "${pvName}" not found` };
      const required = asRecord(asRecord(pv.spec).nodeAffinity).required;
      if (isPlainObject(required)) {
        affinities.push({
          spec: {
            affinity: {
              nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required },
            },
          },
        });
      }
      continue;
    }
    const className = asRecord(claim.spec).storageClassName;
    const cls = typeof className === "string" && className
      ? lookup.storageClass(className)
      : undefined;
    if (cls?.volumeBindingMode === "WaitForFirstConsumer") waiting.push(claim);
    else {return {
        type: "unschedulable",
        reason: "pod has unbound immediate PersistentVolumeClaims",
      };}
  }
  const allows = (node: KubeObject) => affinities.every((a) => matchesNodeAffinity(a, node));
  return waiting.length
    ? { type: "waitForFirstConsumer", claims: waiting, allows }
    : { type: "ready", allows };
}
