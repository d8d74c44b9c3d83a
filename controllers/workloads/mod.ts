/**
 * Workload controllers for the embedded API server, built with the kubefold framework:
 * Deployments own ReplicaSets, ReplicaSets own pods. Pure reconcilers, run by
 * `startManager` (not started by the server itself).
 *
 * @example
 * ```ts
 * import { workloadControllers } from "./mod.ts";
 * workloadControllers().map((c) => c.name); // ["deployment", "replicaset"]
 * ```
 *
 * @module
 */
export {
  deploymentController,
  replicaSetController,
  workloadControllers,
} from "./workload_controllers.ts";
export {
  type Deployment,
  type DeploymentWorld,
  reconcileDeployment,
  REVISION_ANNOTATION,
} from "./reconcile_deployment.ts";
export {
  reconcileReplicaSet,
  type ReplicaSet,
  type ReplicaSetContext,
  type ReplicaSetWorld,
} from "./reconcile_replica_set.ts";
export {
  deploymentStatus,
  type DeploymentStatusInput,
  type RsStatusCounts,
} from "./deployment_status.ts";
export {
  planRollout,
  type RolloutDecision,
  type RolloutInput,
  type RolloutStrategy,
  type RsCounts,
} from "./plan_rollout.ts";
export { POD_TEMPLATE_HASH_LABEL, podTemplateHash } from "./pod_template_hash.ts";
export { type IntOrPercent, type RollingBounds, rollingBounds } from "./rolling_bounds.ts";
export { isPodActive, isPodReady, type Pod, podDeletionOrder } from "./pod_facts.ts";
export { workloadSelector } from "./workload_selector.ts";
