/**
 * `decideEviction()`: what the `pods/eviction` subresource does with a pod and the
 * PodDisruptionBudgets of its namespace — kube-apiserver's EvictionREST as a pure function.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { asRecord, isPlainObject } from "../core/object.ts";
import { failure, type Status } from "../core/status.ts";
import { fromLabelSelectorObject, matchesLabels } from "../core/label_selector.ts";

type Obj = Record<string, unknown>;
const num = (v: unknown) => (typeof v === "number" ? v : 0);

/** The outcome of an eviction request. */
export type EvictionDecision =
  /** Delete the pod; with `budget`, first write this status to that PDB (decremented). */
  | { readonly type: "delete"; readonly budget?: { readonly name: string; readonly status: Obj } }
  /** Refuse with this Status (429 while the budget allows no disruption). */
  | { readonly type: "refuse"; readonly status: Status };

/** Whether a pod's Ready condition is True. */
function podReady(pod: KubeObject): boolean {
  const conds = asRecord(pod.status).conditions;
  return Array.isArray(conds) &&
    conds.some((c) => isPlainObject(c) && c.type === "Ready" && c.status === "True");
}

/** Terminal, pending or already deleting pods have disrupted nothing more by going. */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = asRecord(pod.status).phase;
  return phase === "Succeeded" || phase === "Failed" || phase === "Pending" ||
    !!pod.metadata?.deletionTimestamp;
}

/** The PDBs whose (non-empty) selector matches the pod. */
export function budgetsOf(pod: KubeObject, pdbs: readonly KubeObject[]): KubeObject[] {
  return pdbs.filter((pdb) => {
    if (pdb.metadata?.namespace !== pod.metadata?.namespace) return false;
    const sel = asRecord(pdb.spec).selector;
    if (!isPlainObject(sel)) return false;
    const parsed = fromLabelSelectorObject(sel);
    if (parsed._tag === "Left" || parsed.right.length === 0) return false;
    return matchesLabels(parsed.right, pod.metadata?.labels ?? {});
  });
}

const MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
const tooMany = (cause: string, retryAfterSeconds: number): Status => ({
  ...failure("TooManyRequests", MESSAGE),
  details: { causes: [{ reason: "DisruptionBudget", message: cause }], retryAfterSeconds },
});

/**
 * Decides an eviction: pods that can ignore budgets, or that no budget selects, are deleted;
 * more than one budget is refused (500); a budget not yet processed by the disruption
 * controller, or with no disruption allowed, answers 429 with its cause; otherwise the budget's
 * `disruptionsAllowed` is decremented and the pod recorded in `disruptedPods` before deletion.
 * An unready pod is deleted without spending the budget when the budget is healthy anyway.
 *
 * @example
 * ```ts
 * import { decideEviction } from "./decide_eviction.ts";
 * const pod = { metadata: { name: "p", namespace: "ns", labels: { app: "web" } }, status: { phase: "Running" } };
 * const pdb = { metadata: { name: "web", namespace: "ns", generation: 1 }, spec: { selector: { matchLabels: { app: "web" } } },
 *   status: { observedGeneration: 1, disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 2 } };
 * const d = decideEviction(pod, [pdb], "2025-01-01T00:00:00Z");
 * d.type === "refuse" && d.status.code; // 429
 * ```
 */
export function decideEviction(
  pod: KubeObject,
  pdbs: readonly KubeObject[],
  now: string,
): EvictionDecision {
  if (canIgnoreBudget(pod)) return { type: "delete" };
  const budgets = budgetsOf(pod, pdbs);
  if (budgets.length > 1) {
    return {
      type: "refuse",
      status: {
        ...failure(
          "InternalError",
          "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
        ),
        reason: undefined,
        code: 500,
      },
    };
  }
  if (budgets.length === 0) return { type: "delete" };
  const pdb = budgets[0];
  const name = pdb.metadata!.name!;
  const status = asRecord(pdb.status);
  if (
    !podReady(pod) && num(status.currentHealthy) >= num(status.desiredHealthy) &&
    num(status.desiredHealthy) > 0
  ) {
    return { type: "delete" };
  }
  if (num(status.observedGeneration) < num(pdb.metadata?.generation)) {
    return {
      type: "refuse",
      status: tooMany(`The disruption budget ${name} is still being processed by the server.`, 10),
    };
  }
  const allowed = num(status.disruptionsAllowed);
  if (allowed < 0) {
    return {
      type: "refuse",
      status: failure(
        "Forbidden",
        `poddisruptionbudgets.policy "${name}" is forbidden: pdb disruptions allowed is negative`,
        {
          name,
          group: "policy",
          kind: "poddisruptionbudgets",
        },
      ),
    };
  }
  if (allowed === 0) {
    return {
      type: "refuse",
      status: tooMany(
        `The disruption budget ${name} needs ${num(status.desiredHealthy)} healthy pods and has ${
          num(status.currentHealthy)
        } currently`,
        0,
      ),
    };
  }
  const next: Obj = {
    ...status,
    disruptionsAllowed: allowed - 1,
    disruptedPods: { ...asRecord(status.disruptedPods), [pod.metadata!.name!]: now },
  };
  if (allowed - 1 === 0) {
    const conds = Array.isArray(status.conditions) ? status.conditions.filter(isPlainObject) : [];
    next.conditions = [
      ...conds.filter((c) => c.type !== "DisruptionAllowed"),
      {
        type: "DisruptionAllowed",
        status: "False",
        reason: "InsufficientPods",
        message: "",
        observedGeneration: status.observedGeneration,
        lastTransitionTime: now,
      },
    ];
  }
  return { type: "delete", budget: { name, status: next } };
}
