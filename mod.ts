/**
 * kubefold: a Kubernetes controller framework for Deno in functional reactive style.
 *
 * - `startApiServer()`: an embedded Kubernetes-compatible API server (kubectl works against it).
 * - `createClient()` / `connect()`: a REST client; `listWatch()`: List/Watch as an Observable.
 * - `createStore()` / `reflect()`: watch events folded into deltas and an indexed store;
 *   `informers()`: one shared watch per resource.
 * - `workqueue()`: the controller workqueue as an RxJS operator, with rate limiters.
 * - Pure reconcilers returning plans (`lib/reconcile`), the applier, `controller()` specs and
 *   `startManager()` (metrics, health, leader election, graceful shutdown).
 * - A testing kit (`testing`): scripted watch streams and virtual time.
 * - `startCluster()`: the embedded server plus the workload controllers built with kubefold
 *   (Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, Services' endpoints, ...), on an
 *   optional virtual clock (`scaledClock`).
 *
 * @example
 * ```ts
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * const res = await fetch(`${server.url}/api/v1/namespaces/default`);
 * (await res.json()).status.phase; // "Active"
 * await server.close();
 * ```
 *
 * @module
 */
export * from "./lib/core/mod.ts";
export * from "./lib/apiserver/mod.ts";
export * from "./lib/client/config/mod.ts";
export * from "./lib/client/mod.ts";
export * from "./lib/watch/mod.ts";
export * from "./lib/store/mod.ts";
export * from "./lib/informer/mod.ts";
export * from "./lib/queue/mod.ts";
export * from "./lib/reconcile/mod.ts";
export * from "./lib/apply/mod.ts";
export * from "./lib/controller/mod.ts";
export * from "./lib/manager/mod.ts";
export * from "./lib/leader/mod.ts";
export * as testing from "./lib/testing/mod.ts";
export {
  type Cluster,
  type ClusterClock,
  type ClusterOptions,
  scaledClock,
  type ScaledClockOptions,
  startCluster,
  workloadControllers,
  type WorkloadControllersOptions,
} from "./controllers/workloads/mod.ts";
/** fp-ts `Either` constructors and `pipe`, for reconcilers' results. */
export { E, type Either, pipe } from "./lib/deps.ts";
