/**
 * The status of a pod whose containers run as local processes, from each container's state:
 * phase, Ready/ContainersReady conditions, container statuses with restart counts and last
 * states. Pure.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";
import { fakeDigest } from "./pod_status.ts";
import type { PodRun } from "./_process_kubelet_types.ts";

/** Where a container instance is. */
export type ContainerState =
  | { readonly type: "running"; readonly startedAtMs: number; readonly ready: boolean }
  | { readonly type: "waiting"; readonly reason: string; readonly message?: string }
  | {
    readonly type: "terminated";
    readonly exitCode: number;
    readonly reason: string;
    readonly signal?: number;
    readonly startedAtMs: number;
    readonly finishedAtMs: number;
  };

/** One container as the kubelet tracks it. */
export interface ContainerRunState {
  readonly name: string;
  readonly image: string;
  readonly restartCount: number;
  readonly state: ContainerState;
  /** The previous instance's end. */
  readonly last?: Extract<ContainerState, { type: "terminated" }>;
}

/** The pod's IPs and the time. */
export interface ProcessPlacement {
  readonly podIP: string;
  readonly hostIP: string;
  readonly startedAtMs: number;
  readonly nowMs: number;
}

type Obj = Record<string, unknown>;

function stateJson(s: ContainerState): Obj {
  switch (s.type) {
    case "running":
      return { running: { startedAt: formatTime(s.startedAtMs) } };
    case "waiting":
      return { waiting: { reason: s.reason, ...(s.message ? { message: s.message } : {}) } };
    case "terminated":
      return {
        terminated: {
          exitCode: s.exitCode,
          ...(s.signal !== undefined ? { signal: s.signal } : {}),
          reason: s.reason,
          startedAt: formatTime(s.startedAtMs),
          finishedAt: formatTime(s.finishedAtMs),
        },
      };
  }
}

/**
 * The pod phase of its containers: Pending until they were first created, Running while
 * any runs or waits to restart; once all
 * ended for good, Succeeded when every exit code is 0, else Failed.
 *
 * @example
 * ```ts
 * import { processPodPhase } from "./process_pod_status.ts";
 * processPodPhase([{ name: "c", image: "i", restartCount: 0,
 *   state: { type: "terminated", exitCode: 0, reason: "Completed", startedAtMs: 0, finishedAtMs: 1 } }]);
 * // "Succeeded"
 * ```
 */
export function processPodPhase(containers: readonly ContainerRunState[]): string {
  const creating = (c: ContainerRunState) =>
    c.restartCount === 0 && c.state.type === "waiting" && c.state.reason === "ContainerCreating";
  if (containers.every(creating)) return "Pending";
  if (containers.some((c) => c.state.type !== "terminated")) return "Running";
  return containers.every((c) => c.state.type === "terminated" && c.state.exitCode === 0)
    ? "Succeeded"
    : "Failed";
}

/**
 * The whole status.
 *
 * @example
 * ```ts
 * import { processPodStatus } from "./process_pod_status.ts";
 * const s = processPodStatus({ metadata: { uid: "u" } }, [{ name: "c", image: "i", restartCount: 0,
 *   state: { type: "running", startedAtMs: 0, ready: false } }],
 *   { podIP: "127.245.1.2", hostIP: "h", startedAtMs: 0, nowMs: 0 });
 * s.phase; // "Running"
 * ```
 */
export function processPodStatus(
  pod: KubeObject,
  containers: readonly ContainerRunState[],
  at: ProcessPlacement,
): Obj {
  const now = formatTime(at.nowMs);
  const old = Array.isArray(asRecord(pod.status).conditions)
    ? (asRecord(pod.status).conditions as Obj[])
    : [];
  const ready = containers.every((c) => c.state.type === "running" && c.state.ready);
  const condition = (type: string, ok: boolean, reason?: string) => {
    const status = ok ? "True" : "False";
    const prev = old.find((c) => c.type === type);
    return {
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : now,
      ...(!ok && reason ? { reason } : {}),
    };
  };
  const phase = processPodPhase(containers);
  const notReady = phase === "Running" ? "ContainersNotReady" : "PodCompleted";
  const uid = pod.metadata?.uid ?? "";
  return {
    ...asRecord(pod.status),
    phase,
    conditions: [
      condition("PodReadyToStartContainers", true),
      condition("Initialized", true),
      condition("Ready", ready, notReady),
      condition("ContainersReady", ready, notReady),
      condition("PodScheduled", true),
    ],
    hostIP: at.hostIP,
    hostIPs: [{ ip: at.hostIP }],
    podIP: at.podIP,
    podIPs: [{ ip: at.podIP }],
    startTime: formatTime(at.startedAtMs),
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: `local://${fakeDigest(c.image)}`,
      containerID: `process://${fakeDigest(`${uid}/${c.name}/${c.restartCount}`)}`,
      ready: c.state.type === "running" && c.state.ready,
      started: c.state.type === "running",
      restartCount: c.restartCount,
      state: stateJson(c.state),
      lastState: c.last ? stateJson(c.last) : {},
    })),
  };
}

/**
 * The status of a pod the process kubelet runs, from its run: each container's state (a
 * running one's readiness from its probes), restarts and last termination.
 *
 * @example
 * ```ts
 * import { podRunStatus } from "./process_pod_status.ts";
 * const run = {
 *   uid: "u", pod: {}, dir: "", podIP: "127.0.0.2", hostIP: "127.0.0.1", startedAtMs: 0,
 *   containers: new Map([["app", {
 *     spec: { image: "app:1" }, name: "app", restartCount: 0,
 *     state: { type: "waiting" as const, reason: "ContainerCreating" },
 *   }]]),
 * };
 * podRunStatus({ metadata: { name: "p" } }, run, 0).phase; // "Pending"
 * ```
 */
export function podRunStatus(pod: KubeObject, run: PodRun, nowMs: number): Obj {
  return processPodStatus(
    pod,
    [...run.containers.values()].map((c): ContainerRunState => ({
      name: c.name,
      image: String(c.spec.image ?? ""),
      restartCount: c.restartCount,
      state: c.state.type === "running" && c.current
        ? { ...c.state, ready: c.current.probes.ready }
        : c.state,
      ...(c.last ? { last: c.last } : {}),
    })),
    { podIP: run.podIP, hostIP: run.hostIP, startedAtMs: run.startedAtMs, nowMs },
  );
}
