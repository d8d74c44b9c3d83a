/**
 * The statuses the simulated kubelet writes: a started pod, and a pod on a lost node.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, plainObjects } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";

type Condition = {
  type: string;
  status: string;
  lastProbeTime: null;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
};

/** 64 hex digits derived from a string (FNV-1a, repeated with different seeds). */
export function fakeDigest(text: string): string {
  let out = "";
  for (let seed = 0; out.length < 64; seed++) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    out += (h >>> 0).toString(16).padStart(8, "0");
  }
  return out.slice(0, 64);
}

function imageRef(image: string): string {
  const name = image.split("@")[0].replace(/:[^/:]+$/, "");
  const full = name.includes("/") ? name : `library/${name}`;
  return `docker.io/${full}@sha256:${fakeDigest(image)}`;
}

const condition = (type: string, status: string, at: string, old: Condition[]): Condition => {
  const prev = old.find((c) => c.type === type);
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : at,
  };
};

/** Where a started pod runs. */
export interface PodPlacement {
  readonly hostIP: string;
  readonly podIP: string;
  readonly nowMs: number;
}

/**
 * The status of `pod` once the simulated kubelet started it: `Running`, with IPs, start
 * time, running container statuses and the conditions PodScheduled, Initialized,
 * ContainersReady and Ready all `True`.
 *
 * @example
 * ```ts
 * import { runningPodStatus } from "./pod_status.ts";
 * const pod = { metadata: { uid: "u" }, spec: { containers: [{ name: "app", image: "nginx:1.27" }] } };
 * runningPodStatus(pod, { hostIP: "10.0.0.11", podIP: "10.244.1.2", nowMs: 0 }).phase; // "Running"
 * ```
 */
export function runningPodStatus(pod: KubeObject, at: PodPlacement): Record<string, unknown> {
  const now = formatTime(at.nowMs);
  const status = asRecord(pod.status);
  const old = plainObjects(status.conditions) as Condition[];
  const uid = pod.metadata?.uid ?? "";
  const container = (c: Record<string, unknown>) => {
    const image = String(c.image ?? "");
    return {
      name: String(c.name ?? ""),
      image,
      imageID: imageRef(image),
      containerID: `containerd://${fakeDigest(`${uid}/${String(c.name)}`)}`,
    };
  };
  const spec = asRecord(pod.spec);
  const init = plainObjects(spec.initContainers);
  return {
    ...status,
    phase: "Running",
    conditions: [
      condition("PodReadyToStartContainers", "True", now, old),
      condition("Initialized", "True", now, old),
      condition("Ready", "True", now, old),
      condition("ContainersReady", "True", now, old),
      condition("PodScheduled", "True", now, old),
    ],
    hostIP: at.hostIP,
    hostIPs: [{ ip: at.hostIP }],
    podIP: at.podIP,
    podIPs: [{ ip: at.podIP }],
    startTime: now,
    ...(init.length
      ? {
        initContainerStatuses: init.map((c) => ({
          ...container(c),
          ready: true,
          started: false,
          restartCount: 0,
          state: {
            terminated: { exitCode: 0, reason: "Completed", startedAt: now, finishedAt: now },
          },
          lastState: {},
        })),
      }
      : {}),
    containerStatuses: plainObjects(spec.containers).map((c) => ({
      ...container(c),
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: now } },
      lastState: {},
    })),
  };
}

/**
 * The status of `pod` after its node was lost: `Failed` with reason `NodeLost`, not ready,
 * containers terminated.
 *
 * @example
 * ```ts
 * import { nodeLostPodStatus } from "./pod_status.ts";
 * nodeLostPodStatus({ metadata: { name: "p" }, spec: { nodeName: "n" } }, 0).reason; // "NodeLost"
 * ```
 */
export function nodeLostPodStatus(pod: KubeObject, nowMs: number): Record<string, unknown> {
  const now = formatTime(nowMs);
  const status = asRecord(pod.status);
  const node = String(asRecord(pod.spec).nodeName ?? "");
  const old = plainObjects(status.conditions) as Condition[];
  const notReady = (type: string): Condition => ({
    ...condition(type, "False", now, old),
    reason: "NodeLost",
    message: `Node ${node} which was running pod ${pod.metadata?.name} is unresponsive`,
  });
  const kept = old.filter((c) => c.type !== "Ready" && c.type !== "ContainersReady");
  return {
    ...status,
    phase: "Failed",
    reason: "NodeLost",
    message: `Node ${node} which was running pod ${pod.metadata?.name} is unresponsive`,
    conditions: [...kept, notReady("Ready"), notReady("ContainersReady")],
    containerStatuses: terminated(status.containerStatuses, 137, "Error", now),
  };
}

/**
 * The status of a pod whose containers all exited 0 (KWOK's pod-complete stage for Job pods):
 * `Succeeded`, containers terminated `Completed`, Ready and ContainersReady `False`
 * (reason PodCompleted).
 *
 * @example
 * ```ts
 * import { succeededPodStatus } from "./pod_status.ts";
 * succeededPodStatus({ metadata: { name: "p" }, status: { phase: "Running" } }, 0).phase; // "Succeeded"
 * ```
 */
export function succeededPodStatus(pod: KubeObject, nowMs: number): Record<string, unknown> {
  const now = formatTime(nowMs);
  const status = asRecord(pod.status);
  const old = plainObjects(status.conditions) as Condition[];
  const completed = (type: string): Condition => ({
    ...condition(type, "False", now, old),
    reason: "PodCompleted",
  });
  const kept = old.filter((c) => c.type !== "Ready" && c.type !== "ContainersReady");
  return {
    ...status,
    phase: "Succeeded",
    conditions: [...kept, completed("Ready"), completed("ContainersReady")],
    containerStatuses: terminated(status.containerStatuses, 0, "Completed", now),
  };
}

/** Container statuses of stopped containers (not ready, terminated with `exitCode`). */
function terminated(statuses: unknown, exitCode: number, reason: string, now: string): unknown[] {
  return plainObjects(statuses).map((c) => ({
    ...c,
    ready: false,
    started: false,
    state: {
      terminated: {
        exitCode,
        reason,
        startedAt: asRecord(asRecord(c.state).running).startedAt ?? now,
        finishedAt: now,
      },
    },
  }));
}
