/**
 * `reconcilePodDisruptionBudget`: the pure disruption controller — a PodDisruptionBudget's
 * status (`expectedPods`, `currentHealthy`, `desiredHealthy`, `disruptionsAllowed`,
 * `disruptedPods`, the `DisruptionAllowed` condition) from the pods it selects and the scale of
 * their controllers, as kube-controller-manager's disruption controller computes it. The
 * eviction subresource spends `disruptionsAllowed`; this reconciler gives it back.
 *
 * ## Guarantees
 * - `minAvailable: N` needs N healthy pods of those selected; `minAvailable: X%` and
 *   `maxUnavailable` are taken of the expected count: the summed replicas of the selected pods'
 *   controllers (ReplicaSet — or its Deployment —, StatefulSet, ReplicationController);
 *   percentages round up.
 * - A pod is healthy when Ready, not being deleted, and not in `disruptedPods` (evicted less
 *   than two minutes ago); entries for pods gone, deleting or older than that are dropped,
 *   and the controller looks again when the next one expires.
 * - `disruptionsAllowed = max(0, currentHealthy - desiredHealthy)`, 0 when nothing is
 *   expected; `observedGeneration` is the budget's generation.
 *
 * ## Caveats
 * Pods without a known controller count only for `minAvailable: N`; scale subresources of
 * custom resources are not consulted.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { formatTime } from "../../lib/core/time.ts";
import { fromLabelSelectorObject, matchesLabels } from "../../lib/core/label_selector.ts";
import type { k8sMeta } from "../../lib/deps.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import type { ReconcileError } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { isPodReady, type Pod } from "./pod_facts.ts";

/** A policy/v1 PodDisruptionBudget, as far as the controller reads it. */
export interface PodDisruptionBudget {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: k8sMeta.ObjectMeta;
  readonly spec?: {
    readonly selector?: k8sMeta.LabelSelector;
    readonly minAvailable?: number | string;
    readonly maxUnavailable?: number | string;
  };
  readonly status?: {
    readonly disruptedPods?: Readonly<Record<string, string>>;
    readonly conditions?: readonly k8sMeta.Condition[];
    readonly [k: string]: unknown;
  };
}

/** Something with replicas and a controller reference of its own (a ReplicaSet's Deployment). */
export interface Scalable {
  readonly metadata?: k8sMeta.ObjectMeta;
  readonly spec?: { readonly replicas?: number };
}

/** What the reconciler reads: pods and the controllers whose scale sets the expected count. */
export interface DisruptionWorld {
  readonly pods: World<Pod>;
  /** Controllers by kind: ReplicaSet, Deployment, StatefulSet, ReplicationController. */
  readonly controllers: Readonly<Record<string, World<Scalable>>>;
}

/** How long an evicted pod is expected to go before it counts as healthy again (2 min). */
export const DELETION_TIMEOUT_MS = 120_000;

const controllerOf = (o: DeepReadonly<{ metadata?: k8sMeta.ObjectMeta }>) =>
  o.metadata?.ownerReferences?.find((r) => r.controller);

/** `N` or `X%` of `total`, rounded up. */
function scaledValue(v: number | string, total: number): number {
  if (typeof v === "number") return v;
  const m = /^(\d+)%$/.exec(v);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : Number(v) || 0;
}

