/**
 * The admission plugins of the embedded API server that need the cluster's other objects:
 * LimitRanger for pods and PersistentVolumeClaims, ServiceAccount, Priority and
 * DefaultTolerationSeconds for pods, DefaultStorageClass, StorageObjectInUseProtection and
 * PersistentVolumeClaimResize for claims (the first two also for volumes).
 * {@link installAdmission} wraps the pod, claim and volume hooks.
 *
 * @module
 */
import type { ServerContext } from "../context.ts";
import { admitServiceAccount } from "./service_account_admission.ts";
import { admitPriority, keepPriority } from "./priority_admission.ts";
import { admitDefaultTolerationSeconds } from "./default_toleration_seconds.ts";
import { admitLimitRanger, validateClaimLimitRanger, validateLimitRanger } from "./limit_ranger.ts";
import { validateClaimResize } from "./claim_resize.ts";
import { admitDefaultStorageClass } from "./default_storage_class.ts";
import {
  addProtectionFinalizer,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
} from "./storage_protection.ts";

export {
  admitServiceAccount,
  ROOT_CA_CONFIGMAP,
  SERVICE_ACCOUNT_MOUNT_PATH,
  serviceAccountVolume,
} from "./service_account_admission.ts";
export { admitPriority, keepPriority } from "./priority_admission.ts";
export { admitLimitRanger, validateClaimLimitRanger, validateLimitRanger } from "./limit_ranger.ts";
export {
  claimResizeRefusal,
  RESIZE_NOT_ALLOWED,
  RESIZE_NOT_BOUND,
  validateClaimResize,
} from "./claim_resize.ts";
export {
  type ContainerDefaults,
  type ContainerList,
  LIMIT_RANGER_ANNOTATION,
  type LimitRangeDefaulting,
  limitRangeDefaults,
  type LimitRangeItem,
  limitRangeItems,
  type ResourceList,
  withLimitRangeDefaults,
} from "./limit_range_defaults.ts";
export {
  aggregateMessage,
  claimLimitViolations,
  limitRangeViolations,
} from "./limit_range_violations.ts";
export {
  addUsage,
  amountText,
  countName,
  isTerminalPod,
  maskUsage,
  namespaceUsage,
  nextPodExpiry,
  objectUsage,
  prettyPrint,
  type QuotaAmount,
  quotaCountsPod,
  type QuotaUsage,
  storageKeyOf,
  usageDelta,
} from "./quota_usage.ts";
export { claimClass, claimUsage, STORAGE_CLASS_SUFFIX } from "./quota_claims.ts";
export { inQuotaScopes, quotaScopes, type ScopeSelector } from "./quota_scopes.ts";
export {
  podConstraints,
  quotaRefusal,
  type QuotaRequest,
  type QuotaView,
} from "./quota_decision.ts";
export {
  hardOf,
  quotaChecksWrite,
  quotaViews,
  RESOURCE_QUOTAS,
  validateResourceQuota,
} from "./resource_quota.ts";
export { admitDefaultStorageClass, claimNamesClass } from "./default_storage_class.ts";
export {
  addProtectionFinalizer,
  claimProtection,
  podUsesClaim,
  type ProtectionAction,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  volumeProtection,
} from "./storage_protection.ts";
export {
  admitDefaultTolerationSeconds,
  DEFAULT_TOLERATION_SECONDS,
} from "./default_toleration_seconds.ts";

/**
 * Installs the LimitRanger, ServiceAccount (unless `serviceAccounts: false`), Priority and
 * DefaultTolerationSeconds plugins as the pod kind's built-in mutating admission
 * (`admitCreate`, in that order); updates keep the priority the create set and get the
 * tolerations again (`admitUpdate`). The write path runs them before the mutating webhooks,
 * or after the pod's own create preparation when no webhook is configured (see
 * `object_write.ts`). LimitRanger checks a created pod once it is defaulted and valid (a 403
 * when it breaks a LimitRange), and PersistentVolumeClaims on create and update (not status
 * writes); PersistentVolumeClaimResize then refuses a claim's growth unless its class allows
 * expansion. Created claims get the default StorageClass (DefaultStorageClass) and, like
 * created PersistentVolumes, their protection finalizer (StorageObjectInUseProtection), before
 * the mutating webhooks too.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer(); // installs the admission plugins
 * await server.close();
 * ```
 */
export function installAdmission(
  ctx: ServerContext,
  options: { readonly serviceAccounts?: boolean } = {},
): void {
  const pods = ctx.hooks.get("/pods") ?? {};
  ctx.hooks.set("/pods", {
    ...pods,
    admitCreate(obj, c) {
      pods.admitCreate?.(obj, c);
      admitLimitRanger(c, obj);
      if (options.serviceAccounts ?? true) admitServiceAccount(c, obj);
      admitPriority(c, obj);
      admitDefaultTolerationSeconds(obj);
    },
    // Priority keeps what the create set; DefaultTolerationSeconds handles updates too (a PUT
    // without them gets them back). kube's LimitRanger and ServiceAccount leave updates alone.
    admitUpdate(obj, old, c) {
      pods.admitUpdate?.(obj, old, c);
      keepPriority(obj, old);
      admitDefaultTolerationSeconds(obj);
    },
    // kube's LimitRanger leaves pod updates alone (container resources are immutable).
    validateAdmission(obj, old, subresource) {
      pods.validateAdmission?.(obj, old, subresource);
      if (!old && !subresource) validateLimitRanger(ctx, obj);
    },
  });
  const claims = ctx.hooks.get("/persistentvolumeclaims") ?? {};
  ctx.hooks.set("/persistentvolumeclaims", {
    ...claims,
    // kube's order: DefaultStorageClass, then StorageObjectInUseProtection (creates only).
    admitCreate(obj, c) {
      claims.admitCreate?.(obj, c);
      admitDefaultStorageClass(c, obj);
      addProtectionFinalizer(obj, PVC_PROTECTION_FINALIZER);
    },
    validateAdmission(obj, old, subresource) {
      claims.validateAdmission?.(obj, old, subresource);
      if (subresource) return;
      // kube's order: LimitRanger, then PersistentVolumeClaimResize (updates only).
      validateClaimLimitRanger(ctx, obj, old);
      validateClaimResize(ctx, obj, old, subresource);
    },
  });
  const volumes = ctx.hooks.get("/persistentvolumes") ?? {};
  ctx.hooks.set("/persistentvolumes", {
    ...volumes,
    admitCreate(obj, c) {
      volumes.admitCreate?.(obj, c);
      addProtectionFinalizer(obj, PV_PROTECTION_FINALIZER);
    },
  });
}
