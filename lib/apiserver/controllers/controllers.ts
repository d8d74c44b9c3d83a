/**
 * The in-server controllers as one unit: the context hooks they need (set when the server
 * context is built) and their start/stop.
 *
 * @module
 */
import type { ServerContext } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import type { SubresourceHandler } from "../router.ts";
import type { KubeObject } from "../../core/object.ts";
import { installGarbageCollector } from "./garbage_collector.ts";
import { installNamespaceController } from "./namespace_controller.ts";
import { installApiServiceRegistration } from "./api_service_registration.ts";
import { installClusterRoleAggregation } from "./cluster_role_aggregation.ts";
import { installServiceAccountController } from "./service_account_controller.ts";
import { installResourceQuotaController } from "./resource_quota_controller.ts";
import { installStorageProtection } from "./storage_protection_controller.ts";
import { namespaceDeletionBlocked } from "./plan_namespace.ts";
import { podGracePeriod } from "./pod_grace_period.ts";
import { bindingHandler } from "./bind_pod.ts";
import { installSimulation, type Simulation, type SimulationOptions } from "./simulation.ts";
import type { InClusterEndpoint } from "./_process_kubelet.ts";
import { podLogHandler } from "./pod_log_handler.ts";

/** Which controllers run. */
export interface ControllerOptions {
  /** Run the garbage collector (ownerReferences, orphan/foreground deletion); default true. */
  readonly gc?: boolean;
  /** Simulated nodes, scheduler and kubelets; default off (`false`). */
  readonly simulation?: SimulationOptions | false;
  /**
   * The CA bundle (PEM) every namespace's `kube-root-ca.crt` ConfigMap publishes; with it the
   * `default` ServiceAccount and that ConfigMap are kept in every namespace. Default: neither.
   */
  readonly rootCaPem?: string;
}

/** Started controllers. */
export interface RunningControllers {
  /** POST subresource handlers for the router (`pods/binding`). */
  readonly subresources: Map<string, SubresourceHandler>;
  /** GET subresource handlers for the router (`pods/log`). */
  readonly readSubresources: Map<string, SubresourceHandler>;
  /** The simulation, when enabled. */
  readonly simulation: Simulation | undefined;
  /** Stops every controller, cancels its timers and ends the processes it runs. */
  readonly close: () => Promise<void>;
}

/** The context hooks of the controllers plus the function that starts them. */
export interface Controllers {
  readonly gcEnabled: boolean;
  readonly gracePeriodFor: (
    info: ResourceInfo,
    obj: KubeObject,
    requested: number | undefined,
  ) => number;
  readonly deletionBlocked: (info: ResourceInfo, obj: KubeObject) => boolean;
  /** Starts the controllers on the context built with these hooks (call once); `endpoint`
   * tells processes of pods how to reach the server. */
  readonly start: (ctx: ServerContext, endpoint?: InClusterEndpoint) => RunningControllers;
}

/**
 * Prepares the in-server controllers: spread the result into the `ServerContext`, then call
 * `start(ctx)`.
 *
 * Like kube-controller-manager's garbage collector and namespace controller plus KWOK, but
 * in-process. The namespace controller always runs (namespaces wait in `spec.finalizers`), as
 * do the pvc- and pv-protection controllers (deleted claims and volumes wait in their
 * protection finalizers).
 *
 * @example
 * ```ts
 * import { createControllers } from "./controllers.ts";
 * const controllers = createControllers({ gc: true, simulation: false });
 * controllers.gcEnabled; // true
 * ```
 */
export function createControllers(options: ControllerOptions = {}): Controllers {
  const gcEnabled = options.gc ?? true;
  let simulation: Simulation | undefined;
  return {
    gcEnabled,
    gracePeriodFor: (info, obj, requested) =>
      info.storageKey === "/pods"
        ? podGracePeriod(obj, requested, (node) => simulation?.hasKubelet(node) ?? false)
        : 0,
    deletionBlocked: namespaceDeletionBlocked,
    start(ctx, endpoint) {
      const stops: (() => void | Promise<void>)[] = [
        installNamespaceController(ctx),
        installApiServiceRegistration(ctx),
        installClusterRoleAggregation(ctx),
        installResourceQuotaController(ctx),
        installStorageProtection(ctx),
      ];
      if (options.rootCaPem !== undefined) {
        stops.push(installServiceAccountController(ctx, options.rootCaPem));
      }
      if (gcEnabled) stops.push(installGarbageCollector(ctx));
      if (options.simulation) {
        simulation = installSimulation(ctx, options.simulation, endpoint);
        stops.push(simulation.close);
      }
      return {
        subresources: new Map([["pods/binding", bindingHandler(ctx)]]),
        readSubresources: new Map([["pods/log", podLogHandler(ctx, () => simulation)]]),
        simulation,
        close: async () => {
          for (const stop of stops) await stop();
        },
      };
    },
  };
}
