/**
 * `startCluster()`: the embedded cluster in one call — the API server with simulated nodes,
 * scheduler and kubelets, plus a manager running the workload controllers built with kubefold,
 * all on one clock.
 *
 * ## Why an injected option
 * The API server depends on `lib/core` only (it must not use the client it serves, nor the
 * controllers built on that client). Its `cluster` option therefore takes a function —
 * {@link clusterControllers} — that runs one layer up: a client from the server's
 * kubeconfig, then `startManager` with the workload and storage controllers.
 * `deno task cluster` (examples/cluster.ts) and the tests use {@link startCluster}, which
 * sets it.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import type { ApiError } from "../../lib/client/api_error.ts";
import type { Logger } from "../../lib/core/logger.ts";
import {
  type ApiServer,
  type ApiServerOptions,
  type ServerCompanion,
  startApiServer,
} from "../../lib/apiserver/server.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import { standardStorageClass, storageControllers } from "../storage/mod.ts";
import { onClock } from "./on_clock.ts";
import { connect } from "../../lib/client/connect.ts";
import type { ControllerSpec } from "../../lib/controller/controller_spec.ts";
import type { Manager } from "../../lib/manager/manager_types.ts";
import { startManager } from "../../lib/manager/start_manager.ts";
import { installSnapshotApi } from "../snapshots/install_snapshot_api.ts";
import { snapshotControllers } from "../snapshots/snapshot_controllers.ts";
import type { ClusterClock } from "./cluster_clock.ts";
import { workloadControllers } from "./workload_controllers.ts";

/** Options of {@link startCluster}: the server's, plus the simulation, clock and controllers. */
export interface ClusterOptions extends Omit<ApiServerOptions, "simulation" | "now" | "cluster"> {
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

/** Options of {@link clusterControllers}. */
export interface ClusterControllersOptions {
  /** The clock the reconcilers read and requeue on (default: the manager's wall clock). */
  readonly clock?: ClusterClock;
  /** CustomResourceDefinitions to install before the manager starts. */
  readonly crds?: readonly KubeObject[];
  /** The VolumeSnapshot API and its simulated snapshotter (default true). */
  readonly snapshots?: boolean;
  /** More controllers to run in the same manager (e.g. the operator under test), on `clock`. */
  // deno-lint-ignore no-explicit-any
  readonly controllers?: readonly ControllerSpec<any, any>[];
  /** The manager's logger (default: silent). */
  readonly managerLogger?: Logger;
  /** Receives the manager once its caches have synced. */
  readonly onManager?: (manager: Manager) => void;
}

/**
 * The embedded cluster's controllers as `startApiServer`'s `cluster` option: on the server's
 * kubeconfig, the default `standard` StorageClass is applied and a manager runs the workload,
 * disruption, volume and snapshot controllers (and `controllers`, after installing `crds`); the
 * server starts once their caches have synced and stops them before it closes.
 *
 * @example
 * ```ts
 * import { clusterControllers } from "./start_cluster.ts";
 * import { startApiServer } from "../../lib/apiserver/server.ts";
 * const server = await startApiServer({ cluster: clusterControllers(), simulation: { nodes: 1, podStartDelayMs: 0 } });
 * server.failNode !== undefined; // true: the cluster option brings simulated nodes
 * await server.close();
 * ```
 */
export function clusterControllers(options: ClusterControllersOptions = {}): ServerCompanion {
  return async (server) => {
    const client = await connect({ kubeconfigYaml: server.kubeconfig });
    if (E.isLeft(client)) throw new Error(`Cannot start the cluster: ${client.left.message}`);
    const withSnapshots = options.snapshots ?? true;
    let installed: Either<ApiError, unknown> = await client.right.apply(
      standardStorageClass,
      { fieldManager: "kubefold-cluster" },
    );
    if (E.isRight(installed) && withSnapshots) installed = await installSnapshotApi(client.right);
    for (const crd of options.crds ?? []) {
      if (E.isLeft(installed)) break;
      const r = await client.right.apply(crd, { fieldManager: "kubefold-cluster", force: true });
      installed = E.isLeft(r) ? r : E.right(undefined);
    }
    if (E.isLeft(installed)) {
      client.right.close();
      throw new Error(`Cannot start the cluster: ${installed.left.message}`);
    }
    const manager = await startManager({
      client: client.right,
      controllers: [
        ...workloadControllers({ clock: options.clock }),
        ...storageControllers().map((spec) => onClock(spec, options.clock)),
        ...(withSnapshots ? snapshotControllers({ clock: options.clock }) : []),
        ...(options.controllers ?? []).map((c) => onClock(c, options.clock)),
      ],
      ...(options.managerLogger ? { logger: options.managerLogger } : {}),
    });
    await manager.ready;
    options.onManager?.(manager);
    return {
      close: async () => {
        await manager.stop();
        client.right.close();
      },
    };
  };
}

/**
 * Starts the API server with the simulation and the cluster's controllers
 * ({@link clusterControllers}), and resolves once the controllers' caches have synced.
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
  let manager: Manager | undefined;
  const server = await startApiServer({
    ...serverOptions,
    simulation: { nodes: 3, ...simulation, ...(clock ? { scheduler: clock } : {}) },
    ...(clock ? { now: () => clock.now() } : {}),
    cluster: clusterControllers({
      clock,
      crds,
      snapshots,
      controllers,
      managerLogger,
      onManager: (m) => manager = m,
    }),
  });
  return {
    server,
    manager: manager!,
    kubeconfig: server.kubeconfig,
    ...(clock ? { clock } : {}),
    close: () => server.close(),
  };
}
