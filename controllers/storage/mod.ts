/**
 * Storage for the embedded cluster, built with kubefold: the PersistentVolume binder (claims
 * bound to fitting volumes, released volumes reclaimed) and a simulated provisioner behind the
 * default `standard` StorageClass (WaitForFirstConsumer, as kind's). Pure reconcilers, run by
 * `startCluster` beside the workload controllers.
 *
 * @example
 * ```ts
 * import { standardStorageClass, storageControllers } from "./mod.ts";
 * [standardStorageClass.metadata?.name, storageControllers().length]; // ["standard", 2]
 * ```
 *
 * @module
 */
export { claimController, storageControllers, volumeController } from "./volume_controllers.ts";
export { type ClaimWorld, provisionedVolume, reconcileClaim } from "./reconcile_claim.ts";
export { reconcileVolume, type VolumeWorld } from "./reconcile_volume.ts";
export { quantityValue } from "./quantity.ts";
export {
  BETA_STORAGE_PROVISIONER,
  BIND_COMPLETED,
  BOUND_BY_CONTROLLER,
  DEFAULT_CLASS,
  type PersistentVolume,
  type PersistentVolumeClaim,
  PROVISIONED_BY,
  SELECTED_NODE,
  SIMULATED_PROVISIONER,
  standardStorageClass,
  STORAGE_PROVISIONER,
  type StorageClass,
} from "./volume_types.ts";
