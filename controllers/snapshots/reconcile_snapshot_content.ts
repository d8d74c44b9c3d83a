/**
 * `reconcileSnapshotContent`: the simulated CSI snapshotter of the embedded cluster — what the
 * `csi-snapshotter` sidecar and a CSI driver's `CreateSnapshot` do for a VolumeSnapshotContent.
 *
 * ## Guarantees
 * - A dynamically provisioned content (with `source.volumeHandle`) becomes `readyToUse` with a
 *   `snapshotHandle` (`snap-<content uid>`), a `creationTime` (whole seconds, in Unix
 *   nanoseconds) and a `restoreSize` in bytes: the source claim's capacity, else its request.
 * - The simulation is steered by the content's class `parameters`:
 *   `simulation.kubefold.dev/snapshot-ms: "N"` — the snapshot is ready N ms (on the cluster's
 *   clock) after the content was created; `simulation.kubefold.dev/error: "message"` — the
 *   driver fails every attempt with that message (`status.error`), retried every 10 s, so
 *   removing the parameter lets the next attempt succeed.
 * - A pre-provisioned content (with `source.snapshotHandle`) is ready at once.
 * - A ready content is never changed again.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { formatTime } from "../../lib/core/time.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import type { PersistentVolumeClaim } from "../workloads/stateful_set_pods.ts";
import { storageBytes } from "./storage_bytes.ts";
import { statusUpdate } from "./status_update.ts";
import { SNAPSHOT_RETRY_MS } from "./reconcile_volume_snapshot.ts";
import {
  SNAPSHOT_API_VERSION,
  type VolumeSnapshot,
  type VolumeSnapshotClass,
  type VolumeSnapshotContent,
} from "./types.ts";

/** Class parameter: how long (ms) the simulated driver takes to cut a snapshot. */
export const SNAPSHOT_MS_PARAMETER = "simulation.kubefold.dev/snapshot-ms";
/** Class parameter: the simulated driver fails every snapshot with this message. */
export const SNAPSHOT_ERROR_PARAMETER = "simulation.kubefold.dev/error";

/** What the simulated snapshotter reads from the cache. */
export interface SnapshotContentWorld {
  readonly snapshots: World<VolumeSnapshot>;
  readonly claims: World<PersistentVolumeClaim>;
  readonly classes: World<VolumeSnapshotClass>;
}

type Content = DeepReadonly<VolumeSnapshotContent>;

/** The size of the snapshotted claim in bytes, if known. */
function sourceBytes(content: Content, world: SnapshotContentWorld): number | undefined {
  const ref = content.spec?.volumeSnapshotRef;
  const vs = world.snapshots.get(objectKey(ref?.namespace, ref?.name ?? ""));
  const claim = vs?.spec?.source?.persistentVolumeClaimName;
  const pvc = claim ? world.claims.get(objectKey(ref?.namespace, claim)) : undefined;
  return storageBytes(pvc?.status?.capacity?.storage ?? pvc?.spec?.resources?.requests?.storage);
}

/**
 * Reconciles one VolumeSnapshotContent: takes the simulated snapshot, or records the simulated
 * driver's error. See the module doc.
 *
 * @example
 * ```ts
 * import { reconcileSnapshotContent } from "./reconcile_snapshot_content.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileSnapshotContent({
 *   apiVersion: "snapshot.storage.k8s.io/v1", kind: "VolumeSnapshotContent",
 *   metadata: { name: "snapcontent-u1", uid: "c1", creationTimestamp: "2025-01-01T00:00:00Z" },
 *   spec: { deletionPolicy: "Delete", driver: "hostpath.csi.k8s.io", source: { volumeHandle: "pv-1" },
 *     volumeSnapshotRef: { namespace: "d", name: "s", uid: "u1" } },
 * }, { snapshots: worldFromObjects([]), claims: worldFromObjects([]), classes: worldFromObjects([]) },
 *   { now: Date.parse("2025-01-01T00:00:01Z") });
 * // right({ ops: [status: readyToUse true, snapshotHandle "snap-c1", creationTime 1735689601000000000] })
 * ```
 */
export function reconcileSnapshotContent(
  content: DeepReadonly<VolumeSnapshotContent>,
  world: SnapshotContentWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const self = { ...content, apiVersion: SNAPSHOT_API_VERSION, kind: "VolumeSnapshotContent" };
  const uid = content.metadata?.uid;
  if (!uid) {
    return E.left(
      terminal(`Cannot reconcile VolumeSnapshotContent ${content.metadata?.name}: no metadata.uid`),
    );
  }
  if (content.status?.readyToUse || content.metadata?.deletionTimestamp) {
    return E.right({ ops: [] });
  }
  const handle = content.spec?.source?.snapshotHandle;
  if (handle) {
    return E.right({
      ops: statusUpdate(self, { readyToUse: true, snapshotHandle: handle }, content.status),
    });
  }
  const params = world.classes.get(content.spec?.volumeSnapshotClassName ?? "")?.parameters ?? {};
  const failure = params[SNAPSHOT_ERROR_PARAMETER];
  if (failure !== undefined) {
    const message =
      `Failed to check and update snapshot content: failed to take snapshot of the volume ${
        content.spec?.source?.volumeHandle ?? ""
      }: "rpc error: code = Internal desc = ${failure}"`;
    const old = content.status?.error;
    const time = old?.message === message && old.time ? old.time : formatTime(ctx.now);
    return E.right({
      ops: statusUpdate(self, { readyToUse: false, error: { message, time } }, content.status),
      requeueAfterMs: SNAPSHOT_RETRY_MS,
    });
  }
  const created = Date.parse(content.metadata?.creationTimestamp ?? "");
  const takesMs = Number(params[SNAPSHOT_MS_PARAMETER] ?? 0) || 0;
  const readyAt = (Number.isNaN(created) ? ctx.now : created) + takesMs;
  if (ctx.now < readyAt) return E.right({ ops: [], requeueAfterMs: readyAt - ctx.now });
  const bytes = sourceBytes(content, world);
  return E.right({
    ops: statusUpdate(self, {
      readyToUse: true,
      snapshotHandle: `snap-${uid}`,
      creationTime: Math.floor(readyAt / 1000) * 1e9,
      ...(bytes !== undefined ? { restoreSize: bytes } : {}),
      error: null,
    }, content.status),
  });
}
