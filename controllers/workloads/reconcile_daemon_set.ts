/**
 * `reconcileDaemonSet`: the pure DaemonSet reconciler (apps/v1 DaemonSet owns one v1 Pod per
 * eligible node).
 *
 * ## Guarantees
 * - Eligible nodes are the Ready nodes the template fits (nodeSelector, required node
 *   affinity, taints tolerated with the DaemonSet tolerations added, the cordon tolerated).
 *   Each gets exactly one active pod, pinned by node affinity on `metadata.name`; pods on
 *   other nodes (misscheduled, lost, removed) are deleted, Failed pods are deleted and
 *   replaced, extra pods on a node are deleted (the oldest stays).
 * - `RollingUpdate` (default `maxUnavailable` 1, `maxSurge` 0; percentages of the eligible
 *   nodes, rounded up): with no surge, old pods are deleted while fewer than `maxUnavailable`
 *   eligible nodes lack an available pod (unavailable old pods go first, free); with surge, a
 *   new pod starts beside the old one on at most `maxSurge` nodes, and the old one goes once
 *   the new one is available. `OnDelete`: pods are replaced only when deleted.
 * - Status: desired/current/ready/updated/available/unavailable/misscheduled numbers and
 *   observedGeneration.
 *
 * - History: a ControllerRevision per template (`<ds>-<hash>`, see {@link planHistory}), the
 *   current one numbered highest; the pods' `controller-revision-hash` label is the hash, so
 *   `kubectl rollout history|undo ds/<name>` work.
 *
 * ## Caveats
 * NotReady nodes are not eligible (kube-controller-manager keeps pods there, tolerating the
 * node lifecycle taints this simulation does not set); `minReadySeconds` is ignored:
 * available = ready.
 *
 * @module
 */
import { E, type Either, type k8sCore } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { matchesLabels } from "../../lib/core/label_selector.ts";
import { nodeFits } from "../../lib/core/node_fit.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { childNames, hashSuffix } from "../../lib/reconcile/child_names.ts";
import { deleteOp, type Op, statusOp } from "../../lib/reconcile/op.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { isPodReady, type Pod } from "./pod_facts.ts";
import { podTemplateHash } from "./pod_template_hash.ts";
import { rollingBounds } from "./rolling_bounds.ts";
import { type ControllerRevision, planHistory } from "./controller_history.ts";
import { workloadSelector } from "./workload_selector.ts";
import {
  DAEMON_REVISION_LABEL,
  daemonPod,
  daemonPodNode,
  daemonPodSpec,
  type DaemonSet,
} from "./daemon_pods.ts";

/** A v1 Node. */
export type Node = k8sCore.Node;

/** What the DaemonSet reconciler reads from the cache. */
export interface DaemonSetWorld {
  /** Pods, with `ownedBy` answering by controller uid. */
  readonly pods: World<Pod>;
  /** Every node. */
  readonly nodes: World<Node>;
  /** ControllerRevisions, with `ownedBy` answering by controller uid (absent: no history kept). */
  readonly revisions?: World<ControllerRevision>;
}

type P = DeepReadonly<Pod>;
const finished = (p: P) => p.status?.phase === "Failed" || p.status?.phase === "Succeeded";
const available = (p: P) => p.status?.phase === "Running" && isPodReady(p);
const olderFirst = (a: P, b: P) => {
  const ta = a.metadata?.creationTimestamp ?? "", tb = b.metadata?.creationTimestamp ?? "";
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1;
};

/**
 * Reconciles one DaemonSet (see the module doc).
 *
 * @example
 * ```ts
 * import { reconcileDaemonSet } from "./reconcile_daemon_set.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const ready = { conditions: [{ type: "Ready", status: "True" }] };
 * const plan = reconcileDaemonSet({
 *   apiVersion: "apps/v1", kind: "DaemonSet",
 *   metadata: { namespace: "d", name: "agent", uid: "u1", generation: 1 },
 *   spec: { selector: { matchLabels: { app: "agent" } },
 *     template: { metadata: { labels: { app: "agent" } }, spec: { containers: [{ name: "c", image: "a" }] } } },
 * }, {
 *   pods: worldFromObjects([]),
 *   nodes: worldFromObjects([{ metadata: { name: "n1" }, status: ready }, { metadata: { name: "n2" }, status: ready }]),
 * }, { now: 0 });
 * // right({ ops: [create a pod pinned to n1, one pinned to n2, status] })
 * ```
 */
