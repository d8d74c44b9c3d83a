/**
 * The embedded cluster: the embedded API server with simulated nodes, scheduler and kubelets,
 * plus the workload controllers built with kubefold (Deployments, ReplicaSets, StatefulSets,
 * DaemonSets, Jobs, CronJobs, Services' endpoints, PodDisruptionBudgets, and volumes the
 * storage controllers provision and bind). kubectl and other clients use it as they would a real
 * cluster. A program that needs only the server imports `./apiserver` instead, which does not
 * load these controllers.
 *
 * @example
 * ```ts
 * import { startCluster } from "./mod.ts";
 * const cluster = await startCluster({ simulation: { nodes: 2, podStartDelayMs: 0 } });
 * await Deno.writeTextFile(await Deno.makeTempFile(), cluster.server.kubeconfig); // for kubectl
 * const res = await fetch(`${cluster.server.url}/apis/apps/v1`);
 * res.status; // 200
 * await res.body?.cancel();
 * await cluster.close();
 * ```
 *
 * @module
 */

// The cluster: the server with the workload controllers, and the clock they run on.
export {
  type Cluster,
  type ClusterClock,
  clusterControllers,
  type ClusterControllersOptions,
  type ClusterOptions,
  scaledClock,
  type ScaledClockOptions,
  startCluster,
  workloadControllers,
  type WorkloadControllersOptions,
} from "../../controllers/workloads/mod.ts";

// Volumes: PersistentVolumeClaims bound to PersistentVolumes the storage controllers provision.
export {
  type PersistentVolume,
  type PersistentVolumeClaim,
  standardStorageClass,
  type StorageClass,
  storageControllers,
} from "../../controllers/storage/mod.ts";
