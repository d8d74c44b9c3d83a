/**
 * A simulated cluster in the style of KWOK: N fake Ready nodes, a scheduler that binds pending
 * pods, and kubelets (`_simulated_kubelet.ts`) that start pods, confirm their deletion and fail
 * them with their node.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike } from "../../deps.ts";
import type { KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { createObject, updateObject } from "../object_write.ts";
import type { StoredEvent } from "../watch_hub.ts";
import { schedulePod } from "./schedule_pod.ts";
import { type EventNote, recordEvent } from "./record_event.ts";
import { nodeReady } from "./pick_node.ts";
import { simulatedNode, simulatedNodeName, simulatedNodeStatus } from "./simulated_node.ts";
import { podFinished, podKey, podNodeName, podUnscheduled } from "./_pod_facts.ts";
import { attempt } from "./_keyed_timers.ts";
import { createSimulatedKubelet } from "./_simulated_kubelet.ts";
import { createProcessKubelet, type InClusterEndpoint } from "./_process_kubelet.ts";
import { type ImageMapping, parseImageMap } from "./image_map.ts";
import type { ContainerLog } from "./container_logs.ts";

/** Options of {@link installSimulation}; every field has a default. */
export interface SimulationOptions {
  /** Number of simulated nodes, `kubefold-node-1..N`; default 3. */
  readonly nodes?: number;
  /** Delay between a pod's binding and its `Running` status; default 100 ms. */
  readonly podStartDelayMs?: number;
  /**
   * How long the containers of a run-to-completion pod (`restartPolicy` `Never` or
   * `OnFailure`) run before they exit, unless the pod's `simulation.kubefold.dev/run-ms`
   * annotation says otherwise (see `pod_exit_rule.ts`); default `podStartDelayMs`.
   */
  readonly podRunMs?: number;
  /** Delay before a kubelet confirms a graceful pod deletion (never the grace period); default 100 ms. */
  readonly kubeletDelayMs?: number;
  /** Clock of the delays; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Record Events (Scheduled, FailedScheduling, Started, NodeNotReady, Completed); default true. */
  readonly events?: boolean;
  /**
   * Pods to run for real (off by default): a pod whose every container image matches one of
   * these patterns runs each container as a local process of the mapped executable, with a
   * pod's environment, probes, restarts, SIGTERM on delete and `kubectl logs`; either
   * `'IMAGE-PATTERN=PATH,...'` (`*` matches anything; paths relative to the working
   * directory) or the parsed list. Needs the server's `tls` (in-cluster clients speak HTTPS).
   * Other pods stay simulated.
   */
  readonly runImages?: string | readonly ImageMapping[];
  /** First restart back-off of a process that exited (doubling, up to 60 s); default 1,000 ms. */
  readonly processBackoffMs?: number;
  /**
   * How often a process pod's `secret` and `configMap` volumes are brought up to date with
   * their objects (changed keys rewritten, removed ones deleted; `subPath` mounts never); the
   * kubelet's sync period, up to a minute on a real node. Default 1,000 ms.
   */
  readonly volumeSyncMs?: number;
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
  /** The log of a pod's container run as a process (`previous`: the instance before). */
  readonly containerLog: (
    uid: string,
    container: string,
    previous: boolean,
  ) => ContainerLog | undefined;
  /** Whether a pod runs as processes. */
  readonly runsProcesses: (uid: string) => boolean;
  /** Cancels pending timers, kills processes, stops reacting to events. */
  readonly close: () => Promise<void>;
}

/**
 * Creates the simulated nodes and starts the scheduler and kubelets on a server context.
 *
 * Like KWOK's fast stages, but inside the server: every write goes through the ordinary write
 * path (`pods/binding`, `pods/status`, delete with grace 0 and a uid precondition).
 *
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * const server = await startApiServer({ simulation: { nodes: 2, podStartDelayMs: 0 } });
 * server.failNode?.("kubefold-node-1");
 * await server.close();
 * ```
 */
