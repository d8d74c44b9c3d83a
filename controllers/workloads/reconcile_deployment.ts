/**
 * `reconcileDeployment`: the pure Deployment reconciler (apps/v1 Deployment owns ReplicaSets).
 *
 * ## Guarantees
 * - The ReplicaSet of the current pod template is `<deployment>-<hash>` (see
 *   {@link podTemplateHash}), found by its `pod-template-hash` label; its selector and
 *   template labels carry that label. A name held by anything else picks the next hash.
 * - Sizes follow {@link planRollout} (RollingUpdate within maxSurge/maxUnavailable, or
 *   Recreate); `spec.paused` creates nothing and only resizes a lone active ReplicaSet.
 * - Revisions: the new ReplicaSet gets `deployment.kubernetes.io/revision` one above the
 *   old ones' highest (kept when already highest), and the Deployment carries the same; a
 *   ReplicaSet that becomes current again (a rollback) keeps its earlier revisions in
 *   `deployment.kubernetes.io/revision-history`. ReplicaSets get the Deployment's
 *   annotations (`kubernetes.io/change-cause` for `kubectl rollout history`).
 * - At most `revisionHistoryLimit` (default 10) old ReplicaSets scaled to 0 with no pods
 *   are kept; older ones are deleted.
 * - Status is computed from the observed ReplicaSets' statuses (see
 *   {@link deploymentStatus}); a status that would not change is not written.
 *
 * @module
 */
import { E, type Either, type k8sApps } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import type { JsonObject, KubeObject } from "../../lib/core/object.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { deleteOp, type Op, refOf, statusOp } from "../../lib/reconcile/op.ts";
import { ownerReference } from "../../lib/reconcile/owner_reference.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { deploymentStatus, type RsStatusCounts } from "./deployment_status.ts";
import { planRollout, type RolloutStrategy } from "./plan_rollout.ts";
import { POD_TEMPLATE_HASH_LABEL, podTemplateHash } from "./pod_template_hash.ts";
import { rollingBounds } from "./rolling_bounds.ts";
import type { ReplicaSet } from "./reconcile_replica_set.ts";
import { workloadSelector } from "./workload_selector.ts";

/** An apps/v1 Deployment. */
export type Deployment = k8sApps.Deployment;

/** The annotation holding a Deployment's and its ReplicaSets' revision. */
export const REVISION_ANNOTATION = "deployment.kubernetes.io/revision";

/**
 * The annotation of a ReplicaSet listing the revisions it had before a rollback made it
 * current again (comma-separated, oldest first).
 */
export const REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history";

/** kube-controller-manager's cap on the length of the revision history annotation. */
const REVISION_HISTORY_LIMIT_CHARS = 2000;

/** Annotations the Deployment controller never copies to its ReplicaSets. */
const NOT_COPIED = new Set([
  "kubectl.kubernetes.io/last-applied-configuration",
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  "deployment.kubernetes.io/desired-replicas",
  "deployment.kubernetes.io/max-replicas",
  "deprecated.deployment.rollback.to",
]);

/** The Deployment's annotations a ReplicaSet lacks (e.g. `kubernetes.io/change-cause`). */
function copiedAnnotations(
  deployment: DeepReadonly<Deployment>,
  rs: Rs | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(deployment.metadata?.annotations ?? {})) {
    if (!NOT_COPIED.has(k) && rs?.metadata?.annotations?.[k] !== v) out[k] = v;
  }
  return out;
}

/**
 * The revision history with `old` appended, dropping the oldest entries to stay within 2000
 * characters (kube's `SetNewReplicaSetAnnotations`); `undefined` when even that cannot fit.
 */
export function revisionHistory(current: string, old: string): string | undefined {
  if (current === "") return old;
  const revisions = current.split(",");
  let total = current.length + old.length + 1;
  let start = 0;
  while (total > REVISION_HISTORY_LIMIT_CHARS && start < revisions.length) {
    total -= revisions[start].length + 1;
    start++;
  }
  return total <= REVISION_HISTORY_LIMIT_CHARS
    ? [...revisions.slice(start), old].join(",")
    : undefined;
}

