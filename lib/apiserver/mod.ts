/**
 * The embedded Kubernetes-compatible API server, and the embedded cluster: the server plus
 * simulated nodes, scheduler and kubelets and the workload controllers built with kubefold
 * (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, Services' endpoints).
 * kubectl and other clients use it as they would a real cluster.
 *
 * This entry point loads the server and its CEL evaluator (CRD validation rules); the
 * framework (`mod.ts`) loads neither.
 *
 * @example
 * ```ts
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * await Deno.writeTextFile(await Deno.makeTempFile(), server.kubeconfig); // for kubectl
 * const res = await fetch(`${server.url}/api/v1/namespaces/default`);
 * (await res.json()).status.phase; // "Active"
 * await server.close();
 * ```
 *
 * @module
 */

// The API server.
export {
  type ApiServer,
  type ApiServerOptions,
  type ForbiddenRequest,
  type ServerCompanion,
  startApiServer,
} from "./server.ts";
export type { PersistenceLogger } from "./persistence/mod.ts";
export type { ServiceResolver } from "./admission/call_webhook.ts";
export type { SimulationOptions } from "./controllers/simulation.ts";
export type { ImageMapping } from "./controllers/image_map.ts";
export {
  type FaultControl,
  type FaultKind,
  type FaultOptions,
  type FaultSettings,
  parseFaults,
} from "./faults/mod.ts";

// Recovery of a data directory the server refused to open.
export { type DataDirError, type RepairAction, repairDataDir } from "./persistence/mod.ts";

// The embedded cluster: the server with the workload controllers.
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
export {
  type PersistentVolume,
  type PersistentVolumeClaim,
  standardStorageClass,
  type StorageClass,
  storageControllers,
} from "../../controllers/storage/mod.ts";
