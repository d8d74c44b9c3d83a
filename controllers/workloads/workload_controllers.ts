/**
 * The ReplicaSet and Deployment controller specs, ready for `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec } from "../../lib/controller/controller_spec.ts";
import type { HasMetadata } from "../../lib/store/has_metadata.ts";
import { worldFromStore } from "../../lib/reconcile/world.ts";
import type { World } from "../../lib/reconcile/world.ts";
import type { Pod } from "./pod_facts.ts";
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

const pods = { apiVersion: "v1", kind: "Pod" };
const replicaSets = { apiVersion: "apps/v1", kind: "ReplicaSet" };

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
      pods: worldFromStore(cache.store(pods), { ownerIndex: "controller" }) as unknown as World<
        Pod
      >,
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
      replicaSets: worldFromStore(cache.store(replicaSets), {
        ownerIndex: "controller",
      }) as unknown as World<ReplicaSet>,
    }),
    reconcile: (d, world, ctx) => reconcileDeployment(d, world, ctx),
  });

/**
 * The workload controllers (Deployment, ReplicaSet) an embedded API server lacks, as specs
 * for `startManager`: with them, a Deployment (e.g. `kubectl apply -f deploy.yaml`) yields ReplicaSets and pods, and
 * `kubectl rollout status` completes.
 *
 * @example
 * ```ts ignore
 * import { workloadControllers } from "./workload_controllers.ts";
 * import { startApiServer } from "../../lib/apiserver/server.ts";
 * import { clientFromKubeconfig } from "../../lib/client/connect.ts";
 * import { startManager } from "../../lib/manager/start_manager.ts";
 * const server = await startApiServer({ simulation: { nodes: 2 } });
 * const client = await clientFromKubeconfig(server.kubeconfig);
 * if (client._tag === "Left") throw new Error(client.left.message);
 * const manager = await startManager({ client: client.right, controllers: workloadControllers() });
 * ```
 */
export function workloadControllers(): readonly ControllerSpec<HasMetadata, unknown>[] {
  return [
    deploymentController as unknown as ControllerSpec<HasMetadata, unknown>,
    replicaSetController as unknown as ControllerSpec<HasMetadata, unknown>,
  ];
}
