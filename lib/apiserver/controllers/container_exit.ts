/**
 * Internal: what the process kubelet does when a container's process exits — the terminated
 * state it records, and whether the container stays down (its pod's `restartPolicy`) or
 * restarts after a back-off that doubles per restart up to 60 s, as the kubelet's.
 *
 * @module
 */
import type { ContainerState } from "./process_pod_status.ts";

/** A terminated container state. */
export type Terminated = Extract<ContainerState, { type: "terminated" }>;

/** The decision for an exited container. */
export type ContainerExit =
  | { readonly type: "done"; readonly ended: Terminated }
  | { readonly type: "restart"; readonly ended: Terminated; readonly waitMs: number };

/** The facts {@link containerExit} decides on, beside the process status. */
export interface ExitFacts {
  readonly startedAtMs: number;
  readonly nowMs: number;
  /** `Always` (default), `OnFailure` or `Never`. */
  readonly restartPolicy: string;
  /** Restarts so far (before this one). */
  readonly restartCount: number;
  /** The first back-off. */
  readonly backoffMs: number;
}

/**
 * The terminated state of an exited process and what follows: `done` when the restart policy
 * keeps the container down, else `restart` after `backoffMs * 2^restartCount`, at most 60 s.
 *
 * @example
 * ```ts
 * import { containerExit } from "./container_exit.ts";
 * const next = containerExit({ success: false, code: 3, signal: null }, {
 *   startedAtMs: 0, nowMs: 10, restartPolicy: "Always", restartCount: 2, backoffMs: 1000,
 * });
 * next.type === "restart" && next.waitMs; // 4000
 * ```
 */
export function containerExit(status: Deno.CommandStatus, facts: ExitFacts): ContainerExit {
  const code = status.code ?? (status.signal ? 128 : 1);
  const ended: Terminated = {
    type: "terminated",
    exitCode: code,
    reason: code === 0 ? "Completed" : "Error",
    ...(status.signal
      ? { signal: Deno.build.os === "windows" ? 0 : signalNumber(status.signal) }
      : {}),
    startedAtMs: facts.startedAtMs,
    finishedAtMs: facts.nowMs,
  };
  const policy = facts.restartPolicy;
  if (policy === "Never" || (policy === "OnFailure" && code === 0)) return { type: "done", ended };
  const waitMs = Math.min(facts.backoffMs * 2 ** facts.restartCount, 60_000);
  return { type: "restart", ended, waitMs };
}

function signalNumber(signal: Deno.Signal): number {
  const numbers: Partial<Record<Deno.Signal, number>> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 };
  return numbers[signal] ?? 0;
}
