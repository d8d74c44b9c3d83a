/**
 * The controller specs of the embedded cluster's CSI snapshot support: the snapshot-controller
 * (VolumeSnapshot -> VolumeSnapshotContent) and the simulated CSI snapshotter (content ->
 * ready), plus the default VolumeSnapshotClass the cluster installs.
 *
 * @module
 */
import {
  controller,
  type ControllerSpec,
  kind,
  watch,
} from "../../lib/controller/controller_spec.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { PersistentVolumeClaim } from "../workloads/stateful_set_pods.ts";
import type { ClusterClock } from "../workloads/cluster_clock.ts";
import { onClock } from "../workloads/on_clock.ts";
import {
  contentNameOf,
  reconcileVolumeSnapshot,
  type VolumeSnapshotWorld,
} from "./reconcile_volume_snapshot.ts";
import {
  reconcileSnapshotContent,
  type SnapshotContentWorld,
} from "./reconcile_snapshot_content.ts";
import {
  DEFAULT_SNAPSHOT_CLASS_ANNOTATION,
  SNAPSHOT_API_VERSION,
  type VolumeSnapshot,
  type VolumeSnapshotClass,
  type VolumeSnapshotContent,
} from "./types.ts";

const snapshots = kind<VolumeSnapshot & HasMetadata>(SNAPSHOT_API_VERSION, "VolumeSnapshot");
const contents = kind<VolumeSnapshotContent & HasMetadata>(
  SNAPSHOT_API_VERSION,
  "VolumeSnapshotContent",
);
const classes = kind<VolumeSnapshotClass & HasMetadata>(
  SNAPSHOT_API_VERSION,
  "VolumeSnapshotClass",
);
const claims = kind<PersistentVolumeClaim & HasMetadata>("v1", "PersistentVolumeClaim");
const none = () => [];

/** The CSI driver the simulated snapshotter stands for. */
export const SIMULATED_SNAPSHOT_DRIVER = "hostpath.csi.k8s.io";

/**
 * The VolumeSnapshotClass the embedded cluster installs: `standard`, the default class of the
 * simulated driver, deletion policy `Delete`.
 *
 * @example
 * ```ts
 * import { defaultSnapshotClass } from "./snapshot_controllers.ts";
 * defaultSnapshotClass.metadata?.name; // "standard"
 * ```
 */
export const defaultSnapshotClass: VolumeSnapshotClass = {
  apiVersion: SNAPSHOT_API_VERSION,
  kind: "VolumeSnapshotClass",
  metadata: { name: "standard", annotations: { [DEFAULT_SNAPSHOT_CLASS_ANNOTATION]: "true" } },
  driver: SIMULATED_SNAPSHOT_DRIVER,
  deletionPolicy: "Delete",
};

/**
 * The snapshot-controller spec: VolumeSnapshots are primary; their contents, their source
 * claims and the classes wake them.
 *
 * @example
 * ```ts
 * import { volumeSnapshotController } from "./snapshot_controllers.ts";
 * volumeSnapshotController().name; // "snapshot-controller"
 * ```
 */
export function volumeSnapshotController(): ControllerSpec<
  VolumeSnapshot & HasMetadata,
  VolumeSnapshotWorld
> {
  let store: StoreReader<VolumeSnapshot & HasMetadata> | undefined;
  // A claim wakes the snapshots taken of it (e.g. once it is bound).
  const ofClaim = (
    c: { readonly metadata?: { readonly namespace?: string; readonly name?: string } },
  ) =>
    (store?.list() ?? []).flatMap((vs) => {
      return vs.metadata?.namespace === c.metadata?.namespace &&
          vs.spec?.source?.persistentVolumeClaimName === c.metadata?.name
        ? [objectKey(vs.metadata?.namespace, vs.metadata?.name ?? "")]
        : [];
    });
  return controller<VolumeSnapshot & HasMetadata, VolumeSnapshotWorld>({
    name: "snapshot-controller",
    for: snapshots,
    writes: [
      { resource: snapshots, ops: ["patch", "status"] },
      { resource: contents, ops: ["create", "delete"] },
    ],
    watches: [
      watch(contents, (content) => {
        const ref = content.spec?.volumeSnapshotRef;
        return ref?.name ? [objectKey(ref.namespace, ref.name)] : [];
      }),
      watch(claims, (c) => ofClaim(c)),
      watch(classes, none),
    ],
    world: (cache) => {
      store = cache.store(snapshots);
      return {
        claims: cache.world(claims),
        contents: cache.world(contents),
        classes: cache.world(classes),
      };
    },
    reconcile: (vs, world, ctx) => reconcileVolumeSnapshot(vs, world, ctx),
  });
}

/**
 * The simulated CSI snapshotter spec: VolumeSnapshotContents are primary; the snapshots bound
 * to them wake them.
 *
 * @example
 * ```ts
 * import { snapshotContentController } from "./snapshot_controllers.ts";
 * snapshotContentController().for.kind; // "VolumeSnapshotContent"
 * ```
 */
export function snapshotContentController(): ControllerSpec<
  VolumeSnapshotContent & HasMetadata,
  SnapshotContentWorld
> {
  return controller<VolumeSnapshotContent & HasMetadata, SnapshotContentWorld>({
    name: "csi-snapshotter",
    for: contents,
    writes: [{ resource: contents, ops: ["status"] }],
    watches: [
      watch(snapshots, (vs) => [contentNameOf(vs)]),
      watch(claims, none),
      watch(classes, none),
    ],
    world: (cache) => ({
      snapshots: cache.world(snapshots),
      claims: cache.world(claims),
      classes: cache.world(classes),
    }),
    reconcile: (c, world, ctx) => reconcileSnapshotContent(c, world, ctx),
  });
}

/**
 * Both snapshot controllers, on the cluster's clock, ready for `startManager`.
 *
 * @example
 * ```ts
 * import { snapshotControllers } from "./snapshot_controllers.ts";
 * snapshotControllers().map((c) => c.name); // ["snapshot-controller", "csi-snapshotter"]
 * ```
 */
export function snapshotControllers(
  options: { readonly clock?: ClusterClock } = {},
): readonly ControllerSpec<HasMetadata, unknown>[] {
  const specs: ControllerSpec<HasMetadata, unknown>[] = [
    volumeSnapshotController(),
    snapshotContentController(),
  ];
  return specs.map((spec) => onClock(spec, options.clock));
}
