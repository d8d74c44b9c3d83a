/**
 * The storage kinds the volume controllers read and write (kubernetes-types core/v1 and
 * storage.k8s.io/v1), and the annotations they set.
 *
 * @module
 */
import type { k8sCore, k8sMeta } from "../../lib/deps.ts";

/** A core/v1 PersistentVolumeClaim. */
export type PersistentVolumeClaim = k8sCore.PersistentVolumeClaim;
/** A core/v1 PersistentVolume. */
export type PersistentVolume = k8sCore.PersistentVolume;

/** A storage.k8s.io/v1 StorageClass, as far as the controllers read it. */
export interface StorageClass {
  /** `storage.k8s.io/v1`. */
  readonly apiVersion?: string;
  /** `StorageClass`. */
  readonly kind?: string;
  /** The class's metadata (the default class is annotated). */
  readonly metadata?: k8sMeta.ObjectMeta;
  /** Who provisions its volumes (`kubefold.dev/local-path` for the simulated provisioner). */
  readonly provisioner?: string;
  /** What happens to a provisioned volume when its claim goes: `Delete` (default) or `Retain`. */
  readonly reclaimPolicy?: string;
  /** `Immediate` (default) or `WaitForFirstConsumer`. */
  readonly volumeBindingMode?: string;
  /** Provisioner parameters. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** Mount options of its volumes. */
  readonly mountOptions?: readonly string[];
}

/** The provisioner of the embedded cluster's `standard` StorageClass. */
export const SIMULATED_PROVISIONER = "kubefold.dev/local-path";
/** The scheduler's choice of node for a WaitForFirstConsumer claim. */
export const SELECTED_NODE = "volume.kubernetes.io/selected-node";
/** Set on a claim the binder has finished binding. */
export const BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
/** Set on a claim (or volume) the binder bound, rather than a user. */
export const BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
/** Set on a claim waiting for a provisioner, naming it. */
export const STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
/** The same, under its beta name (kubectl describe and older clients read it). */
export const BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
/** Set on a provisioned volume, naming its provisioner. */
export const PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
/** The class annotation that marks the default StorageClass. */
export const DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

/**
 * The embedded cluster's default StorageClass, as kind installs it: `standard`, provisioned
 * by the simulated local-path provisioner when the first pod using a claim is scheduled.
 *
 * @example
 * ```ts
 * import { standardStorageClass } from "./volume_types.ts";
 * standardStorageClass.volumeBindingMode; // "WaitForFirstConsumer"
 * ```
 */
export const standardStorageClass: StorageClass = {
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: "standard", annotations: { [DEFAULT_CLASS]: "true" } },
  provisioner: SIMULATED_PROVISIONER,
  reclaimPolicy: "Delete",
  volumeBindingMode: "WaitForFirstConsumer",
};
