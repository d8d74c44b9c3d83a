/**
 * `reconcileStatefulSet`: the pure StatefulSet reconciler (apps/v1 StatefulSet owns v1 Pods
 * and creates PersistentVolumeClaims).
 *
 * ## Guarantees
 * - Pods are `<set>-<ordinal>` for ordinals `start .. start+replicas-1` (`spec.ordinals.start`,
 *   default 0); each pod's claims `<claim>-<set>-<ordinal>` are created before or with it and
 *   are never deleted with the pod, only as `persistentVolumeClaimRetentionPolicy` says:
 *   `whenScaled: Delete` deletes the claims of a scaled-away ordinal once its pod is gone;
 *   `whenDeleted: Delete` gives claims an owner reference to the set (garbage collection).
 * - `OrderedReady` (default): one pod at a time, each only once every lower ordinal is Running
 *   and Ready; scale-down removes the highest ordinal first, one at a time, and only while all
 *   kept pods are healthy. `Parallel`: all at once.
 * - Failed or Succeeded pods are deleted (and then recreated under the same name).
 * - `RollingUpdate` (default): once every pod exists and is healthy, pods of another revision
 *   are deleted from the highest ordinal down to `partition`, one at a time, each waiting
 *   for the previous to come back Ready. `OnDelete`: pods are replaced only when deleted.
 * - Revisions are `<set>-<template hash>` in the `controller-revision-hash` label, each kept
 *   as a ControllerRevision (see {@link planHistory}; `kubectl rollout history|undo sts/<n>`);
 *   `currentRevision` moves to `updateRevision` once every pod is updated and ready; a pod
 *   below the partition that is recreated gets the current revision's template.
 *   Status: replicas, readyReplicas, availableReplicas, currentReplicas, updatedReplicas,
 *   the revisions, observedGeneration, collisionCount.
 *
 * ## Caveats
 * `minReadySeconds` and `maxUnavailable` are not implemented.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { matchesLabels } from "../../lib/core/label_selector.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { deleteOp, type Op, statusOp } from "../../lib/reconcile/op.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { isPodReady, type Pod } from "./pod_facts.ts";
import { type ControllerRevision, planHistory, templateOfRevision } from "./controller_history.ts";
import { podTemplateHash } from "./pod_template_hash.ts";
import { workloadSelector } from "./workload_selector.ts";
import {
  claimName,
  ordinalOf,
  type PersistentVolumeClaim,
  REVISION_HASH_LABEL,
  setOwnerRef,
  statefulClaims,
  statefulPod,
  type StatefulSet,
} from "./stateful_set_pods.ts";

/** What the StatefulSet reconciler reads from the cache. */
export interface StatefulSetWorld {
  /** Pods, with `ownedBy` answering by controller uid. */
  readonly pods: World<Pod>;
  /** PersistentVolumeClaims, by `namespace/name`. */
  readonly claims: World<PersistentVolumeClaim>;
  /** ControllerRevisions, with `ownedBy` answering by controller uid (absent: no history kept). */
  readonly revisions?: World<ControllerRevision>;
}

type P = DeepReadonly<Pod>;
const finished = (p: P) => p.status?.phase === "Failed" || p.status?.phase === "Succeeded";
const healthy = (p: P) =>
  p.status?.phase === "Running" && isPodReady(p) && !p.metadata?.deletionTimestamp;
const revisionOf = (p: P) => p.metadata?.labels?.[REVISION_HASH_LABEL];

/**
 * Reconciles one StatefulSet (see the module doc).
 *
 * @example
 * ```ts
 * import { reconcileStatefulSet } from "./reconcile_stateful_set.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileStatefulSet({
 *   apiVersion: "apps/v1", kind: "StatefulSet",
 *   metadata: { namespace: "d", name: "db", uid: "u1", generation: 1 },
 *   spec: { replicas: 2, serviceName: "db", selector: { matchLabels: { app: "db" } },
 *     template: { metadata: { labels: { app: "db" } }, spec: { containers: [{ name: "c", image: "pg" }] } } },
 * }, { pods: worldFromObjects([]), claims: worldFromObjects([]) }, { now: 0 });
 * // right({ ops: [create d/db-0, status] }): db-1 waits until db-0 is Running and Ready
 * ```
 */
