/**
 * `reconcileVolumeSnapshot`: the pure snapshot-controller of the embedded cluster — what
 * kubernetes-csi's `snapshot-controller` does for a dynamically provisioned VolumeSnapshot.
 *
 * ## Guarantees
 * - A VolumeSnapshot of a claim gets one VolumeSnapshotContent, `snapcontent-<snapshot uid>`
 *   (cluster-scoped, not owned: it outlives nothing by garbage collection), bound back to it
 *   by `spec.volumeSnapshotRef` (with the uid), with the class's driver and deletion policy
 *   and the claim's volume as `source.volumeHandle`.
 * - Without `spec.volumeSnapshotClassName` the default class is used (the one annotated
 *   `snapshot.storage.kubernetes.io/is-default-class: "true"`) and written into the spec.
 * - The content is only created for a claim that exists, is `Bound` and is not being deleted;
 *   otherwise `status.error` says why (the snapshot-controller's words) and the snapshot is
 *   retried every 10 s.
 * - Status mirrors the bound content: `readyToUse`, `creationTime` (RFC 3339), `restoreSize`
 *   (a quantity), `error` (cleared once the content has none).
 * - A deleted snapshot deletes its content when the policy is `Delete` (finalizer
 *   `snapshot.storage.kubernetes.io/volumesnapshot-bound-protection`, added on first sight).
 *
 * ## Caveats
 * No `pvc-as-source-protection` finalizer on the claim, no pre-provisioned contents beyond
 * mirroring their status, no group snapshots, no Events.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { formatTime } from "../../lib/core/time.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { deleteOp, type Op, refOf } from "../../lib/reconcile/op.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext, Reconciler } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { withFinalizer } from "../../lib/reconcile/finalizer.ts";
import type { PersistentVolumeClaim } from "../workloads/stateful_set_pods.ts";
import { formatBytes } from "./storage_bytes.ts";
import { statusUpdate } from "./status_update.ts";
import {
  DEFAULT_SNAPSHOT_CLASS_ANNOTATION,
  SNAPSHOT_API_VERSION,
  type VolumeSnapshot,
  type VolumeSnapshotClass,
  type VolumeSnapshotContent,
} from "./types.ts";

/** The finalizer the snapshot-controller keeps on a bound VolumeSnapshot. */
export const SNAPSHOT_BOUND_FINALIZER =
  "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection";

/** How long a snapshot that cannot be taken waits before it is tried again. */
export const SNAPSHOT_RETRY_MS = 10_000;

/** What the snapshot-controller reads from the cache. */
export interface VolumeSnapshotWorld {
  readonly claims: World<PersistentVolumeClaim>;
  readonly contents: World<VolumeSnapshotContent>;
  readonly classes: World<VolumeSnapshotClass>;
}

type VS = DeepReadonly<VolumeSnapshot>;
type Content = DeepReadonly<VolumeSnapshotContent>;

/** The content a snapshot is (or will be) bound to. */
export function contentNameOf(vs: VS): string {
  return vs.spec?.source?.volumeSnapshotContentName ??
    vs.status?.boundVolumeSnapshotContentName ?? `snapcontent-${vs.metadata?.uid ?? ""}`;
}

/** The class to use: the named one, or the single default; else why not. */
function classFor(vs: VS, classes: World<VolumeSnapshotClass>) {
  const named = vs.spec?.volumeSnapshotClassName;
  if (named) {
    const c = classes.get(named);
    return c
      ? E.right(c)
      : E.left(`volumesnapshotclasses.${"snapshot.storage.k8s.io"} "${named}" not found`);
  }
  const defaults = classes.list().filter((c) =>
    c.metadata?.annotations?.[DEFAULT_SNAPSHOT_CLASS_ANNOTATION] === "true"
  );
  if (defaults.length === 1) return E.right(defaults[0]);
  return E.left(
    defaults.length === 0
      ? "cannot find default snapshot class"
      : `${defaults.length} default snapshot classes were found`,
  );
}

/** Why the claim cannot be snapshotted now, or its volume handle. */
function volumeOf(vs: VS, claims: World<PersistentVolumeClaim>): Either<string, string> {
  const claim = vs.spec?.source?.persistentVolumeClaimName ?? "";
  const pvc = claims.get(objectKey(vs.metadata?.namespace, claim));
  if (!pvc) {
    return E.left(
      `failed to retrieve PVC ${claim} from the API server: "persistentvolumeclaims \\"${claim}\\" not found"`,
    );
  }
  if (pvc.metadata?.deletionTimestamp) return E.left(`the PVC ${claim} is being deleted`);
  if (pvc.status?.phase !== "Bound" || !pvc.spec?.volumeName) {
    return E.left(`the PVC ${claim} is not yet bound to a PV, will not attempt to take a snapshot`);
  }
  return E.right(pvc.spec.volumeName);
}

/** The status a snapshot shows for its bound content. */
function mirror(content: Content) {
  const s = content.status;
  return {
    boundVolumeSnapshotContentName: content.metadata?.name ?? "",
    readyToUse: s?.readyToUse ?? false,
    creationTime: s?.creationTime !== undefined ? formatTime(s.creationTime / 1e6) : undefined,
    restoreSize: s?.restoreSize !== undefined ? formatBytes(s.restoreSize) : undefined,
    error: s?.error ? { ...s.error } : null,
  };
}

