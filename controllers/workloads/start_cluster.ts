/**
 * `startCluster()`: the embedded cluster in one call — the API server with simulated nodes,
 * scheduler and kubelets, plus a manager running the workload controllers built with kubefold,
 * all on one clock.
 *
 * ## Why a composition, not a server option
 * The API server depends on `lib/core` only (it must not use the client it serves, nor the
 * controllers built on that client). The cluster is therefore composed one layer up: server,
 * then a client from its kubeconfig, then `startManager` with {@link workloadControllers}.
 * `deno task cluster` (examples/cluster.ts) and the tests use this one function.
 *
 * @module
 */
import { E } from "../../lib/deps.ts";
import type { Logger } from "../../lib/core/logger.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import {
  type ApiServer,
  type ApiServerOptions,
  startApiServer,
} from "../../lib/apiserver/server.ts";
import { connect } from "../../lib/client/connect.ts";
import type { ControllerSpec } from "../../lib/controller/controller_spec.ts";
import { type Manager, startManager } from "../../lib/manager/start_manager.ts";
import type { ClusterClock } from "./cluster_clock.ts";
import { workloadControllers } from "./workload_controllers.ts";
import { onClock } from "./on_clock.ts";
import { installSnapshotApi } from "../snapshots/install_snapshot_api.ts";
import { snapshotControllers } from "../snapshots/snapshot_controllers.ts";

/** Options of {@link startCluster}: the server's, plus the simulation, clock and controllers. */
export interface ClusterOptions extends Omit<ApiServerOptions, "simulation" | "now"> {
  /** Simulated nodes, scheduler and kubelets (default: 3 nodes, default delays). */
  readonly simulation?: Exclude<ApiServerOptions["simulation"], false>;
  /**
   * One clock for the whole cluster — object timestamps, kubelet delays, reconcilers and
   * their requeues (default: wall time). A fast `scaledClock` makes CronJobs fire at once.
   */
  readonly clock?: ClusterClock;
  /**
   * CustomResourceDefinitions to install before the manager starts (the primaries of
   * `controllers`: a controller's caches only sync once its resources are served).
   */
  readonly crds?: readonly KubeObject[];
  /** More controllers to run in the same manager (e.g. the operator under test), on `clock`. */
  // deno-lint-ignore no-explicit-any
  readonly controllers?: readonly ControllerSpec<any, any>[];
  /**
   * Serve `snapshot.storage.k8s.io/v1` (VolumeSnapshot, VolumeSnapshotContent,
   * VolumeSnapshotClass CRDs, the default class `standard`) with a simulated snapshotter, as
   * a cluster with external-snapshotter installed does (default true).
   */
  readonly snapshots?: boolean;
  /** The manager's logger (default: silent). */
  readonly managerLogger?: Logger;
}

/** A running embedded cluster. */
export interface Cluster {
  /** The API server (kubeconfig, url, failNode/restoreNode, context). */
  readonly server: ApiServer;
  /** The manager running the workload controllers. */
  readonly manager: Manager;
  /** A kubeconfig (YAML) for kubectl and clients. */
  readonly kubeconfig: string;
  /** The clock the cluster runs on, if one was given. */
  readonly clock?: ClusterClock;
  /** Stops the controllers, then the server. */
  readonly close: () => Promise<void>;
}

/**
 * Starts the API server with the simulation and the workload controllers, and resolves once
 * the controllers' caches have synced.
 *
 * Like kind or k3d, but in-process and in milliseconds: no containers, no kubelet.
 *
 * @example
 * ```ts
 * import { startCluster } from "./start_cluster.ts";
 * const cluster = await startCluster({ simulation: { nodes: 2, podStartDelayMs: 0 } });
 * cluster.server.url.startsWith("http://"); // true
 * await cluster.close();
 * ```
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const { simulation, clock, controllers, crds, managerLogger, snapshots, ...serverOptions } =
    options;
  const server = await startApiServer({
    ...serverOptions,
    simulation: { nodes: 3, ...simulation, ...(clock ? { scheduler: clock } : {}) },
    ...(clock ? { now: () => clock.now() } : {}),
  });
  const client = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(client)) {
    await server.close();
    throw new Error(`Cannot start the cluster: ${client.left.message}`);
  }
  const withSnapshots = snapshots ?? true;
  let installed = withSnapshots ? await installSnapshotApi(client.right) : E.right(undefined);
  for (const crd of crds ?? []) {
    if (E.isLeft(installed)) break;
    const r = await client.right.apply(crd, { fieldManager: "kubefold-cluster", force: true });
    installed = E.isLeft(r) ? r : E.right(undefined);
  }
  if (E.isLeft(installed)) {
    client.right.close();
    await server.close();
    throw new Error(`Cannot start the cluster: ${installed.left.message}`);
  }
  const manager = await startManager({
    client: client.right,
    controllers: [
      ...workloadControllers({ clock }),
      ...(withSnapshots ? snapshotControllers({ clock }) : []),
      ...(controllers ?? []).map((c) => onClock(c, clock)),
    ],
    ...(managerLogger ? { logger: managerLogger } : {}),
  });
  await manager.ready;
  return {
    server,
    manager,
    kubeconfig: server.kubeconfig,
    ...(clock ? { clock } : {}),
    close: async () => {
      await manager.stop();
      client.right.close();
      await server.close();
    },
  };
}
