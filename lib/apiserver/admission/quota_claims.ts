/**
 * What a PersistentVolumeClaim uses of a ResourceQuota, as a pure function — kube's PVC
 * evaluator (`pkg/quota/v1/evaluator/core/persistent_volume_claims.go`): `requests.storage`
 * (whole bytes, rounded up; the larger `status.allocatedResources.storage` when a resize is
 * under way, as with RecoverVolumeExpansionFailure, on in 1.32) and, for a claim of a storage
 * class, `<class>.storageclass.storage.k8s.io/requests.storage` and `.../persistentvolumeclaims`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import { compareQuantity, parseQuantity, type Quantity } from "../cel/_quantity.ts";
import type { QuotaAmount } from "./quota_usage.ts";

/** The infix of per-storage-class quota resources (`gold.storageclass.storage.k8s.io/...`). */
export const STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";

/** The beta annotation that names a claim's class (it wins over `spec.storageClassName`). */
export const BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

/**
 * kube's `GetPersistentVolumeClaimClass`: the beta annotation if set, else
 * `spec.storageClassName`, else `""` (no class: nothing is charged to a class).
 *
 * @example
 * ```ts ignore
 * claimClass({ spec: { storageClassName: "gold" } }); // "gold"
 * ```
 */
export function claimClass(claim: KubeObject): string {
  const annotations = claim.metadata?.annotations ?? {};
  if (BETA_STORAGE_CLASS_ANNOTATION in annotations) {
    return String(annotations[BETA_STORAGE_CLASS_ANNOTATION]);
  }
  const cls = asRecord(claim.spec).storageClassName;
  return typeof cls === "string" ? cls : "";
}

/** A storage amount rounded up to whole bytes (kube's `RoundUp(0)`), if a quantity. */
function storageAmount(v: unknown): QuotaAmount | undefined {
  if (typeof v !== "string" && typeof v !== "number") return undefined;
  const text = String(v).trim();
  const q = parseQuantity(text);
  return q && { q: wholeUp(q), binary: /i$/.test(text) };
}

function wholeUp(q: Quantity): Quantity {
  if (q.scale <= 0) return q;
  const d = 10n ** BigInt(q.scale);
  const n = q.n / d + (q.n % d > 0n ? 1n : 0n);
  return { n, scale: 0 };
}

/**
 * Adds a claim's storage usage to `out` (its object counts are the caller's).
 *
 * @example
 * ```ts ignore
 * claimUsage({ spec: { storageClassName: "gold", resources: { requests: { storage: "1Gi" } } } }, out);
 * // out: requests.storage=1Gi, gold.storageclass.storage.k8s.io/requests.storage=1Gi, .../persistentvolumeclaims=1
 * ```
 */
export function claimUsage(claim: KubeObject, out: Map<string, QuotaAmount>): void {
  const cls = claimClass(claim);
  if (cls) {
    out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, {
      q: { n: 1n, scale: 0 },
      binary: false,
    });
  }
  let storage = storageAmount(asRecord(asRecord(asRecord(claim.spec).resources).requests).storage);
  if (!storage) return;
  const allocated = storageAmount(asRecord(asRecord(claim.status).allocatedResources).storage);
  if (allocated && compareQuantity(allocated.q, storage.q) > 0) storage = allocated;
  out.set("requests.storage", storage);
  if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
}
