/**
 * Internal: the API server state behind a test API — storage, the resource registry with the
 * built-in kinds and the CRDs created, the kinds' hooks, the default namespaces, and the
 * in-server controllers that do not need nodes (garbage collector, namespaces, CRDs).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ServerContext } from "../apiserver/context.ts";
import { ResourceRegistry } from "../apiserver/registry.ts";
import { ObjectStorage } from "../apiserver/storage.ts";
import { builtinHooks } from "../apiserver/builtin_hooks.ts";
import { createObject } from "../apiserver/object_write.ts";
import { customResourceInfos } from "../apiserver/custom_resource_infos.ts";
import { installCustomResourceController } from "../apiserver/custom_resource_controller.ts";
import { installGarbageCollector } from "../apiserver/controllers/garbage_collector.ts";
import { installNamespaceController } from "../apiserver/controllers/namespace_controller.ts";
import { namespaceDeletionBlocked } from "../apiserver/controllers/plan_namespace.ts";
import { podGracePeriod } from "../apiserver/controllers/pod_grace_period.ts";
import {
  installSimulation,
  type Simulation,
  type SimulationOptions,
} from "../apiserver/controllers/simulation.ts";
import type { SchedulerLike } from "../deps.ts";

/** Options of {@link startTestCluster}. */
export interface TestClusterOptions {
  /** Epoch milliseconds. */
  readonly now: () => number;
  readonly historySize: number;
  readonly gc: boolean;
  /** Simulated nodes, scheduler and kubelets on `scheduler`'s clock; off when undefined. */
  readonly simulation?: SimulationOptions;
  /** The clock of the simulation's delays. */
  readonly scheduler: SchedulerLike;
}

/** The state and its controllers. */
export interface TestCluster {
  readonly ctx: ServerContext;
  /** Stops the controllers. */
  readonly stop: () => void;
}

/** Builds the server state and starts its controllers. */
export function startTestCluster(options: TestClusterOptions): TestCluster {
  let simulation: Simulation | undefined;
  const ctx: ServerContext = {
    registry: new ResourceRegistry(),
    storage: new ObjectStorage({ historySize: options.historySize }),
    now: options.now,
    scheduler: options.scheduler,
    hooks: builtinHooks(),
    gcEnabled: options.gc,
    // Without a kubelet a deleted pod goes at once, as with the embedded server.
    gracePeriodFor: (info, obj, requested) =>
      info.storageKey === "/pods"
        ? podGracePeriod(obj, requested, (node) => simulation?.hasKubelet(node) ?? false)
        : 0,
    deletionBlocked: namespaceDeletionBlocked,
  };
  // CRDs are served without CEL rules and without CRD validation (see createTestApi).
  installCustomResourceController(ctx, {
    resourceInfos: (crd) => customResourceInfos(crd),
    validate: () => [],
  });
  const nsInfo = ctx.registry.lookup("", "v1", "namespaces")!;
  for (const name of ["default", "kube-system", "kube-public", "kube-node-lease"]) {
    const ns: KubeObject = { apiVersion: "v1", kind: "Namespace", metadata: { name } };
    createObject(ctx, nsInfo, undefined, ns);
  }
  const stops = [installNamespaceController(ctx)];
  if (options.gc) stops.push(installGarbageCollector(ctx));
  if (options.simulation) {
    simulation = installSimulation(ctx, { ...options.simulation, scheduler: options.scheduler });
    stops.push(simulation.close);
  }
  return { ctx, stop: () => stops.forEach((stop) => stop()) };
}
