/**
 * The PersistentVolumeClaimResize admission plugin (on by default in kube-apiserver, a
 * validating step after LimitRanger): an update of a claim that raises
 * `spec.resources.requests.storage` is refused unless the claim was bound and its storage
 * class (the same before and after) exists with `allowVolumeExpansion: true`. The decision is
 * the pure {@link claimResizeRefusal}; {@link validateClaimResize} reads the classes.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { compareQuantity, parseQuantity, type Quantity } from "../cel/_quantity.ts";
import { claimClass } from "./quota_claims.ts";
import { forbid } from "./forbid.ts";

/** The storage key of StorageClasses. */
const STORAGE_CLASSES = "storage.k8s.io/storageclasses";

/** kube's refusal of a claim that was not bound. */
export const RESIZE_NOT_BOUND = "Only bound persistent volume claims can be expanded";
/** kube's refusal of a claim whose class is missing, changed or does not allow expansion. */
export const RESIZE_NOT_ALLOWED =
  "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize";

const zero: Quantity = { n: 0n, scale: 0 };

/** `spec.resources.requests.storage` as a quantity (zero when absent, as in kube). */
function requestedStorage(claim: KubeObject): Quantity {
  const v = asRecord(asRecord(asRecord(claim.spec).resources).requests).storage;
  if (typeof v !== "string" && typeof v !== "number") return zero;
  return parseQuantity(String(v).trim()) ?? zero;
}

/**
 * Why kube refuses the update of claim `old` to `claim`, or undefined when it lets it through:
 * only a growing storage request is checked; the old claim must be `Bound`, then both must
 * name the same non-empty class (the beta annotation first), and `classOf` must find it with
 * `allowVolumeExpansion: true`.
 *
 * @example
 * ```ts
 * import { claimResizeRefusal } from "./claim_resize.ts";
 * const spec = (storage: string) => ({ storageClassName: "std", resources: { requests: { storage } } });
 * const old = { spec: spec("1Gi"), status: { phase: "Bound" } };
 * claimResizeRefusal({ spec: spec("2Gi") }, old, () => ({ allowVolumeExpansion: true })); // undefined
 * claimResizeRefusal({ spec: spec("2Gi") }, old, () => undefined); // "only dynamically provisioned pvc ..."
 * ```
 */
export function claimResizeRefusal(
  claim: KubeObject,
  old: KubeObject,
  classOf: (name: string) => KubeObject | undefined,
): string | undefined {
  if (compareQuantity(requestedStorage(claim), requestedStorage(old)) <= 0) return undefined;
  if (asRecord(old.status).phase !== "Bound") return RESIZE_NOT_BOUND;
  const cls = claimClass(claim);
  if (!cls || cls !== claimClass(old)) return RESIZE_NOT_ALLOWED;
  return classOf(cls)?.allowVolumeExpansion === true ? undefined : RESIZE_NOT_ALLOWED;
}

/**
 * Refuses (403, kube's text) an update of the claim `old` to `claim` that
 * {@link claimResizeRefusal} refuses, reading the StorageClasses from storage. Creates
 * (`old` undefined) and subresource writes are let through, as kube's plugin does.
 *
 * @example
 * ```ts ignore
 * validateClaimResize(ctx, claim, old, undefined);
 * // throws: persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and ...
 * ```
 */
export function validateClaimResize(
  ctx: ServerContext,
  claim: KubeObject,
  old: KubeObject | undefined,
  subresource: string | undefined,
): void {
  if (!old || subresource) return;
  const why = claimResizeRefusal(
    claim,
    old,
    (name) => ctx.storage.get(STORAGE_CLASSES, name)?.object,
  );
  if (why) forbid("persistentvolumeclaims", claim, why);
}
