/**
 * `reconcileVolume`: the pure volume half of kube-controller-manager's PersistentVolume
 * binder — a PersistentVolume's phase from its claim, and its reclaim policy once the claim is
 * gone.
 *
 * ## Guarantees
 * - No `claimRef`: `Available`. A `claimRef` whose claim exists (same uid) and names this
 *   volume: `Bound`; one the claim has not taken yet: `Available`.
 * - A `claimRef` whose claim is gone (or recreated with another uid): `Released`, then the
 *   reclaim policy — `Delete` deletes the Released volume (the simulated provisioner frees its
 *   storage; the volume's `kubernetes.io/pv-protection` finalizer goes as it is not Bound), `Retain` keeps it Released for an administrator, `Recycle` scrubs it and makes
 *   it Available again.
 * - A volume being deleted still gets its phase (`Released` once its claim is gone), never a
 *   reclaim.
 * - `lastPhaseTransitionTime` changes only with the phase.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { formatTime } from "../../lib/core/time.ts";
import { deleteOp, type Op } from "../../lib/reconcile/op.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import type { ReconcileError } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import type { PersistentVolume, PersistentVolumeClaim } from "./volume_types.ts";

/** What the volume reconciler reads. */
export interface VolumeWorld {
  readonly claims: World<PersistentVolumeClaim>;
}

type Volume = DeepReadonly<PersistentVolume>;

/**
 * Plans the volume's phase, and its deletion or scrubbing once released.
 *
 * @example
 * ```ts
 * import { reconcileVolume } from "./reconcile_volume.ts";
 * import { worldFromObjects } from "../../mod.ts";
 * const pv = { metadata: { name: "pv1", uid: "v" }, spec: { persistentVolumeReclaimPolicy: "Delete",
 *   claimRef: { namespace: "ns", name: "gone", uid: "u" } }, status: { phase: "Released" } };
 * const plan = reconcileVolume(pv, { claims: worldFromObjects([]) }, { now: 0 });
 * plan._tag === "Right" && plan.right.ops[0].type; // "delete"
 * ```
 */
export function reconcileVolume(
  pv: Volume,
  world: VolumeWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  // A volume being deleted still gets its phase (pv-protection lets it go once not Bound),
  // but no reclaim.
  const deleting = pv.metadata?.deletionTimestamp !== undefined;
  const ref = pv.spec?.claimRef;
  const name = pv.metadata?.name ?? "";
  const ops: Op[] = [];
  let phase: string;
  if (!ref) phase = "Available";
  else {
    const claim = world.claims.get(`${ref.namespace}/${ref.name}`);
    const alive = claim && (!ref.uid || claim.metadata?.uid === ref.uid);
    if (alive) phase = claim.spec?.volumeName === name ? "Bound" : "Available";
    else if (ref.uid === undefined || ref.uid === "") phase = "Available"; // pre-bound, claim to come
    else {
      const policy = pv.spec?.persistentVolumeReclaimPolicy ?? "Retain";
      if (deleting) phase = "Released";
      else if (policy === "Delete") {
        // As kube's binder: Released first, then the delete, so pv-protection lets it go.
        if (pv.status?.phase === "Released") return E.right({ ops: [deleteOp(pv)] });
        phase = "Released";
      } else if (policy === "Recycle") {
        ops.push({
          type: "patch",
          ref: { apiVersion: "v1", kind: "PersistentVolume", name },
          patchType: "json",
          patch: [{ op: "remove", path: "/spec/claimRef" }],
        });
        phase = "Available";
      } else phase = "Released";
    }
  }
  const changed = pv.status?.phase !== phase;
  ops.push({
    type: "status",
    ref: { apiVersion: "v1", kind: "PersistentVolume", name },
    status: {
      phase,
      lastPhaseTransitionTime: changed || !pv.status?.lastPhaseTransitionTime
        ? formatTime(ctx.now)
        : pv.status.lastPhaseTransitionTime,
    },
  });
  return E.right({ ops });
}
