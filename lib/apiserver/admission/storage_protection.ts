/**
 * StorageObjectInUseProtection: kube-apiserver's admission plugin puts the protection
 * finalizer on every created PersistentVolumeClaim and PersistentVolume, and
 * kube-controller-manager's pvc-protection and pv-protection controllers take it off a
 * deleted one once nothing uses it. This module holds the pure parts: the finalizers, the
 * admission's mutation, "is this claim in use" and the controllers' decision.
 *
 * @module
 */
import { isPlainObject, type KubeObject, plainObjects } from "../../core/object.ts";

/** The finalizer that keeps a claim while a pod uses it. */
export const PVC_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";
/** The finalizer that keeps a volume while it is bound to a claim. */
export const PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";

/**
 * The admission plugin's mutation on create: appends `finalizer` unless it is there already
 * (mutates `obj` in place, so it is idempotent under kube's reinvocation).
 *
 * @example
 * ```ts
 * import { addProtectionFinalizer, PVC_PROTECTION_FINALIZER } from "./storage_protection.ts";
 * const claim = { metadata: { name: "data", finalizers: ["a"] } };
 * addProtectionFinalizer(claim, PVC_PROTECTION_FINALIZER);
 * claim.metadata.finalizers; // ["a", "kubernetes.io/pvc-protection"]
 * ```
 */
export function addProtectionFinalizer(obj: KubeObject, finalizer: string): void {
  const meta = obj.metadata;
  if (!meta) return;
  const have = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!have.includes(finalizer)) meta.finalizers = [...have, finalizer];
}

/**
 * A pod that kubelet is done with or that was force-deleted (deleting with a zero grace
 * period): it no longer holds the claims of its generic ephemeral volumes.
 */
const isShutDown = (pod: KubeObject) =>
  pod.metadata?.deletionTimestamp !== undefined && pod.metadata?.deletionGracePeriodSeconds === 0;

/** Whether `claim` is the one created for `pod`'s ephemeral volume (it is owned by the pod). */
const ownedBy = (claim: KubeObject, pod: KubeObject) =>
  (claim.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === pod.metadata?.uid);

/**
 * Whether `pod` uses `claim`, as the pvc-protection controller decides: only a scheduled pod
 * (`spec.nodeName` set — kubelet starts no pod on a claim being deleted) in the claim's
 * namespace, with a `persistentVolumeClaim` volume naming the claim (whatever the pod's phase:
 * kube keeps the claim until the pod object is gone), or a generic ephemeral volume whose claim
 * (`<pod>-<volume>`, owned by the pod) this is while the pod is not shut down.
 *
 * @example
 * ```ts
 * import { podUsesClaim } from "./storage_protection.ts";
 * const claim = { metadata: { name: "data", namespace: "default" } };
 * const pod = {
 *   metadata: { name: "web", namespace: "default" },
 *   spec: { nodeName: "node-1", volumes: [{ name: "v", persistentVolumeClaim: { claimName: "data" } }] },
 * };
 * podUsesClaim(pod, claim); // true
 * ```
 */
export function podUsesClaim(pod: KubeObject, claim: KubeObject): boolean {
  if (pod.metadata?.namespace !== claim.metadata?.namespace) return false;
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  if (typeof spec.nodeName !== "string" || spec.nodeName === "") return false;
  const name = claim.metadata?.name;
  return plainObjects(spec.volumes).some((v) => {
    if (isPlainObject(v.persistentVolumeClaim)) return v.persistentVolumeClaim.claimName === name;
    return isPlainObject(v.ephemeral) && !isShutDown(pod) &&
      `${pod.metadata?.name}-${v.name}` === name && ownedBy(claim, pod);
  });
}

/** What a protection controller does with one object's finalizer. */
export type ProtectionAction = "add" | "remove" | "keep";

const decide = (obj: KubeObject, finalizer: string, inUse: () => boolean): ProtectionAction => {
  const has = (obj.metadata?.finalizers ?? []).includes(finalizer);
  if (obj.metadata?.deletionTimestamp !== undefined) return has && !inUse() ? "remove" : "keep";
  // The admission plugin adds it on create; the controller adds it to older objects.
  return has ? "keep" : "add";
};

/**
 * The pvc-protection controller's decision for one claim: a claim being deleted loses its
 * finalizer once no pod of `pods` uses it ({@link podUsesClaim}); a live claim without it
 * gets it.
 *
 * @example
 * ```ts
 * import { claimProtection } from "./storage_protection.ts";
 * const claim = {
 *   metadata: { name: "data", namespace: "default", deletionTimestamp: "2026-01-01T00:00:00Z",
 *     finalizers: ["kubernetes.io/pvc-protection"] },
 * };
 * claimProtection(claim, []); // "remove"
 * ```
 */
export function claimProtection(
  claim: KubeObject,
  pods: readonly KubeObject[],
): ProtectionAction {
  return decide(claim, PVC_PROTECTION_FINALIZER, () => pods.some((p) => podUsesClaim(p, claim)));
}

/**
 * The pv-protection controller's decision for one volume: a volume being deleted keeps its
 * finalizer while `status.phase` is `Bound` (the binder's word that a claim uses it); a live
 * volume without it gets it.
 *
 * @example
 * ```ts
 * import { volumeProtection } from "./storage_protection.ts";
 * const pv = {
 *   metadata: { name: "pv1", deletionTimestamp: "2026-01-01T00:00:00Z",
 *     finalizers: ["kubernetes.io/pv-protection"] },
 *   status: { phase: "Released" },
 * };
 * volumeProtection(pv); // "remove"
 * ```
 */
export function volumeProtection(volume: KubeObject): ProtectionAction {
  const phase = isPlainObject(volume.status) ? volume.status.phase : undefined;
  return decide(volume, PV_PROTECTION_FINALIZER, () => phase === "Bound");
}
