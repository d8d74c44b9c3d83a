/**
 * Internal: the simulated kubelets of all simulated nodes: they start bound pods (Running with
 * IPs), end or restart them as their exit rule says (`pod_exit_rule.ts`), confirm graceful
 * deletions and fail the pods of a lost node.
 *
 * @module
 */
import type { SchedulerLike } from "../../deps.ts";
import type { KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import { deleteObject } from "../object_delete.ts";
import type { EventNote } from "./record_event.ts";
import { nodeLostPodStatus, runningPodStatus, succeededPodStatus } from "./pod_status.ts";
import { simulatedNodeIp } from "./simulated_node.ts";
import { podFinished, podNodeName, podPhase } from "./_pod_facts.ts";
import { attempt, KeyedTimers } from "./_keyed_timers.ts";
import { podRun } from "./pod_exit_rule.ts";
import type { ProcessKubelet } from "./_process_kubelet.ts";
import {
  crashedPodStatus,
  failedPodStatus,
  restartCountOf,
  restartedPodStatus,
} from "./pod_exit_status.ts";

/** What {@link createSimulatedKubelet} needs from the simulation. */
export interface SimulatedKubeletOptions {
  /** Index (1..N) of every simulated node, by name. */
  readonly nodeIndex: ReadonlyMap<string, number>;
  /** Whether a live simulated kubelet runs the node (simulated and Ready). */
  readonly hasKubelet: (nodeName: string) => boolean;
  /** Records an Event about a pod. */
  readonly event: (obj: KubeObject, note: EventNote) => void;
  /** Clock of the delays. */
  readonly scheduler: SchedulerLike;
  /** Delay between a pod's binding and its `Running` status. */
  readonly startDelayMs: number;
  /** How long run-to-completion containers run without a `run-ms` annotation. */
  readonly runMs: number;
  /** Delay before a graceful pod deletion is confirmed. */
  readonly confirmDelayMs: number;
  /** Runs pods whose images are mapped to local executables (default: none). */
  readonly processes?: ProcessKubelet;
}

/** The simulated kubelets. */
export interface SimulatedKubelet {
  /** Brings pod `namespace/name` one step towards what its node's kubelet would do. */
  readonly syncPod: (key: string) => void;
  /** Cancels the pending steps of a deleted pod. */
  readonly forget: (uid: string) => void;
  /** Cancels every pending step. */
  readonly close: () => void;
}

/**
 * Creates the kubelets of the simulated nodes. Every write goes through the ordinary write
 * path (`pods/status`, delete with grace 0 and a uid precondition); a write that conflicts is
 * dropped, the pod's next event syncs it again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TestScheduler } from "../../testing/deps.ts";
 * import { startApiServer } from "../mod.ts";
 * import { createObject } from "../object_write.ts";
 * import { createSimulatedKubelet } from "./_simulated_kubelet.ts";
 * const server = await startApiServer({ simulation: false });
 * const ctx = server.context;
 * const podInfo = ctx.registry.lookup("", "v1", "pods")!;
 * createObject(ctx, podInfo, "default", {
 *   metadata: { name: "p" },
 *   spec: { nodeName: "n1", containers: [{ name: "c", image: "i" }] },
 * });
 * const scheduler = new TestScheduler(() => {});
 * const kubelet = createSimulatedKubelet(ctx, {
 *   nodeIndex: new Map([["n1", 1]]),
 *   hasKubelet: () => true,
 *   event: () => {},
 *   scheduler,
 *   startDelayMs: 10,
 *   runMs: 10,
 *   confirmDelayMs: 10,
 * });
 * kubelet.syncPod("default/p");
 * scheduler.flush();
 * const started = ctx.storage.get(podInfo.storageKey, "default/p")?.object;
 * assert.equal((started?.status as { phase?: string }).phase, "Running");
 * kubelet.close();
 * await server.close();
 * ```
 */
export function createSimulatedKubelet(
  ctx: ServerContext,
  options: SimulatedKubeletOptions,
): SimulatedKubelet {
  const { nodeIndex, hasKubelet, event, startDelayMs, confirmDelayMs, processes } = options;
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  const timers = new KeyedTimers(options.scheduler);
  const ipCounter = new Map<string, number>();
  // Process pods bind real loopback addresses: each server starts at its own random offset so
  // two embedded clusters on one host (tests run in parallel) rarely hand out the same address.
  const processIpOffset = Math.floor(Math.random() * 250);
  // The first attempt of each started pod: earlier pods of the same controller count.
  const firstAttempt = new Map<string, number>();
  const controllerRuns = new Map<string, number>();
  const podObj = (key: string) => ctx.storage.get(podInfo.storageKey, key)?.object;

  function syncPod(key: string): void {
    const pod = podObj(key);
    const node = podNodeName(pod);
    if (!pod || !nodeIndex.has(node)) return;
    const m = pod.metadata!;
    const uid = m.uid!;
    if (m.deletionTimestamp) {
      if (!hasKubelet(node)) return;
      if (processes?.has(uid)) {
        // SIGTERM now, SIGKILL after the grace period; confirmed once every process exited.
        return processes.stop(uid, m.deletionGracePeriodSeconds ?? 30, () => {
          attempt(() =>
            deleteObject(ctx, podInfo, m.namespace, m.name!, {
              gracePeriodSeconds: 0,
              preconditions: { uid },
            })
          );
        });
      }
      return timers.later(`delete/${uid}`, confirmDelayMs, () => {
        deleteObject(ctx, podInfo, m.namespace, m.name!, {
          gracePeriodSeconds: 0,
          preconditions: { uid },
        });
      });
    }
    if (podFinished(pod)) return;
    if (!hasKubelet(node)) {
      timers.cancel(`start/${uid}`);
      processes?.stop(uid, 0, () => {});
      const lost = updateObject(ctx, podInfo, m.namespace, m.name!, {
        ...pod,
        status: nodeLostPodStatus(pod, ctx.now()),
      }, { subresource: "status", unconditional: true, fieldManager: "kubelet" }).object;
      event(lost, {
        reason: "NodeNotReady",
        message: "Node is not ready",
        component: "node-controller",
        type: "Warning",
      });
      return;
    }
    if (podPhase(pod) !== "Pending" && podPhase(pod) !== undefined) return;
    timers.later(`start/${uid}`, startDelayMs, () => start(key, uid, node));
  }

  function start(key: string, uid: string, node: string): void {
    const now = podObj(key);
    if (
      !now || now.metadata?.uid !== uid || now.metadata.deletionTimestamp ||
      !hasKubelet(node) || (podPhase(now) !== "Pending" && podPhase(now) !== undefined)
    ) return;
    const m = now.metadata;
    const n = (ipCounter.get(node) ?? 0) + 1;
    ipCounter.set(node, n);
    if (processes?.runs(now)) {
      // A process binds its pod IP: a loopback address of its own (127.245.<node>.<n>).
      const hostIP = simulatedNodeIp(nodeIndex.get(node)!);
      const podIP = `127.245.${nodeIndex.get(node)! % 256}.${
        2 + ((processIpOffset + n - 1) % 250)
      }`;
      return processes.start(now, { podIP, hostIP });
    }
    const podIP = `10.244.${nodeIndex.get(node)! % 256}.${2 + ((n - 1) % 250)}`;
    const status = runningPodStatus(now, {
      hostIP: simulatedNodeIp(nodeIndex.get(node)!),
      podIP,
      nowMs: ctx.now(),
    });
    const started = updateObject(ctx, podInfo, m.namespace, m.name!, { ...now, status }, {
      subresource: "status",
      unconditional: true,
      fieldManager: "kubelet",
    }).object;
    for (const c of (status.containerStatuses as { name: string }[])) {
      event(started, {
        reason: "Started",
        message: `Started container ${c.name}`,
        component: "kubelet",
        host: node,
        fieldPath: `spec.containers{${c.name}}`,
      });
    }
    const owner = started.metadata?.ownerReferences?.find((r) => r.controller)?.uid ?? uid;
    const runs = controllerRuns.get(owner) ?? 0;
    controllerRuns.set(owner, runs + 1);
    firstAttempt.set(uid, runs);
    scheduleExit(key, started);
  }

  /** Schedules the exit of a running pod's containers, if its rule says they exit. */
  function scheduleExit(key: string, pod: KubeObject): void {
    const uid = pod.metadata!.uid!;
    const run = podRun(pod, (firstAttempt.get(uid) ?? 0) + restartCountOf(pod), options.runMs);
    if (run) timers.later(`run/${uid}`, run.runMs, () => exit(key, uid, run));
  }

  /** A live pod of this kubelet with this uid in `phase`, or undefined. */
  function live(key: string, uid: string): KubeObject | undefined {
    const pod = podObj(key);
    if (!pod || pod.metadata?.uid !== uid || pod.metadata.deletionTimestamp) return undefined;
    return podPhase(pod) === "Running" && hasKubelet(podNodeName(pod)) ? pod : undefined;
  }

  const writeStatus = (pod: KubeObject, status: Record<string, unknown>) =>
    updateObject(ctx, podInfo, pod.metadata!.namespace, pod.metadata!.name!, { ...pod, status }, {
      subresource: "status",
      unconditional: true,
      fieldManager: "kubelet",
    }).object;

  function exit(key: string, uid: string, run: NonNullable<ReturnType<typeof podRun>>): void {
    const pod = live(key, uid);
    if (!pod) return;
    const host = podNodeName(pod);
    switch (run.then) {
      case "Succeeded": {
        const done = writeStatus(pod, succeededPodStatus(pod, ctx.now()));
        event(done, { reason: "Completed", message: "Pod completed", component: "kubelet", host });
        return;
      }
      case "Failed":
        writeStatus(pod, failedPodStatus(pod, run.exitCode, ctx.now()));
        return;
      case "Restart": {
        const crashed = writeStatus(pod, crashedPodStatus(pod, run.exitCode, ctx.now()));
        // The kubelet's back-off doubles per restart (10 s to 5 min there; scaled here).
        const n = restartCountOf(crashed);
        const backoffMs = Math.min(Math.max(10, startDelayMs) * 2 ** (n - 1), 300_000);
        event(crashed, {
          reason: "BackOff",
          message: `Back-off restarting failed container in pod ${pod.metadata?.name}`,
          component: "kubelet",
          host,
          type: "Warning",
        });
        timers.later(`run/${uid}`, backoffMs, () => restart(key, uid));
        return;
      }
    }
  }

  function restart(key: string, uid: string): void {
    const pod = live(key, uid);
    if (!pod) return;
    scheduleExit(key, writeStatus(pod, restartedPodStatus(pod, ctx.now())));
  }

  return {
    syncPod,
    forget: (uid) => {
      for (const kind of ["start", "run", "delete"]) timers.cancel(`${kind}/${uid}`);
      processes?.stop(uid, 0, () => {}); // force-deleted: kill at once
      firstAttempt.delete(uid);
    },
    close: () => timers.close(),
  };
}