export function reconcileStatefulSet(
  set: DeepReadonly<StatefulSet>,
  world: StatefulSetWorld,
  _ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const self = { ...set, apiVersion: "apps/v1" as const, kind: "StatefulSet" as const };
  const uid = set.metadata?.uid;
  const name = set.metadata?.name ?? "";
  const namespace = set.metadata?.namespace;
  const key = objectKey(namespace, name);
  const fail = (m: string) => E.left(terminal(`Cannot reconcile StatefulSet ${key}: ${m}`));
  if (!uid) return fail("no metadata.uid");
  const spec = set.spec;
  const selector = workloadSelector(
    `StatefulSet ${key}`,
    spec?.selector,
    spec?.template?.metadata?.labels,
  );
  if (selector._tag === "Left") return E.left(terminal(selector.left));
  const replicas = spec?.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 0) {
    return fail("spec.replicas: must be a whole number >= 0");
  }
  if (set.metadata?.deletionTimestamp) return E.right({ ops: [] });
  const start = spec?.ordinals?.start ?? 0;
  const ordered = spec?.podManagementPolicy !== "Parallel";
  const rolling = spec?.updateStrategy?.type !== "OnDelete";
  const partition = rolling ? spec?.updateStrategy?.rollingUpdate?.partition ?? 0 : 0;
  const hash = podTemplateHash(spec?.template);
  const updateRevision = `${name}-${hash}`;
  const currentRevision = set.status?.currentRevision ?? updateRevision;
  const owned = world.revisions?.ownedBy(uid) ?? [];
  const podRevisions = new Set(world.pods.ownedBy(uid).map(revisionOf));
  // History only with a revisions world (the controller has one; bare reconciles may not).
  const history = world.revisions
    ? planHistory(self, owned, {
      hash,
      inUse: (cr) => podRevisions.has(cr.metadata?.name) || cr.metadata?.name === currentRevision,
    })
    : { ops: [] };
  const currentCr = owned.find((cr) => cr.metadata?.name === currentRevision);
  const currentTemplate = currentCr ? templateOfRevision(currentCr) : undefined;
  /** The pod of an ordinal: below the partition it stays at the current revision. */
  const podFor = (ordinal: number) =>
    spec && currentTemplate && ordinal < start + partition && currentRevision !== updateRevision
      ? statefulPod(
        { ...self, spec: { ...spec, template: currentTemplate } },
        ordinal,
        currentRevision,
      )
      : statefulPod(self, ordinal, updateRevision);

  const byOrdinal = new Map<number, P>();
  for (const p of world.pods.ownedBy(uid)) {
    const o = ordinalOf(name, p.metadata?.name);
    if (o !== undefined && matchesLabels(selector.right, p.metadata?.labels)) byOrdinal.set(o, p);
  }
  const ops: Op[] = [...history.ops];
  const podRef = (p: P) => deleteOp({ ...p, apiVersion: "v1", kind: "Pod" });
  /** Ordinals created by this plan, with their revisions. */
  const created = new Map<number, string>();
  const ensureClaims = (ordinal: number) => {
    for (const claim of statefulClaims(set, ordinal)) {
      if (!world.claims.get(objectKey(namespace, claim.metadata?.name ?? ""))) {
        ops.push({ type: "create", object: claim });
      }
    }
  };
  let blocked = false;
  for (let i = 0; i < replicas && !blocked; i++) {
    const ordinal = start + i;
    const pod = byOrdinal.get(ordinal);
    if (pod && finished(pod) && !pod.metadata?.deletionTimestamp) {
      ops.push(podRef(pod));
      blocked = ordered;
      continue;
    }
    if (!pod) {
      ensureClaims(ordinal);
      const pod = podFor(ordinal);
      ops.push({ type: "create", object: pod });
      created.set(ordinal, pod.metadata?.labels?.[REVISION_HASH_LABEL] ?? updateRevision);
      blocked = ordered;
      continue;
    }
    ensureClaims(ordinal);
    if (ordered && !healthy(pod)) blocked = true;
  }
  const condemned = [...byOrdinal.entries()]
    .filter(([o]) => o < start || o >= start + replicas)
    .sort(([a], [b]) => b - a);
  for (const [, pod] of condemned) {
    if (blocked) break;
    if (pod.metadata?.deletionTimestamp) {
      blocked = ordered;
      continue;
    }
    ops.push(podRef(pod));
    blocked = ordered;
  }
  // Rolling update: from the top down to the partition, one pod at a time.
  if (!blocked && rolling) {
    for (let i = replicas - 1; i >= partition; i--) {
      const pod = byOrdinal.get(start + i);
      if (!pod) break;
      if (revisionOf(pod) !== updateRevision && !pod.metadata?.deletionTimestamp) {
        ops.push(podRef(pod));
        break;
      }
      if (!healthy(pod)) break;
    }
  }
  // Claims: retention on scale-down, and the set's owner reference under whenDeleted.
  const policy = spec?.persistentVolumeClaimRetentionPolicy;
  for (const t of spec?.volumeClaimTemplates ?? []) {
    const prefix = `${t.metadata?.name}-${name}-`;
    for (const c of world.claims.list()) {
      const n = c.metadata?.name ?? "";
      if (c.metadata?.namespace !== namespace || !n.startsWith(prefix)) continue;
      const ordinal = ordinalOf(`${t.metadata?.name}-${name}`, n);
      if (ordinal === undefined || c.metadata?.deletionTimestamp) continue;
      const scaledAway = ordinal < start || ordinal >= start + replicas;
      if (policy?.whenScaled === "Delete" && scaledAway && !byOrdinal.has(ordinal)) {
        ops.push(deleteOp({ ...c, apiVersion: "v1", kind: "PersistentVolumeClaim" }));
        continue;
      }
      const refs = c.metadata?.ownerReferences ?? [];
      const has = refs.some((r) => r.uid === uid);
      const want = policy?.whenDeleted === "Delete";
      if (has !== want && claimName(t.metadata?.name ?? "", name, ordinal) === n) {
        ops.push({
          type: "patch",
          ref: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace, name: n },
          patchType: "merge",
          patch: {
            metadata: {
              ownerReferences: want
                ? [...refs, setOwnerRef(set)]
                : refs.filter((r) => r.uid !== uid),
            },
          },
        });
      }
    }
  }
  // Status, from the pods observed plus those just created.
  const live = [...byOrdinal.values()].filter((p) => !p.metadata?.deletionTimestamp);
  const deleted = new Set(ops.flatMap((o) => (o.type === "delete" ? [o.ref.uid] : [])));
  const kept = live.filter((p) => !deleted.has(p.metadata?.uid ?? ""));
  const count = (f: (p: P) => boolean) => kept.filter(f).length;
  const ready = count((p) => healthy(p));
  const createdAt = (rev: string) => [...created.values()].filter((r) => r === rev).length;
  const updated = count((p) => revisionOf(p) === updateRevision) + createdAt(updateRevision);
  const status = {
    ...set.status,
    ...(set.metadata?.generation !== undefined
      ? { observedGeneration: set.metadata.generation }
      : {}),
    replicas: kept.length + created.size,
    readyReplicas: ready,
    availableReplicas: ready,
    currentReplicas: count((p) => revisionOf(p) === currentRevision) +
      (currentRevision === updateRevision ? created.size : createdAt(currentRevision)),
    updatedReplicas: updated,
    currentRevision,
    updateRevision,
    collisionCount: set.status?.collisionCount ?? 0,
  };
  if (
    updated === replicas && ready === replicas && kept.length === replicas && created.size === 0
  ) {
    status.currentRevision = updateRevision;
    status.currentReplicas = updated;
  }
  if (!deepEqual(status, set.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
