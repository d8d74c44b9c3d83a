/**
 * The volume controller specs — the PersistentVolume binder's claim and volume halves with
 * the simulated provisioner — and {@link storageControllers}, ready for `startManager`.
 *
 * @module
 */
import {
  controller,
  type ControllerSpec,
  kind,
  watch,
} from "../../lib/controller/controller_spec.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { asRecord, type KubeObject } from "../../lib/core/object.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import { type ClaimWorld, reconcileClaim } from "./reconcile_claim.ts";
import { reconcileVolume, type VolumeWorld } from "./reconcile_volume.ts";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "./volume_types.ts";

const claims = kind<PersistentVolumeClaim & HasMetadata>("v1", "PersistentVolumeClaim");
const volumes = kind<PersistentVolume & HasMetadata>("v1", "PersistentVolume");
const classes = kind<StorageClass & HasMetadata>("storage.k8s.io/v1", "StorageClass");

const keyOf = (o: HasMetadata) => objectKey(o.metadata?.namespace, o.metadata?.name ?? "");

/** The index of volumes by the claim their `claimRef` names (`namespace/name`). */
const BY_CLAIM = "claimRef";
const byClaimRef = (pv: DeepReadonly<KubeObject>): readonly string[] => {
  const ref = asRecord(asRecord(pv.spec).claimRef);
  return typeof ref.name === "string" && ref.name !== ""
    ? [objectKey(typeof ref.namespace === "string" ? ref.namespace : undefined, ref.name)]
    : [];
};

/** The index of claims not bound yet (`spec.volumeName` unset), all under one value. */
const UNBOUND = "unbound";
const byUnbound = (pvc: DeepReadonly<KubeObject>): readonly string[] =>
  asRecord(pvc.spec).volumeName ? [] : [UNBOUND];

/**
 * The claim controller spec: PersistentVolumeClaims are primary; a volume's events wake the
 * claim it names (or, when free, every unbound claim), a class's every unbound claim. The
 * unbound claims are read from an index: an event costs O(the claims it wakes).
 *
 * @example
 * ```ts
 * import { claimController } from "./volume_controllers.ts";
 * claimController().name; // "persistentvolume-binder-claims"
 * ```
 */
export function claimController(): ControllerSpec<PersistentVolumeClaim & HasMetadata, ClaimWorld> {
  let pvcs: StoreReader<PersistentVolumeClaim & HasMetadata> | undefined;
  const unbound = () => pvcs?.keysByIndex(UNBOUND, UNBOUND) ?? [];
  return controller<PersistentVolumeClaim & HasMetadata, ClaimWorld>({
    name: "persistentvolume-binder-claims",
    for: claims,
    indexers: { [UNBOUND]: byUnbound },
    watches: [
      watch(volumes, (pv) => {
        const ref = pv.spec?.claimRef;
        return ref?.name ? [objectKey(ref.namespace, ref.name)] : unbound();
      }),
      watch(classes, () => unbound()),
    ],
    world: (cache) => {
      pvcs = cache.store(claims);
      return { volumes: cache.world(volumes), classes: cache.world(classes) };
    },
    reconcile: (pvc, world, ctx) => reconcileClaim(pvc, world, ctx),
  });
}

/**
 * The volume controller spec: PersistentVolumes are primary; a claim's events wake the volume
 * it names and the volumes bound to it (so a deleted claim releases its volume), found through
 * an index by `claimRef`: a claim's event costs O(its volumes), not O(all volumes).
 *
 * @example
 * ```ts
 * import { volumeController } from "./volume_controllers.ts";
 * volumeController().for.kind; // "PersistentVolume"
 * ```
 */
export function volumeController(): ControllerSpec<PersistentVolume & HasMetadata, VolumeWorld> {
  let pvs: StoreReader<PersistentVolume & HasMetadata> | undefined;
  return controller<PersistentVolume & HasMetadata, VolumeWorld>({
    name: "persistentvolume-binder-volumes",
    for: volumes,
    watches: [
      watch(claims, (c) => {
        const named = c.spec?.volumeName ? [c.spec.volumeName] : [];
        const bound = pvs?.keysByIndex(BY_CLAIM, keyOf(c)) ?? [];
        return [...new Set([...named, ...bound])];
      }),
    ],
    indexers: { [BY_CLAIM]: byClaimRef },
    world: (cache) => {
      pvs = cache.store(volumes);
      return { claims: cache.world(claims) };
    },
    reconcile: (pv, world, ctx) => reconcileVolume(pv, world, ctx),
  });
}

/**
 * The storage controllers of the embedded cluster: the claim and volume halves of the
 * PersistentVolume binder, with the simulated provisioner of the `standard` class.
 *
 * @example
 * ```ts
 * import { storageControllers } from "./volume_controllers.ts";
 * storageControllers().length; // 2
 * ```
 */
export function storageControllers(): readonly ControllerSpec<HasMetadata, unknown>[] {
  const specs: ControllerSpec<HasMetadata, unknown>[] = [claimController(), volumeController()];
  return specs;
}
