/**
 * A simulated cluster in the style of KWOK: N fake Ready nodes, a scheduler that binds pending
 * pods, and kubelets that start pods, confirm their deletion and fail them with their node.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from "../../deps.ts";
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { createObject, updateObject } from "../object_write.ts";
import { deleteObject } from "../object_delete.ts";
import type { StoredEvent } from "../watch_hub.ts";
import { schedulePod } from "./schedule_pod.ts";
import { type EventNote, recordEvent } from "./record_event.ts";
import { nodeReady } from "./pick_node.ts";
import { nodeLostPodStatus, runningPodStatus, succeededPodStatus } from "./pod_status.ts";
import {
  simulatedNode,
  simulatedNodeIp,
  simulatedNodeName,
  simulatedNodeStatus,
} from "./simulated_node.ts";

/** Options of {@link installSimulation}; every field has a default. */
export interface SimulationOptions {
  /** Number of simulated nodes, `kubefold-node-1..N`; default 3. */
  readonly nodes?: number;
  /** Delay between a pod's binding and its `Running` status; default 100 ms. */
  readonly podStartDelayMs?: number;
  /** Delay before a kubelet confirms a graceful pod deletion (never the grace period); default 100 ms. */
  readonly kubeletDelayMs?: number;
  /** Clock of the delays; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Record Events (Scheduled, FailedScheduling, Started, NodeNotReady, Completed); default true. */
  readonly events?: boolean;
}

/** A running simulation. */
export interface Simulation {
  /** Names of the simulated nodes. */
  readonly nodeNames: readonly string[];
  /** Whether a live simulated kubelet runs `nodeName` (simulated and Ready). */
  readonly hasKubelet: (nodeName: string) => boolean;
  /** Marks a simulated node lost (Ready `Unknown`): its pods turn `Failed` (reason NodeLost). */
  readonly failNode: (name: string) => void;
  /** Marks a simulated node Ready again: pending pods may be scheduled on it. */
  readonly restoreNode: (name: string) => void;
  /** Cancels pending timers and stops reacting to events. */
  readonly close: () => void;
}

const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const nodeOf = (pod: KubeObject | undefined): string => {
  const n = rec(pod?.spec).nodeName;
  return typeof n === "string" ? n : "";
};
const phaseOf = (pod: KubeObject | undefined) => rec(pod?.status).phase;
const finished = (pod: KubeObject | undefined) =>
  phaseOf(pod) === "Succeeded" || phaseOf(pod) === "Failed";
const ownedByJob = (pod: KubeObject) =>
  (pod.metadata?.ownerReferences ?? []).some((r) => r.kind === "Job" && r.controller === true);
const keyOf = (pod: KubeObject) => `${pod.metadata!.namespace}/${pod.metadata!.name}`;
const unscheduled = (pod: KubeObject) =>
  !nodeOf(pod) && !pod.metadata?.deletionTimestamp && !finished(pod) &&
  (rec(pod.spec).schedulerName ?? "default-scheduler") === "default-scheduler";

/**
 * Creates the simulated nodes and starts the scheduler and kubelets on a server context.
 *
 * Like KWOK's fast stages, but inside the server: every write goes through the ordinary write
 * path (`pods/binding`, `pods/status`, delete with grace 0 and a uid precondition).
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer({ simulation: { nodes: 2, podStartDelayMs: 0 } });
 * server.failNode?.("kubefold-node-1");
 * await server.close();
 * ```
 */
