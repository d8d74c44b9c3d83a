/**
 * The statuses the simulated kubelet writes when containers exit: a pod that ended (`Failed`
 * with the exit code), a container waiting to restart (`CrashLoopBackOff`), and one running
 * again after its restart.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, plainObjects } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";

type Obj = Record<string, unknown>;

/** Conditions with Ready and ContainersReady set to `status` (time moves only on a flip). */
function readiness(old: unknown, status: string, now: string, reason?: string): Obj[] {
  const conds = plainObjects(old);
  const set = (type: string): Obj => {
    const prev = conds.find((c) => c.type === type);
    return {
      type,
      status,
      lastProbeTime: null,
      lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : now,
      ...(reason ? { reason } : {}),
    };
  };
  const kept = conds.filter((c) => c.type !== "Ready" && c.type !== "ContainersReady");
  return [...kept, set("Ready"), set("ContainersReady")];
}

const terminatedState = (c: Obj, exitCode: number, now: string) => ({
  terminated: {
    exitCode,
    reason: exitCode === 0 ? "Completed" : "Error",
    startedAt: asRecord(asRecord(c.state).running).startedAt ?? now,
    finishedAt: now,
  },
});

/**
 * The status of a pod whose containers exited with a non-zero `exitCode` and will not
 * restart: `Failed`, containers terminated (reason `Error`), not ready.
 *
 * @example
 * ```ts
 * import { failedPodStatus } from "./pod_exit_status.ts";
 * const s = failedPodStatus({ status: { phase: "Running", containerStatuses: [{ name: "c" }] } }, 2, 0);
 * s.phase; // "Failed"
 * ```
 */
export function failedPodStatus(pod: KubeObject, exitCode: number, nowMs: number): Obj {
  const now = formatTime(nowMs);
  const status = asRecord(pod.status);
  return {
    ...status,
    phase: "Failed",
    conditions: readiness(status.conditions, "False", now, "PodFailed"),
    containerStatuses: plainObjects(status.containerStatuses).map((c) => ({
      ...c,
      ready: false,
      started: false,
      state: terminatedState(c, exitCode, now),
    })),
  };
}

/**
 * The status of a pod whose containers exited and wait to be restarted: phase kept,
 * restart count up by one, the exit in `lastState`, state waiting `CrashLoopBackOff` (for a
 * non-zero code; `Completed` restarts of `Always` pods wait the same way), not ready.
 *
 * @example
 * ```ts
 * import { crashedPodStatus } from "./pod_exit_status.ts";
 * const pod = { status: { phase: "Running", containerStatuses: [{ name: "c", restartCount: 0 }] } };
 * (crashedPodStatus(pod, 1, 0).containerStatuses as { restartCount: number }[])[0].restartCount; // 1
 * ```
 */
export function crashedPodStatus(pod: KubeObject, exitCode: number, nowMs: number): Obj {
  const now = formatTime(nowMs);
  const status = asRecord(pod.status);
  return {
    ...status,
    conditions: readiness(status.conditions, "False", now, "ContainersNotReady"),
    containerStatuses: plainObjects(status.containerStatuses).map((c) => ({
      ...c,
      ready: false,
      started: false,
      restartCount: (typeof c.restartCount === "number" ? c.restartCount : 0) + 1,
      lastState: terminatedState(c, exitCode, now),
      state: {
        waiting: {
          reason: "CrashLoopBackOff",
          message: `back-off restarting failed container ${c.name} in pod ${pod.metadata?.name}`,
        },
      },
    })),
  };
}

/**
 * The status of a pod whose waiting containers were restarted: running and ready again.
 *
 * @example
 * ```ts
 * import { restartedPodStatus } from "./pod_exit_status.ts";
 * const pod = { status: { containerStatuses: [{ name: "c", state: { waiting: {} } }] } };
 * (restartedPodStatus(pod, 0).containerStatuses as { ready: boolean }[])[0].ready; // true
 * ```
 */
export function restartedPodStatus(pod: KubeObject, nowMs: number): Obj {
  const now = formatTime(nowMs);
  const status = asRecord(pod.status);
  return {
    ...status,
    conditions: readiness(status.conditions, "True", now),
    containerStatuses: plainObjects(status.containerStatuses).map((c) => ({
      ...c,
      ready: true,
      started: true,
      state: { running: { startedAt: now } },
    })),
  };
}

/**
 * The restart count of the pod's first container (0 when unknown).
 *
 * @example
 * ```ts
 * import { restartCountOf } from "./pod_exit_status.ts";
 * restartCountOf({ status: { containerStatuses: [{ restartCount: 2 }] } }); // 2
 * ```
 */
export function restartCountOf(pod: KubeObject): number {
  const n = plainObjects(asRecord(pod.status).containerStatuses)[0]?.restartCount;
  return typeof n === "number" ? n : 0;
}
