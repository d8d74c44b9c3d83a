/**
 * The status a Deployment should report, computed from its ReplicaSets' statuses.
 *
 * @module
 */
import type { k8sApps } from "../../lib/deps.ts";
import { type Condition, setCondition } from "../../lib/reconcile/set_condition.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import type { RsCounts } from "./plan_rollout.ts";

/** The counts of one ReplicaSet the status reads ({@link RsCounts} plus ready pods). */
export interface RsStatusCounts extends RsCounts {
  /** `status.readyReplicas`. */
  readonly ready: number;
}

/** Inputs of {@link deploymentStatus}. */
export interface DeploymentStatusInput {
  /** The status observed on the Deployment (other fields and conditions are kept). */
  readonly observed: DeepReadonly<k8sApps.DeploymentStatus> | undefined;
  /** `spec.replicas`. */
  readonly replicas: number;
  /** `replicas - maxUnavailable`: the availability floor of the `Available` condition. */
  readonly minAvailable: number;
  readonly paused: boolean;
  /** The new ReplicaSet, if it exists. */
  readonly newRs?: RsStatusCounts;
  /** Every other ReplicaSet. */
  readonly olds: readonly RsStatusCounts[];
  /** `metadata.generation`. */
  readonly generation?: number;
  /** Epoch milliseconds, for `lastTransitionTime`. */
  readonly now: number;
}

/**
 * The Deployment's status: `replicas`, `updatedReplicas`, `readyReplicas`,
 * `availableReplicas`, `unavailableReplicas`, `observedGeneration`, and the conditions
 * `Available` (`MinimumReplicasAvailable` / `MinimumReplicasUnavailable`) and `Progressing`
 * (`NewReplicaSetAvailable` once complete, `ReplicaSetUpdated` before, `Unknown`
 * `DeploymentPaused` while paused). Timestamps only move when a condition's status flips.
 *
 * @example
 * ```ts
 * import { deploymentStatus } from "./deployment_status.ts";
 * const s = deploymentStatus({
 *   observed: undefined, replicas: 1, minAvailable: 1, paused: false, now: 0,
 *   newRs: { name: "web-abc", replicas: 1, current: 1, available: 1, ready: 1 }, olds: [],
 * });
 * s.conditions?.find((c) => c.type === "Progressing")?.reason; // "NewReplicaSetAvailable"
 * ```
 */
export function deploymentStatus(input: DeploymentStatusInput): k8sApps.DeploymentStatus {
  const all = input.newRs ? [input.newRs, ...input.olds] : input.olds;
  const add = (f: (r: RsStatusCounts) => number) => all.reduce((n, r) => n + f(r), 0);
  const current = add((r) => r.current);
  const updated = input.newRs?.current ?? 0;
  const available = add((r) => r.available);
  const wanted = add((r) => r.replicas);
  let conditions: DeepReadonly<k8sApps.DeploymentCondition>[] = [
    ...(input.observed?.conditions ?? []),
  ];
  const set = (type: string, status: Condition["status"], reason: string, message: string) =>
    conditions = setCondition(conditions, { type, status, reason, message }, input.now);
  if (available >= input.minAvailable) {
    set("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.");
  } else {
    set(
      "Available",
      "False",
      "MinimumReplicasUnavailable",
      "Deployment does not have minimum availability.",
    );
  }
  const rsName = input.newRs?.name ?? "";
  const complete = input.newRs !== undefined && input.newRs.replicas === input.replicas &&
    updated === input.replicas && current === input.replicas && available >= input.replicas;
  if (input.paused) {
    set("Progressing", "Unknown", "DeploymentPaused", "Deployment is paused");
  } else if (complete) {
    set(
      "Progressing",
      "True",
      "NewReplicaSetAvailable",
      `ReplicaSet "${rsName}" has successfully progressed.`,
    );
  } else {
    set("Progressing", "True", "ReplicaSetUpdated", `ReplicaSet "${rsName}" is progressing.`);
  }
  return {
    ...input.observed,
    replicas: current,
    updatedReplicas: updated,
    readyReplicas: add((r) => r.ready),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, wanted - available),
    ...(input.generation !== undefined ? { observedGeneration: input.generation } : {}),
    conditions,
  };
}