export function installSimulation(ctx: ServerContext, options: SimulationOptions = {}): Simulation {
  const scheduler = options.scheduler ?? asyncScheduler;
  const startDelay = options.podStartDelayMs ?? 100;
  const confirmDelay = options.kubeletDelayMs ?? 100;
  const event = (obj: KubeObject, note: EventNote) => {
    if (options.events ?? true) recordEvent(ctx, obj, note);
  };
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  const nodeInfo = ctx.registry.lookup("", "v1", "nodes")!;
  const indexOf = new Map<string, number>();
  const load = new Map<string, number>();
  const pending = new Set<string>();
  const timers = new Map<string, Subscription>();
  const ipCounter = new Map<string, number>();
  const scheduleDue = new Set<string>(), kubeletDue = new Set<string>();
  let scheduled = false;
  let closed = false;

  const nodeObj = (name: string) => ctx.storage.get(nodeInfo.storageKey, name)?.object;
  const podObj = (key: string) => ctx.storage.get(podInfo.storageKey, key)?.object;
  const hasKubelet = (name: string) => {
    const n = indexOf.has(name) ? nodeObj(name) : undefined;
    return !!n && nodeReady(n);
  };

  const kick = () => {
    if (scheduled || closed) return;
    scheduled = true;
    queueMicrotask(run);
  };
  const attempt = (f: () => void) => {
    try {
      f();
    } catch {
      // Changed meanwhile: the change's own event brings the pod back.
    }
  };
  const later = (id: string, delayMs: number, f: () => void) => {
    if (timers.has(id) || closed) return;
    timers.set(
      id,
      scheduler.schedule(() => {
        timers.delete(id);
        if (!closed) attempt(f);
      }, delayMs),
    );
  };

  function run(): void {
    scheduled = false;
    for (let round = 0; round < 1_000 && !closed; round++) {
      if (!scheduleDue.size && !kubeletDue.size) return;
      const toSchedule = [...scheduleDue], toSync = [...kubeletDue];
      scheduleDue.clear();
      kubeletDue.clear();
      for (const key of toSchedule) attempt(() => schedule(key));
      for (const key of toSync) attempt(() => syncPod(key));
    }
  }

  function schedule(key: string): void {
    const pod = podObj(key);
    if (!pod || !unscheduled(pod)) return;
    const nodes = ctx.storage.list(nodeInfo.storageKey).map((s) => s.object);
    schedulePod(ctx, pod, nodes, load, event);
  }

  function syncPod(key: string): void {
    const pod = podObj(key);
    const node = nodeOf(pod);
    if (!pod || !indexOf.has(node)) return;
    const m = pod.metadata!;
    const uid = m.uid!;
    if (m.deletionTimestamp) {
      if (!hasKubelet(node)) return;
      return later(`delete/${uid}`, confirmDelay, () => {
        deleteObject(ctx, podInfo, m.namespace, m.name!, {
          gracePeriodSeconds: 0,
          preconditions: { uid },
        });
      });
    }
    if (finished(pod)) return;
    if (!hasKubelet(node)) {
      timers.get(`start/${uid}`)?.unsubscribe();
      timers.delete(`start/${uid}`);
      const lost = updateObject(ctx, podInfo, m.namespace, m.name!, {
        ...pod,
        status: nodeLostPodStatus(pod, ctx.now()),
      }, { subresource: "status", unconditional: true }).object;
      event(lost, {
        reason: "NodeNotReady",
        message: "Node is not ready",
        component: "node-controller",
        type: "Warning",
      });
      return;
    }
    if (phaseOf(pod) !== "Pending" && phaseOf(pod) !== undefined) return;
    later(`start/${uid}`, startDelay, () => {
      const now = podObj(key);
      if (
        !now || now.metadata?.uid !== uid || now.metadata.deletionTimestamp ||
        !hasKubelet(node) || (phaseOf(now) !== "Pending" && phaseOf(now) !== undefined)
      ) return;
      const n = (ipCounter.get(node) ?? 0) + 1;
      ipCounter.set(node, n);
      const podIP = `10.244.${indexOf.get(node)! % 256}.${2 + ((n - 1) % 250)}`;
      const status = runningPodStatus(now, {
        hostIP: simulatedNodeIp(indexOf.get(node)!),
        podIP,
        nowMs: ctx.now(),
      });
      const started = updateObject(ctx, podInfo, m.namespace, m.name!, { ...now, status }, {
        subresource: "status",
        unconditional: true,
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
      if (ownedByJob(started)) later(`start/${uid}`, startDelay, () => complete(key, uid));
    });
  }

  function complete(key: string, uid: string): void {
    const pod = podObj(key);
    if (!pod || pod.metadata?.uid !== uid || pod.metadata.deletionTimestamp) return;
    if (phaseOf(pod) !== "Running" || !hasKubelet(nodeOf(pod))) return;
    const m = pod.metadata;
    const done = updateObject(ctx, podInfo, m.namespace, m.name!, {
      ...pod,
      status: succeededPodStatus(pod, ctx.now()),
    }, { subresource: "status", unconditional: true }).object;
    event(done, {
      reason: "Completed",
      message: "Pod completed",
      component: "kubelet",
      host: nodeOf(pod),
    });
  }

  const counted = (pod: KubeObject | undefined) => !!nodeOf(pod) && !finished(pod);
  const adjust = (pod: KubeObject | undefined, by: number) => {
    if (counted(pod)) load.set(nodeOf(pod), (load.get(nodeOf(pod)) ?? 0) + by);
  };

  function deliverPod(e: StoredEvent): void {
    adjust(e.prev, -1);
    const key = keyOf(e.object);
    if (e.type === "DELETED") {
      pending.delete(key);
      for (const kind of ["start", "delete"]) {
        const id = `${kind}/${e.object.metadata!.uid}`;
        timers.get(id)?.unsubscribe();
        timers.delete(id);
      }
      return;
    }
    adjust(e.object, 1);
    if (unscheduled(e.object)) {
      pending.add(key);
      scheduleDue.add(key);
    } else pending.delete(key);
    if (indexOf.has(nodeOf(e.object))) kubeletDue.add(key);
    kick();
  }

  function deliverNode(e: StoredEvent): void {
    if (e.type !== "DELETED" && nodeReady(e.object)) {
      for (const key of pending) scheduleDue.add(key);
    }
    const name = e.object.metadata!.name!;
    if (indexOf.has(name) && (e.type === "DELETED" || !nodeReady(e.object))) {
      for (const s of ctx.storage.list(podInfo.storageKey)) {
        if (nodeOf(s.object) === name) kubeletDue.add(keyOf(s.object));
      }
    }
    kick();
  }

  const setReady = (name: string, ready: boolean) => {
    const index = indexOf.get(name);
    const node = nodeObj(name);
    if (index === undefined || !node) {
      throw new Error(`Cannot change node ${name}: it is not a simulated node of this server`);
    }
    updateObject(ctx, nodeInfo, undefined, name, {
      ...node,
      status: simulatedNodeStatus(index, ctx.now(), ready),
    }, { subresource: "status", unconditional: true });
  };

  const count = Math.max(0, Math.floor(options.nodes ?? 3));
  for (let i = 1; i <= count; i++) {
    const name = simulatedNodeName(i);
    indexOf.set(name, i);
    if (nodeObj(name)) continue;
    createObject(ctx, nodeInfo, undefined, simulatedNode(i));
    setReady(name, true);
  }
  const unsubscribe = [
    ctx.storage.hub.subscribe(podInfo.storageKey, { deliver: deliverPod }),
    ctx.storage.hub.subscribe(nodeInfo.storageKey, { deliver: deliverNode }),
  ];
  for (const s of ctx.storage.list(podInfo.storageKey)) {
    deliverPod({ rv: 0, type: "ADDED", storageKey: podInfo.storageKey, object: s.object });
  }
  return {
    nodeNames: [...indexOf.keys()],
    hasKubelet,
    failNode: (name) => setReady(name, false),
    restoreNode: (name) => setReady(name, true),
    close: () => {
      closed = true;
      for (const u of unsubscribe) u();
      for (const t of timers.values()) t.unsubscribe();
      timers.clear();
    },
  };
}
