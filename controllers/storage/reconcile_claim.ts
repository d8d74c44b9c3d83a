/**
 * `reconcileClaim`: the pure claim half of kube-controller-manager's PersistentVolume binder,
 * with the simulated provisioner — a PersistentVolumeClaim is bound to the smallest Available
 * volume that fits, or to a volume provisioned for it, and its status says so.
 *
 * ## Guarantees
 * - A fitting volume has the claim's class, volume mode, at least its access modes and
 *   requested storage, labels its `selector` matches and, for a WaitForFirstConsumer class,
 *   node affinity that allows the node the scheduler chose; the smallest one (then by name)
 *   is taken. Binding sets the volume's `claimRef` (guarded by its resourceVersion, so two
 *   claims never take one volume) and the claim's `volumeName`.
 * - Without a fitting volume, a class whose provisioner is the simulated one provisions
 *   `pvc-<claim uid>` (capacity as requested, the class's reclaim policy, a hostPath, node
 *   affinity to the chosen node) — at once for Immediate classes, once the scheduler chose a
 *   node for WaitForFirstConsumer ones.
 * - A bound claim's status is `Bound` with the volume's access modes and capacity; a claim
 *   whose volume vanished is `Lost`; others stay `Pending`.
 *
 * ## Caveats
 * External provisioners (another `provisioner`) are left to themselves, as on a real cluster:
 * their claims stay Pending. No volume expansion, no data sources (the protection finalizers are
 * the API server's: its admission adds them, its pvc-/pv-protection controllers remove them).
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { fromLabelSelectorObject, matchesLabels } from "../../lib/core/label_selector.ts";
import { matchesNodeAffinity } from "../../lib/core/node_affinity.ts";
import type { Json, JsonObject, KubeObject } from "../../lib/core/object.ts";
import type { Op } from "../../lib/reconcile/op.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import type { ReconcileError } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { quantityValue } from "./quantity.ts";
import {
  BETA_STORAGE_PROVISIONER,
  BIND_COMPLETED,
  BOUND_BY_CONTROLLER,
  type PersistentVolume,
  type PersistentVolumeClaim,
  PROVISIONED_BY,
  SELECTED_NODE,
  SIMULATED_PROVISIONER,
  STORAGE_PROVISIONER,
  type StorageClass,
} from "./volume_types.ts";
import { compareStrings } from "../../lib/core/compare_strings.ts";

/** What the claim reconciler reads. */
export interface ClaimWorld {
  readonly volumes: World<PersistentVolume>;
  readonly classes: World<StorageClass>;
}

type Claim = DeepReadonly<PersistentVolumeClaim>;
type Volume = DeepReadonly<PersistentVolume>;

const claimRef = (c: Claim) => ({
  kind: "PersistentVolumeClaim",
  apiVersion: "v1",
  namespace: c.metadata?.namespace ?? "",
  name: c.metadata?.name ?? "",
  uid: c.metadata?.uid ?? "",
});

const requested = (c: Claim) => quantityValue(c.spec?.resources?.requests?.storage ?? "0");
const size = (v: Volume) => quantityValue(v.spec?.capacity?.storage ?? "0");

/** Whether a node (by name, with the hostname label) passes a volume's node affinity. */
function allowsNode(v: Volume, node: string): boolean {
  const required = v.spec?.nodeAffinity?.required;
  if (!required) return true;
  const probe: KubeObject = {
    spec: {
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
    },
  };
  return matchesNodeAffinity(probe, {
    metadata: { name: node, labels: { "kubernetes.io/hostname": node } },
  });
}

function fits(c: Claim, v: Volume, node: string | undefined): boolean {
  const ref = v.spec?.claimRef;
  if (
    ref && !(ref.namespace === c.metadata?.namespace && ref.name === c.metadata?.name &&
      (!ref.uid || ref.uid === c.metadata?.uid))
  ) return false;
  if (v.metadata?.deletionTimestamp || v.status?.phase === "Failed") return false;
  if ((v.spec?.storageClassName ?? "") !== (c.spec?.storageClassName ?? "")) return false;
  if ((v.spec?.volumeMode ?? "Filesystem") !== (c.spec?.volumeMode ?? "Filesystem")) return false;
  const modes = v.spec?.accessModes ?? [];
  if (!(c.spec?.accessModes ?? []).every((m) => modes.includes(m))) return false;
  if (!(size(v) >= requested(c))) return false;
  if (c.spec?.selector) {
    const sel = fromLabelSelectorObject(c.spec.selector);
    if (sel._tag === "Left" || !matchesLabels(sel.right, v.metadata?.labels ?? {})) return false;
  }
  return node === undefined || allowsNode(v, node);
}

const status = (c: Claim, phase: string, v?: Volume): Op => ({
  type: "status",
  ref: {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    namespace: c.metadata?.namespace,
    name: c.metadata?.name ?? "",
  },
  status: v
    ? {
      phase,
      accessModes: [...(v.spec?.accessModes ?? [])],
      capacity: { ...(v.spec?.capacity ?? {}) },
    }
    : { phase },
});

const patchClaim = (c: Claim, patch: JsonObject): Op => ({
  type: "patch",
  ref: {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    namespace: c.metadata?.namespace,
    name: c.metadata?.name ?? "",
  },
  patchType: "merge",
  patch,
});