function live(vs: VS, world: VolumeSnapshotWorld, ctx: ReconcileContext): Plan {
  const uid = vs.metadata?.uid ?? "";
  const name = contentNameOf(vs);
  const content = world.contents.get(name);
  if (content && content.spec?.volumeSnapshotRef?.uid === uid) {
    return { ops: statusUpdate(vs, mirror(content), vs.status) };
  }
  if (vs.spec?.source?.volumeSnapshotContentName || content) {
    // A pre-provisioned content that is missing or bound elsewhere: report and wait.
    const why = content ? `is bound to another snapshot` : `not found`;
    return failed(vs, ctx, `VolumeSnapshotContent ${name} ${why}`);
  }
  const cls = classFor(vs, world.classes);
  if (E.isLeft(cls)) return failed(vs, ctx, `Failed to create snapshot: ${cls.left}`);
  const volume = volumeOf(vs, world.claims);
  if (E.isLeft(volume)) {
    return failed(
      vs,
      ctx,
      `Failed to create snapshot content with error failed to get input parameters to create snapshot ${vs.metadata?.name}: "${volume.left}"`,
    );
  }
  const className = cls.right.metadata?.name ?? "";
  const ops: Op[] = [{
    type: "create",
    owned: false,
    object: {
      apiVersion: SNAPSHOT_API_VERSION,
      kind: "VolumeSnapshotContent",
      metadata: { name },
      spec: {
        deletionPolicy: cls.right.deletionPolicy,
        driver: cls.right.driver,
        source: { volumeHandle: volume.right },
        volumeSnapshotClassName: className,
        volumeSnapshotRef: {
          apiVersion: SNAPSHOT_API_VERSION,
          kind: "VolumeSnapshot",
          namespace: vs.metadata?.namespace ?? "",
          name: vs.metadata?.name ?? "",
          uid,
        },
      },
    },
  }];
  if (!vs.spec?.volumeSnapshotClassName) {
    ops.push({
      type: "patch",
      ref: refOf({ ...vs, apiVersion: SNAPSHOT_API_VERSION, kind: "VolumeSnapshot" }),
      patchType: "merge",
      patch: { spec: { volumeSnapshotClassName: className } },
    });
  }
  const status = { boundVolumeSnapshotContentName: name, readyToUse: false, error: null };
  return { ops: [...ops, ...statusUpdate(vs, status, vs.status)] };
}

/** Records why no snapshot was taken (the time of the first such error is kept). */
function failed(vs: VS, ctx: ReconcileContext, message: string): Plan {
  const old = vs.status?.error;
  const error = {
    message,
    time: old?.message === message && old.time ? old.time : formatTime(ctx.now),
  };
  return {
    ops: statusUpdate(vs, { readyToUse: false, error }, vs.status),
    requeueAfterMs: SNAPSHOT_RETRY_MS,
  };
}

function cleanup(vs: VS, world: VolumeSnapshotWorld): Plan {
  const content = world.contents.get(contentNameOf(vs));
  if (!content || content.spec?.volumeSnapshotRef?.uid !== vs.metadata?.uid) return { ops: [] };
  if (content.spec?.deletionPolicy !== "Delete") return { ops: [] };
  return content.metadata?.deletionTimestamp ? { ops: [], requeueAfterMs: 1_000 } : {
    ops: [
      deleteOp({ ...content, apiVersion: SNAPSHOT_API_VERSION, kind: "VolumeSnapshotContent" }),
    ],
  };
}

const guarded: Reconciler<VolumeSnapshot, VolumeSnapshotWorld> = withFinalizer(
  SNAPSHOT_BOUND_FINALIZER,
  {
    apply: (vs, world, ctx) => E.right(live(vs, world, ctx)),
    cleanup: (vs, world) => E.right(cleanup(vs, world)),
  },
);

/**
 * Reconciles one VolumeSnapshot: binds it to a new content (or reports why it cannot), mirrors
 * the content's status, and deletes the content with the snapshot. See the module doc.
 *
 * @example
 * ```ts
 * import { reconcileVolumeSnapshot } from "./reconcile_volume_snapshot.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileVolumeSnapshot({
 *   apiVersion: "snapshot.storage.k8s.io/v1", kind: "VolumeSnapshot",
 *   metadata: { namespace: "d", name: "s", uid: "u1", finalizers: ["snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"] },
 *   spec: { source: { persistentVolumeClaimName: "data" } },
 * }, { claims: worldFromObjects([]), contents: worldFromObjects([]), classes: worldFromObjects([]) }, { now: 0 });
 * // right({ ops: [status: error "Failed to create snapshot: cannot find default snapshot class"], requeueAfterMs: 10000 })
 * ```
 */
export function reconcileVolumeSnapshot(
  vs: DeepReadonly<VolumeSnapshot>,
  world: VolumeSnapshotWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  if (!vs.metadata?.uid) {
    return E.left(
      terminal(
        `Cannot reconcile VolumeSnapshot ${
          objectKey(vs.metadata?.namespace, vs.metadata?.name ?? "")
        }: no metadata.uid`,
      ),
    );
  }
  return guarded({ ...vs, apiVersion: SNAPSHOT_API_VERSION, kind: "VolumeSnapshot" }, world, ctx);
}