/** The summed replicas of the pods' controllers (a Deployment for its ReplicaSets). */
function expectedScale(
  pods: readonly DeepReadonly<Pod>[],
  ns: string,
  controllers: DisruptionWorld["controllers"],
): number {
  const seen = new Map<string, number>();
  for (const pod of pods) {
    let ref = controllerOf(pod);
    if (!ref) continue;
    let owner = controllers[ref.kind]?.get(`${ns}/${ref.name}`);
    if (ref.kind === "ReplicaSet" && owner) {
      const up = controllerOf(owner);
      const deployment = up?.kind === "Deployment"
        ? controllers.Deployment?.get(`${ns}/${up.name}`)
        : undefined;
      if (up && deployment) [ref, owner] = [up, deployment];
    }
    if (!owner || owner.metadata?.uid !== ref.uid) continue;
    seen.set(`${ref.kind}/${ref.name}`, owner.spec?.replicas ?? 1);
  }
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

/**
 * Plans the budget's status (one status op when it changes; a requeue when an eviction
 * record expires later).
 *
 * @example
 * ```ts
 * import { reconcilePodDisruptionBudget } from "./reconcile_pod_disruption_budget.ts";
 * import { worldFromObjects } from "../../mod.ts";
 * const pdb = { metadata: { name: "web", namespace: "ns", generation: 1 }, spec: { minAvailable: 1, selector: { matchLabels: { app: "web" } } } };
 * const ready = (name: string) => ({ metadata: { name, namespace: "ns", labels: { app: "web" } },
 *   status: { conditions: [{ type: "Ready", status: "True" }] } });
 * const plan = reconcilePodDisruptionBudget(pdb, { pods: worldFromObjects([ready("a"), ready("b")]), controllers: {} }, { now: 0 });
 * plan._tag === "Right" && plan.right.ops[0].type === "status" && plan.right.ops[0].status.disruptionsAllowed; // 1
 * ```
 */
export function reconcilePodDisruptionBudget(
  pdb: DeepReadonly<PodDisruptionBudget>,
  world: DisruptionWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const ns = pdb.metadata?.namespace ?? "";
  const sel = pdb.spec?.selector;
  const parsed = sel ? fromLabelSelectorObject(sel) : undefined;
  const selector = parsed?._tag === "Right" && parsed.right.length ? parsed.right : undefined;
  const pods = selector
    ? world.pods.list().filter((p) =>
      p.metadata?.namespace === ns && matchesLabels(selector, p.metadata?.labels ?? {})
    )
    : [];
  const { minAvailable, maxUnavailable } = pdb.spec ?? {};
  let expected = pods.length, desired = 0;
  if (maxUnavailable !== undefined) {
    expected = expectedScale(pods, ns, world.controllers);
    desired = Math.max(0, expected - scaledValue(maxUnavailable, expected));
  } else if (typeof minAvailable === "number") {
    desired = minAvailable;
  } else if (minAvailable !== undefined) {
    expected = expectedScale(pods, ns, world.controllers);
    desired = scaledValue(minAvailable, expected);
  }
  const byName = new Map(pods.map((p) => [p.metadata?.name ?? "", p]));
  const disrupted: Record<string, string> = {};
  let nextExpiry = Infinity;
  for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const pod = byName.get(name);
    const until = Date.parse(String(at)) + DELETION_TIMEOUT_MS;
    if (!pod || pod.metadata?.deletionTimestamp || !(until > ctx.now)) continue;
    disrupted[name] = String(at);
    nextExpiry = Math.min(nextExpiry, until);
  }
  const healthy =
    pods.filter((p) =>
      !p.metadata?.deletionTimestamp && isPodReady(p) && !((p.metadata?.name ?? "") in disrupted)
    ).length;
  const allowed = expected <= 0 ? 0 : Math.max(0, healthy - desired);
  const generation = pdb.metadata?.generation ?? 0;
  const previous = pdb.status?.conditions?.find((c) => c.type === "DisruptionAllowed");
  const condStatus = allowed > 0 ? "True" : "False";
  const condition = {
    type: "DisruptionAllowed",
    status: condStatus,
    observedGeneration: generation,
    lastTransitionTime: previous?.status === condStatus
      ? previous.lastTransitionTime
      : formatTime(ctx.now),
    reason: allowed > 0 ? "SufficientPods" : "InsufficientPods",
    message: "",
  };
  const status = {
    ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: allowed,
    currentHealthy: healthy,
    desiredHealthy: desired,
    expectedPods: expected,
    observedGeneration: generation,
    conditions: [condition],
  };
  const ops = [{
    type: "status" as const,
    ref: {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      namespace: ns,
      name: pdb.metadata?.name ?? "",
    },
    status,
  }];
  return E.right({
    ops,
    ...(Number.isFinite(nextExpiry) ? { requeueAfterMs: Math.max(0, nextExpiry - ctx.now) } : {}),
  });
}