const bindOps = (c: Claim, v: Volume, provisioner?: string): Op[] => [
  patchClaim(c, {
    metadata: {
      annotations: {
        [BIND_COMPLETED]: "yes",
        [BOUND_BY_CONTROLLER]: "yes",
        ...(provisioner
          ? { [STORAGE_PROVISIONER]: provisioner, [BETA_STORAGE_PROVISIONER]: provisioner }
          : {}),
      },
    },
    spec: { volumeName: v.metadata?.name ?? "" },
  }),
  status(c, "Bound", v),
];

/** The volume the simulated provisioner makes for a claim. */
export function provisionedVolume(
  c: Claim,
  cls: DeepReadonly<StorageClass>,
  node: string | undefined,
): KubeObject & PersistentVolume {
  const name = `pvc-${c.metadata?.uid}`;
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name, annotations: { [PROVISIONED_BY]: cls.provisioner ?? "" } },
    spec: {
      capacity: { storage: c.spec?.resources?.requests?.storage ?? "0" },
      accessModes: [...(c.spec?.accessModes ?? ["ReadWriteOnce"])],
      volumeMode: c.spec?.volumeMode ?? "Filesystem",
      storageClassName: cls.metadata?.name,
      persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? "Delete",
      ...(cls.mountOptions ? { mountOptions: [...cls.mountOptions] } : {}),
      claimRef: claimRef(c),
      hostPath: { path: `/var/local/kubefold/${name}`, type: "DirectoryOrCreate" },
      ...(node
        ? {
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [{
                matchExpressions: [{
                  key: "kubernetes.io/hostname",
                  operator: "In",
                  values: [node],
                }],
              }],
            },
          },
        }
        : {}),
    },
  };
}

/**
 * Plans the claim's binding, provisioning and status.
 *
 * @example
 * ```ts
 * import { reconcileClaim } from "./reconcile_claim.ts";
 * import { worldFromObjects } from "../../mod.ts";
 * const claim = { metadata: { name: "data", namespace: "ns", uid: "u1" },
 *   spec: { storageClassName: "fast", accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } };
 * const fast = { metadata: { name: "fast" }, provisioner: "kubefold.dev/local-path", volumeBindingMode: "Immediate" };
 * const plan = reconcileClaim(claim, { volumes: worldFromObjects([]), classes: worldFromObjects([fast]) }, { now: 0 });
 * plan._tag === "Right" && plan.right.ops.map((o) => o.type); // ["create", "patch", "status"]
 * ```
 */
export function reconcileClaim(
  claim: Claim,
  world: ClaimWorld,
  _ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  if (claim.metadata?.deletionTimestamp) return E.right({ ops: [] });
  const name = claim.spec?.volumeName;
  if (name) {
    const v = world.volumes.get(name);
    if (!v) return E.right({ ops: [status(claim, "Lost")] });
    const ref = v.spec?.claimRef;
    if (ref?.uid && ref.uid === claim.metadata?.uid) {
      return E.right({ ops: [status(claim, "Bound", v)] });
    }
    const ours = !ref ||
      (!ref.uid && ref.name === claim.metadata?.name &&
        ref.namespace === claim.metadata?.namespace);
    if (!ours) return E.right({ ops: [status(claim, "Pending")] }); // taken by another claim
    return E.right({ ops: [claimVolume(v, claim), status(claim, "Pending")] });
  }
  const node = claim.metadata?.annotations?.[SELECTED_NODE];
  const className = claim.spec?.storageClassName ?? "";
  const cls = className ? world.classes.get(className) : undefined;
  const waitsForConsumer = cls?.volumeBindingMode === "WaitForFirstConsumer";
  const pending = { ops: [status(claim, "Pending")] };
  if (waitsForConsumer && node === undefined) return E.right(pending);
  const candidates = world.volumes.list().filter((v) =>
    fits(claim, v, waitsForConsumer ? node : undefined)
  )
    .sort((a, b) =>
      size(a) - size(b) || compareStrings(String(a.metadata?.name), String(b.metadata?.name))
    );
  const best = candidates.find((v) => v.spec?.claimRef) ?? candidates[0];
  if (best) {
    const ops = best.spec?.claimRef
      ? bindOps(claim, best)
      : [claimVolume(best, claim), status(claim, "Pending")];
    return E.right({ ops });
  }
  if (cls?.provisioner !== SIMULATED_PROVISIONER) return E.right(pending);
  const pv = provisionedVolume(claim, cls, node);
  return E.right({
    ops: [{ type: "create", object: pv }, ...bindOps(claim, pv, cls.provisioner)],
  });
}

/** Sets a volume's claimRef, only if it is still the version this decision saw. */
function claimVolume(v: Volume, c: Claim): Op {
  const annotations: Record<string, string> = {
    ...v.metadata?.annotations,
    [BOUND_BY_CONTROLLER]: "yes",
  };
  const patch: Json = [
    { op: "test", path: "/metadata/resourceVersion", value: v.metadata?.resourceVersion ?? "" },
    { op: "add", path: "/spec/claimRef", value: claimRef(c) },
    { op: "add", path: "/metadata/annotations", value: annotations },
  ];
  return {
    type: "patch",
    ref: { apiVersion: "v1", kind: "PersistentVolume", name: v.metadata?.name ?? "" },
    patchType: "json",
    patch,
  };
}