/** What the Deployment reconciler reads from the cache. */
export interface DeploymentWorld {
  /** ReplicaSets, with `ownedBy` answering by controller uid. */
  readonly replicaSets: World<ReplicaSet>;
}

type Rs = DeepReadonly<ReplicaSet>;
const revisionOf = (rs: Rs) =>
  Number.parseInt(rs.metadata?.annotations?.[REVISION_ANNOTATION] ?? "", 10) || 0;
const hashOf = (rs: Rs) =>
  rs.spec?.template?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] ??
    rs.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL];
const counts = (rs: Rs): RsStatusCounts => ({
  name: rs.metadata?.name ?? "",
  replicas: rs.spec?.replicas ?? 1,
  current: rs.status?.replicas ?? 0,
  available: rs.status?.availableReplicas ?? 0,
  ready: rs.status?.readyReplicas ?? 0,
});
const olderFirst = (a: Rs, b: Rs) => {
  const ra = revisionOf(a), rb = revisionOf(b);
  if (ra !== rb) return ra - rb;
  const ta = a.metadata?.creationTimestamp ?? "", tb = b.metadata?.creationTimestamp ?? "";
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata?.name ?? "", nb = b.metadata?.name ?? "";
  return na < nb ? -1 : na > nb ? 1 : 0;
};

/**
 * Reconciles one Deployment: the plan that creates, resizes and prunes its ReplicaSets and
 * reports status. See the module doc for the guarantees.
 *
 * @param deployment the Deployment (from the cache)
 * @param world the cached ReplicaSets
 * @param ctx the time
 * @returns the plan, or a terminal error for a Deployment without uid or with an invalid spec
 *
 * @example
 * ```ts
 * import { reconcileDeployment } from "./reconcile_deployment.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileDeployment({
 *   apiVersion: "apps/v1", kind: "Deployment",
 *   metadata: { namespace: "d", name: "web", uid: "u1", generation: 1 },
 *   spec: { replicas: 2, selector: { matchLabels: { app: "web" } },
 *     template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
 * }, { replicaSets: worldFromObjects([]) }, { now: 0 });
 * // right({ ops: [create d/web-<hash> with 2 replicas, patch revision "1", status] })
 * ```
 */
