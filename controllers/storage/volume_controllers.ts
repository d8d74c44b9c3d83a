/**
 * The volume controller specs — the PersistentVolume binder's claim and volume halves with
 * the simulated provisioner — and {@link storageControllers}, ready for `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec } from "../../lib/controller/controller_spec.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import { worldFromStore } from "../../lib/reconcile/world.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { type ClaimWorld, reconcileClaim } from "./reconcile_claim.ts";
import { reconcileVolume, type VolumeWorld } from "./reconcile_volume.ts";
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from "./volume_types.ts";

const claims = { apiVersion: "v1", kind: "PersistentVolumeClaim" };
const volumes = { apiVersion: "v1", kind: "PersistentVolume" };
const classes = { apiVersion: "storage.k8s.io/v1", kind: "StorageClass" };

type Meta = { metadata?: { namespace?: string; name?: string } };
const keyOf = (o: Meta) => objectKey(o.metadata?.namespace, o.metadata?.name ?? "");

/**
 * The claim controller spec: PersistentVolumeClaims are primary; a volume's events wake the
 * claim it names (or, when free, every unbound claim), a class's every unbound claim.
 *
 * @example
 * ```ts
 * import { claimController } from "./volume_controllers.ts";
 * claimController().name; // "persistentvolume-binder-claims"
 * ```
 */
export function claimController(): ControllerSpec<PersistentVolumeClaim & HasMetadata, ClaimWorld> {
  let pvcs: StoreReader<KubeObject> | undefined;
  const unbound = () =>
    (pvcs?.list() ?? []).filter((c) => !(c as PersistentVolumeClaim).spec?.volumeName).map(keyOf);
  return controller<PersistentVolumeClaim & HasMetadata, ClaimWorld>({
    name: "persistentvolume-binder-claims",
    for: claims,
    watches: [
      {
        resource: volumes,
        keys: (pv) => {
          const ref = (pv as PersistentVolume).spec?.claimRef;
          return ref?.name ? [objectKey(ref.namespace, ref.name)] : unbound();
        },
      },
      { resource: classes, keys: () => unbound() },
    ],
    world: (cache) => {
      pvcs = cache.store(claims);
      return {
        volumes: worldFromStore(cache.store(volumes)) as unknown as World<PersistentVolume>,
        classes: worldFromStore(cache.store(classes)) as unknown as World<StorageClass>,
      };
    },
    reconcile: (pvc, world, ctx) => reconcileClaim(pvc, world, ctx),
  });
}

/**
 * The volume controller spec: PersistentVolumes are primary; a claim's events wake the volume
 * it names and the volumes bound to it (so a deleted claim releases its volume).
 *
 * @example
 * ```ts
 * import { volumeController } from "./volume_controllers.ts";
 * volumeController().for.kind; // "PersistentVolume"
 * ```
 */
export function volumeController(): ControllerSpec<PersistentVolume & HasMetadata, VolumeWorld> {
  let pvs: StoreReader<KubeObject> | undefined;
  return controller<PersistentVolume & HasMetadata, VolumeWorld>({
    name: "persistentvolume-binder-volumes",
    for: volumes,
    watches: [{
      resource: claims,
      keys: (pvc) => {
        const c = pvc as PersistentVolumeClaim;
        const named = c.spec?.volumeName ? [c.spec.volumeName] : [];
        const bound = (pvs?.list() ?? []).filter((v) => {
          const ref = (v as PersistentVolume).spec?.claimRef;
          return ref?.namespace === c.metadata?.namespace && ref?.name === c.metadata?.name;
        }).map(keyOf);
        return [...new Set([...named, ...bound])];
      },
    }],
    world: (cache) => {
      pvs = cache.store(volumes);
      return {
        claims: worldFromStore(cache.store(claims)) as unknown as World<PersistentVolumeClaim>,
      };
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
  return [claimController(), volumeController()] as unknown as ControllerSpec<
    HasMetadata,
    unknown
  >[];
}
