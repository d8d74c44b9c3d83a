/**
 * The ReplicaSet and Deployment controller specs, and {@link workloadControllers}: every
 * workload controller of the embedded cluster, ready for `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec, kind } from "../../lib/controller/controller_spec.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { Pod } from "./pod_facts.ts";
import type { ClusterClock } from "./cluster_clock.ts";
import { onClock } from "./on_clock.ts";
import { cronJobController, jobController } from "./job_controllers.ts";
import {
  daemonSetController,
  replicationControllerController,
  statefulSetController,
} from "./set_controllers.ts";
import { endpointsController } from "./endpoints_controller.ts";
import { disruptionController } from "./disruption_controller.ts";
import {
  reconcileReplicaSet,
  type ReplicaSet,
  type ReplicaSetWorld,
} from "./reconcile_replica_set.ts";
import {
  type Deployment,
  type DeploymentWorld,
  reconcileDeployment,
} from "./reconcile_deployment.ts";

const pods = kind<Pod>("v1", "Pod");
const replicaSets = kind<ReplicaSet>("apps/v1", "ReplicaSet");

/**
 * The ReplicaSet controller spec: ReplicaSets are primary, pods are owned.
 *
 * @example
 * ```ts
 * import { replicaSetController } from "./workload_controllers.ts";
 * replicaSetController.name; // "replicaset"
 * ```
 */
export const replicaSetController: ControllerSpec<ReplicaSet & HasMetadata, ReplicaSetWorld> =
  controller<ReplicaSet & HasMetadata, ReplicaSetWorld>({
    name: "replicaset",
    for: replicaSets,
    owns: [pods],
    // Status feeds the Deployment controller: no batch window (a hop would cost 100 ms).
    statusBatchMs: 0,
    world: (cache) => ({
      pods: cache.world(pods),
    }),
    reconcile: (rs, world, ctx) => reconcileReplicaSet(rs, world, ctx),
  });

/**
 * The Deployment controller spec: Deployments are primary, ReplicaSets are owned.
 *
 * @example
 * ```ts
 * import { deploymentController } from "./workload_controllers.ts";
 * deploymentController.owns?.[0].kind; // "ReplicaSet"
 * ```
 */
export const deploymentController: ControllerSpec<Deployment & HasMetadata, DeploymentWorld> =
  controller<Deployment & HasMetadata, DeploymentWorld>({
    name: "deployment",
    for: { apiVersion: "apps/v1", kind: "Deployment" },
    owns: [replicaSets],
    statusBatchMs: 0,
    world: (cache) => ({
      replicaSets: cache.world(replicaSets),
    }),
    reconcile: (d, world, ctx) => reconcileDeployment(d, world, ctx),
  });

/** Options of {@link workloadControllers}. */
export interface WorkloadControllersOptions {
  /**
   * The clock the reconcilers read (`ctx.now`) and requeue on, e.g. a fast `scaledClock` so
   * CronJobs fire in milliseconds (default: the manager's wall clock).
   */
  readonly clock?: ClusterClock;
}

/**
 * The workload controllers an embedded API server lacks, as specs for `startManager`:
 * Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController, the
 * endpoints controller (Endpoints and EndpointSlices of Services) and the disruption
 * controller (PodDisruptionBudget status, which pod evictions spend). With them, `kubectl apply`
 * of a workload yields pods and `kubectl rollout status` completes. `startCluster` runs them.
 *
 * @example
 * ```ts
 * import { workloadControllers } from "./workload_controllers.ts";
 * workloadControllers().map((c) => c.name);
 * // ["deployment", "replicaset", "statefulset", "daemonset", "job", "cronjob",
 * //  "replicationcontroller", "endpoints", "disruption"]
 * ```
 */
export function workloadControllers(
  options: WorkloadControllersOptions = {},
): readonly ControllerSpec<HasMetadata, unknown>[] {
  const specs: ControllerSpec<HasMetadata, unknown>[] = [
    deploymentController,
    replicaSetController,
    statefulSetController(),
    daemonSetController(),
    jobController(),
    cronJobController(),
    replicationControllerController(),
    endpointsController(),
    disruptionController(),
  ];
  return specs.map((spec) => onClock(spec, options.clock));
}