export function reconcileDeployment(
  deployment: DeepReadonly<Deployment>,
  world: DeploymentWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const self = { ...deployment, apiVersion: "apps/v1", kind: "Deployment" };
  const uid = deployment.metadata?.uid;
  const name = deployment.metadata?.name ?? "";
  const namespace = deployment.metadata?.namespace;
  const key = objectKey(namespace, name);
  const fail = (m: string) => E.left(terminal(`Cannot reconcile Deployment ${key}: ${m}`));
  if (!uid) return fail("no metadata.uid");
  const spec = deployment.spec;
  const template = spec?.template;
  const labels = template?.metadata?.labels ?? {};
  const selector = workloadSelector(`Deployment ${key}`, spec?.selector, labels);
  if (selector._tag === "Left") return E.left(terminal(selector.left));
  const replicas = spec?.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 0) {
    return fail("spec.replicas: must be a whole number >= 0");
  }
  let strategy: RolloutStrategy;
  if (spec?.strategy?.type === "Recreate") strategy = { type: "Recreate" };
  else {
    const ru = spec?.strategy?.rollingUpdate;
    const bounds = rollingBounds(replicas, ru?.maxSurge, ru?.maxUnavailable);
    if (bounds._tag === "Left") return fail(bounds.left);
    strategy = { type: "RollingUpdate", ...bounds.right };
  }
  const paused = spec?.paused === true;
  const owned = world.replicaSets.ownedBy(uid).filter((rs) => !rs.metadata?.deletionTimestamp);
  // The new ReplicaSet: the first hash whose name is ours or free.
  let newRs: Rs | undefined;
  let hash = "";
  for (let c = 0;; c++) {
    if (c > 20) return fail("metadata.name: no free ReplicaSet name for the pod template");
    hash = podTemplateHash(template, c);
    newRs = owned.find((rs) => hashOf(rs) === hash);
    if (newRs || !world.replicaSets.get(objectKey(namespace, `${name}-${hash}`))) break;
  }
  const olds = owned.filter((rs) => rs !== newRs).sort(olderFirst);
  const maxOld = olds.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
  const revision = newRs && revisionOf(newRs) > maxOld ? revisionOf(newRs) : maxOld + 1;
  const decision = planRollout({
    replicas,
    strategy,
    paused,
    ...(newRs ? { newRs: counts(newRs) } : {}),
    olds: olds.map(counts),
  });
  const ops: Op[] = [];
  const rsRef = (rs: Rs) => refOf({ ...rs, apiVersion: "apps/v1", kind: "ReplicaSet" });
  for (const rs of olds) {
    const to = decision.scale.get(rs.metadata?.name ?? "");
    if (to === undefined || to === rs.spec?.replicas) continue;
    ops.push({
      type: "patch",
      ref: rsRef(rs),
      patchType: "merge",
      patch: { spec: { replicas: to } },
    });
  }
  if (newRs) {
    const patch: { metadata?: JsonObject; spec?: JsonObject } = {};
    const annotations = copiedAnnotations(deployment, newRs);
    if (revisionOf(newRs) !== revision) {
      annotations[REVISION_ANNOTATION] = String(revision);
      // A rollback to this ReplicaSet: its earlier revision joins its history.
      const old = newRs.metadata?.annotations?.[REVISION_ANNOTATION];
      if (old && revisionOf(newRs) < revision) {
        const history = revisionHistory(
          newRs.metadata?.annotations?.[REVISION_HISTORY_ANNOTATION] ?? "",
          old,
        );
        if (history !== undefined) annotations[REVISION_HISTORY_ANNOTATION] = history;
      }
    }
    if (Object.keys(annotations).length) patch.metadata = { annotations };
    const to = decision.newReplicas;
    if (to !== undefined && to !== newRs.spec?.replicas) patch.spec = { replicas: to };
    if (patch.metadata || patch.spec) {
      ops.push({ type: "patch", ref: rsRef(newRs), patchType: "merge", patch });
    }
  } else if (decision.newReplicas !== undefined) {
    const withHash = { ...labels, [POD_TEMPLATE_HASH_LABEL]: hash };
    const created: DeepReadonly<KubeObject> = {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name: `${name}-${hash}`,
        ...(namespace ? { namespace } : {}),
        labels: withHash,
        annotations: {
          ...copiedAnnotations(deployment, undefined),
          [REVISION_ANNOTATION]: String(revision),
        },
        ownerReferences: [ownerReference(self)],
      },
      spec: {
        replicas: decision.newReplicas,
        ...(spec?.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
        selector: {
          ...spec?.selector,
          matchLabels: { ...spec?.selector?.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash },
        },
        template: { ...template, metadata: { ...template?.metadata, labels: withHash } },
      },
    };
    ops.push({ type: "create", object: created });
  }
  // Revision history: delete the oldest empty ReplicaSets beyond the limit.
  const limit = spec?.revisionHistoryLimit ?? 10;
  const empty = olds.filter((rs) =>
    (decision.scale.get(rs.metadata?.name ?? "") ?? rs.spec?.replicas ?? 1) === 0 &&
    (rs.status?.replicas ?? 0) === 0
  );
  for (const rs of empty.slice(0, Math.max(0, empty.length - limit))) {
    ops.push(deleteOp({ ...rs, apiVersion: "apps/v1", kind: "ReplicaSet" }));
  }
  if (
    (newRs || decision.newReplicas !== undefined) &&
    deployment.metadata?.annotations?.[REVISION_ANNOTATION] !== String(revision)
  ) {
    ops.push({
      type: "patch",
      ref: refOf(self),
      patchType: "merge",
      patch: { metadata: { annotations: { [REVISION_ANNOTATION]: String(revision) } } },
    });
  }
  const maxUnavailable = strategy.type === "RollingUpdate" ? strategy.maxUnavailable : 0;
  const generation = deployment.metadata?.generation;
  const status = deploymentStatus({
    observed: deployment.status,
    replicas,
    minAvailable: replicas - maxUnavailable,
    paused,
    ...(newRs ? { newRs: counts(newRs) } : {}),
    olds: olds.map(counts),
    ...(generation !== undefined ? { generation } : {}),
    now: ctx.now,
  });
  if (!deepEqual(status, deployment.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