export function installSimulation(
  ctx: ServerContext,
  options: SimulationOptions = {},
  endpoint?: InClusterEndpoint,
): Simulation {
  const event = (obj: KubeObject, note: EventNote) => {
    if (options.events ?? true) recordEvent(ctx, obj, note);
  };
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  const nodeInfo = ctx.registry.lookup("", "v1", "nodes")!;
  const indexOf = new Map<string, number>();
  const load = new Map<string, number>();
  const pending = new Set<string>();
  const scheduleDue = new Set<string>(), kubeletDue = new Set<string>();
  let scheduled = false;
  let closed = false;

  const nodeObj = (name: string) => ctx.storage.get(nodeInfo.storageKey, name)?.object;
  const podObj = (key: string) => ctx.storage.get(podInfo.storageKey, key)?.object;
  const hasKubelet = (name: string) => {
    const n = indexOf.has(name) ? nodeObj(name) : undefined;
    return !!n && nodeReady(n);
  };
  const images = typeof options.runImages === "string"
    ? parseImageMap(options.runImages, Deno.cwd())
    : { _tag: "Right" as const, right: options.runImages ?? [] };
  if (images._tag === "Left") throw new Error(images.left);
  if (images.right.length > 0 && !endpoint) {
    throw new Error("Cannot run images as processes: the simulation has no API endpoint");
  }
  const processes = images.right.length > 0 && endpoint
    ? createProcessKubelet({
      images: images.right,
      endpoint,
      scheduler: options.scheduler ?? asyncScheduler,
      now: ctx.now,
      event,
      backoffMs: options.processBackoffMs,
      volumeSyncMs: options.volumeSyncMs,
      volumeSource: (kind, namespace, name) =>
        ctx.storage.get(kind === "Secret" ? "/secrets" : "/configmaps", `${namespace}/${name}`)
          ?.object,
      writeStatus: (pod, status) => {
        const key = podKey(pod);
        const current = podObj(key);
        if (!current || current.metadata?.uid !== pod.metadata?.uid) return;
        attempt(() =>
          updateObject(ctx, podInfo, current.metadata?.namespace, current.metadata!.name!, {
            ...current,
            status: status(current),
          }, { subresource: "status", unconditional: true, fieldManager: "kubelet" })
        );
      },
    })
    : undefined;
  const kubelet = createSimulatedKubelet(ctx, {
    processes,
    nodeIndex: indexOf,
    hasKubelet,
    event,
    scheduler: options.scheduler ?? asyncScheduler,
    startDelayMs: options.podStartDelayMs ?? 100,
    runMs: options.podRunMs ?? options.podStartDelayMs ?? 100,
    confirmDelayMs: options.kubeletDelayMs ?? 100,
  });

  const kick = () => {
    if (scheduled || closed) return;
    scheduled = true;
    queueMicrotask(run);
  };

  function run(): void {
    scheduled = false;
    for (let round = 0; round < 1_000 && !closed; round++) {
      if (!scheduleDue.size && !kubeletDue.size) return;
      const toSchedule = [...scheduleDue], toSync = [...kubeletDue];
      scheduleDue.clear();
      kubeletDue.clear();
      for (const key of toSchedule) attempt(() => schedule(key));
      for (const key of toSync) attempt(() => kubelet.syncPod(key));
    }
  }

  function schedule(key: string): void {
    const pod = podObj(key);
    if (!pod || !podUnscheduled(pod)) return;
    const nodes = ctx.storage.list(nodeInfo.storageKey).map((s) => s.object);
    schedulePod(ctx, pod, nodes, load, event);
  }

  const counted = (pod: KubeObject | undefined) => !!podNodeName(pod) && !podFinished(pod);
  const adjust = (pod: KubeObject | undefined, by: number) => {
    if (counted(pod)) load.set(podNodeName(pod), (load.get(podNodeName(pod)) ?? 0) + by);
  };

  function deliverPod(e: StoredEvent): void {
    adjust(e.prev, -1);
    const key = podKey(e.object);
    if (e.type === "DELETED") {
      pending.delete(key);
      kubelet.forget(e.object.metadata!.uid!);
      return;
    }
    adjust(e.object, 1);
    if (podUnscheduled(e.object)) {
      pending.add(key);
      scheduleDue.add(key);
    } else pending.delete(key);
    if (indexOf.has(podNodeName(e.object))) kubeletDue.add(key);
    kick();
  }

  function deliverNode(e: StoredEvent): void {
    if (e.type !== "DELETED" && nodeReady(e.object)) {
      for (const key of pending) scheduleDue.add(key);
    }
    const name = e.object.metadata!.name!;
    if (indexOf.has(name) && (e.type === "DELETED" || !nodeReady(e.object))) {
      for (const s of ctx.storage.list(podInfo.storageKey)) {
        if (podNodeName(s.object) === name) kubeletDue.add(podKey(s.object));
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
    }, { subresource: "status", unconditional: true, fieldManager: "kubelet" });
  };

  const count = Math.max(0, Math.floor(options.nodes ?? 3));
  for (let i = 1; i <= count; i++) {
    const name = simulatedNodeName(i);
    indexOf.set(name, i);
    if (nodeObj(name)) continue;
    createObject(ctx, nodeInfo, undefined, simulatedNode(i));
    setReady(name, true);
  }
  /** A claim, volume or class changed: pending pods of the namespace may now fit. */
  function deliverStorage(e: StoredEvent): void {
    const ns = e.object.metadata?.namespace;
    for (const key of pending) {
      if (ns === undefined || key.startsWith(`${ns}/`)) scheduleDue.add(key);
    }
    kick();
  }
  const storageKeys = [
    "/persistentvolumeclaims",
    "/persistentvolumes",
    "storage.k8s.io/storageclasses",
  ];
  const unsubscribe = [
    ctx.storage.hub.subscribe(podInfo.storageKey, { deliver: deliverPod }),
    ctx.storage.hub.subscribe(nodeInfo.storageKey, { deliver: deliverNode }),
    ctx.storage.hub.subscribeAll({
      deliver: (e) => {
        if (pending.size && storageKeys.includes(e.storageKey)) deliverStorage(e);
      },
    }),
  ];
  for (const s of ctx.storage.list(podInfo.storageKey)) {
    deliverPod({ rv: 0, type: "ADDED", storageKey: podInfo.storageKey, object: s.object });
  }
  return {
    nodeNames: [...indexOf.keys()],
    hasKubelet,
    failNode: (name) => setReady(name, false),
    restoreNode: (name) => setReady(name, true),
    containerLog: (uid, container, previous) => processes?.log(uid, container, previous),
    runsProcesses: (uid) => processes?.has(uid) ?? false,
    close: async () => {
      closed = true;
      for (const u of unsubscribe) u();
      kubelet.close();
      await processes?.close();
    },
  };
}
