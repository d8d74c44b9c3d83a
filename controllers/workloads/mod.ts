/**
 * Workload controllers for the embedded API server, built with the kubefold framework:
 * Deployments own ReplicaSets, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets
 * and Jobs own pods, CronJobs own Jobs, and Services get Endpoints and EndpointSlices. Pure
 * reconcilers, run by `startManager`; {@link startCluster} runs them beside the server.
 *
 * @example
 * ```ts
 * import { startCluster } from "./mod.ts";
 * const cluster = await startCluster({ simulation: { nodes: 1 } });
 * cluster.manager.isLeader(); // true
 * await cluster.close();
 * ```
 *
 * @module
 */
export {
  deploymentController,
  replicaSetController,
  workloadControllers,
  type WorkloadControllersOptions,
} from "./workload_controllers.ts";
export {
  type Cluster,
  clusterControllers,
  type ClusterControllersOptions,
  type ClusterOptions,
  startCluster,
} from "./start_cluster.ts";
export { type ClusterClock, scaledClock, type ScaledClockOptions } from "./cluster_clock.ts";
export { onClock } from "./on_clock.ts";
export { cronJobController, jobController } from "./job_controllers.ts";
export {
  daemonSetController,
  replicationControllerController,
  statefulSetController,
} from "./set_controllers.ts";
export { endpointsController } from "./endpoints_controller.ts";
export { disruptionController } from "./disruption_controller.ts";
export {
  DELETION_TIMEOUT_MS,
  type DisruptionWorld,
  type PodDisruptionBudget,
  reconcilePodDisruptionBudget,
  type Scalable,
} from "./reconcile_pod_disruption_budget.ts";
export { type JobWorld, reconcileJob } from "./reconcile_job.ts";
export {
  COMPLETION_INDEX_ANNOTATION,
  completionIndexOf,
  formatIndexes,
  type Job,
  type JobProgress,
  jobProgress,
} from "./job_progress.ts";
export {
  type CronJob,
  cronJobName,
  type CronJobWorld,
  reconcileCronJob,
  SCHEDULED_TIMESTAMP_ANNOTATION,
} from "./reconcile_cron_job.ts";
export { reconcileStatefulSet, type StatefulSetWorld } from "./reconcile_stateful_set.ts";
export {
  claimName,
  ordinalOf,
  type PersistentVolumeClaim,
  POD_INDEX_LABEL,
  POD_NAME_LABEL,
  REVISION_HASH_LABEL,
  setOwnerRef,
  statefulClaims,
  statefulPod,
  type StatefulSet,
} from "./stateful_set_pods.ts";
export { type DaemonSetWorld, type Node, reconcileDaemonSet } from "./reconcile_daemon_set.ts";
export {
  DAEMON_REVISION_LABEL,
  daemonPod,
  daemonPodNode,
  daemonPodSpec,
  type DaemonSet,
} from "./daemon_pods.ts";
export {
  reconcileReplicationController,
  type ReplicationController,
} from "./reconcile_replication_controller.ts";
export {
  type Endpoints,
  type EndpointSlice,
  type EndpointsWorld,
  MANAGED_BY_LABEL,
  reconcileEndpoints,
  SERVICE_NAME_LABEL,
} from "./reconcile_endpoints.ts";
export {
  type ResolvedPort,
  type Service,
  type ServiceEndpoint,
  serviceEndpoints,
} from "./service_endpoints.ts";
export {
  type Deployment,
  type DeploymentWorld,
  reconcileDeployment,
  REVISION_ANNOTATION,
} from "./reconcile_deployment.ts";
export {
  reconcileReplicaSet,
  reconcileReplicasOf,
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
export {
  type IntOrPercent,
  type RollingBounds,
  rollingBounds,
  type RollingBoundsOptions,
} from "./rolling_bounds.ts";
export { isPodActive, isPodReady, type Pod, podDeletionOrder } from "./pod_facts.ts";
export { workloadSelector } from "./workload_selector.ts";