export function reconcileDaemonSet(
  ds: DeepReadonly<DaemonSet>,
  world: DaemonSetWorld,
  _ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const self = { ...ds, apiVersion: "apps/v1" as const, kind: "DaemonSet" as const };
  const uid = ds.metadata?.uid;
  const name = ds.metadata?.name ?? "";
  const namespace = ds.metadata?.namespace;
  const key = objectKey(namespace, name);
  const fail = (m: string) => E.left(terminal(`Cannot reconcile DaemonSet ${key}: ${m}`));
  if (!uid) return fail("no metadata.uid");
  const spec = ds.spec;
  const selector = workloadSelector(
    `DaemonSet ${key}`,
    spec?.selector,
    spec?.template?.metadata?.labels,
  );
  if (selector._tag === "Left") return E.left(terminal(selector.left));
  if (ds.metadata?.deletionTimestamp) return E.right({ ops: [] });
  const revision = podTemplateHash(spec?.template);
  const probe = { spec: daemonPodSpec(spec?.template?.spec) };
  const eligible = world.nodes.list()
    .filter((n) => nodeFits(probe, n))
    .map((n) => n.metadata?.name ?? "")
    .sort();
  const wanted = new Set(eligible);
  const byNode = new Map<string, P[]>();
  for (const p of world.pods.ownedBy(uid)) {
    if (!matchesLabels(selector.right, p.metadata?.labels)) continue;
    const node = daemonPodNode(p) ?? "";
    byNode.set(node, [...(byNode.get(node) ?? []), p]);
  }
  const ops: Op[] = [];
  const podRevisions = new Set(
    world.pods.ownedBy(uid).map((p) => p.metadata?.labels?.[DAEMON_REVISION_LABEL]),
  );
  // History only with a revisions world (the controller has one; bare reconciles may not).
  if (world.revisions) {
    const history = planHistory(self, world.revisions.ownedBy(uid), {
      hash: revision,
      inUse: (cr) => podRevisions.has(cr.metadata?.labels?.[DAEMON_REVISION_LABEL]),
    });
    ops.push(...history.ops);
  }
  const remove = (p: P) => ops.push(deleteOp({ ...p, apiVersion: "v1", kind: "Pod" }));
  const create = (node: string): Either<ReconcileError, void> => {
    const names = childNames(name, 1, {
      suffix: (i) => hashSuffix(`${uid}/${node}`, i),
      taken: (n) => world.pods.get(objectKey(namespace, n)) !== undefined,
    });
    if (names._tag === "Left") return names;
    ops.push({ type: "create", object: daemonPod(self, names.right[0], node, revision) });
    return E.right(undefined);
  };
  let misscheduled = 0;
  // Per node: the live pods that stay, after removing finished, extra and misplaced ones.
  const live = new Map<string, P[]>();
  for (const [node, pods] of byNode) {
    const running = pods.filter((p) => !p.metadata?.deletionTimestamp);
    if (!wanted.has(node)) {
      if (running.some((p) => !finished(p))) misscheduled++;
      running.forEach(remove);
      continue;
    }
    running.filter(finished).forEach(remove);
    live.set(node, running.filter((p) => !finished(p)).sort(olderFirst));
  }
  const rolling = spec?.updateStrategy?.type !== "OnDelete";
  const ru = spec?.updateStrategy?.rollingUpdate;
  const bounds = rollingBounds(eligible.length, ru?.maxSurge ?? 0, ru?.maxUnavailable ?? 1, {
    roundUp: true,
    field: "spec.updateStrategy.rollingUpdate",
  });
  if (bounds._tag === "Left") return fail(bounds.left);
  const { maxSurge, maxUnavailable } = bounds.right;
  const isNew = (p: P) => p.metadata?.labels?.[DAEMON_REVISION_LABEL] === revision;
  let unavailable = eligible.filter((n) => !(live.get(n) ?? []).some(available)).length;
  let surging = eligible.filter((n) => {
    const ps = live.get(n) ?? [];
    return ps.some(isNew) && ps.some((p) => !isNew(p));
  }).length;
  for (const node of eligible) {
    const pods = live.get(node) ?? [];
    if (pods.length === 0) {
      const made = create(node);
      if (made._tag === "Left") return made;
      continue;
    }
    const fresh = pods.filter(isNew), old = pods.filter((p) => !isNew(p));
    // Extra pods of one revision on a node: keep the oldest.
    for (const group of [fresh, old]) group.slice(1).forEach(remove);
    if (!rolling || old.length === 0) continue;
    const oldPod = old[0], newPod = fresh[0];
    if (newPod) {
      if (available(newPod)) remove(oldPod);
      continue;
    }
    if (maxSurge > 0) {
      if (surging < maxSurge || !available(oldPod)) {
        surging++;
        const made = create(node);
        if (made._tag === "Left") return made;
      }
    } else if (!available(oldPod)) remove(oldPod);
    else if (unavailable < maxUnavailable) {
      unavailable++;
      remove(oldPod);
    }
  }
  // Status from the pods observed on eligible nodes.
  const onEligible = eligible.map((n) => live.get(n) ?? []);
  const count = (f: (ps: P[]) => boolean) => onEligible.filter(f).length;
  const numberAvailable = count((ps) => ps.some(available));
  const status = {
    ...ds.status,
    desiredNumberScheduled: eligible.length,
    currentNumberScheduled: count((ps) => ps.length > 0),
    numberMisscheduled: misscheduled,
    numberReady: count((ps) => ps.some((p) => isPodReady(p))),
    updatedNumberScheduled: count((ps) => ps.some(isNew)),
    numberAvailable,
    numberUnavailable: eligible.length - numberAvailable,
    ...(ds.metadata?.generation !== undefined
      ? { observedGeneration: ds.metadata.generation }
      : {}),
  };
  if (!deepEqual(status, ds.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
