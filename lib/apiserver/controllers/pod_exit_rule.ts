/**
 * The simulation's exit rule: how long a simulated pod's containers run and with which code
 * they exit, read from the pod's annotations and restart policy.
 *
 * - `simulation.kubefold.dev/run-ms: "N"` — the containers exit N ms after they started.
 * - `simulation.kubefold.dev/exit-code: "C"` — they exit with code C (default 0); a list
 *   `"1,1,0"` gives the code of each attempt in turn (the last one repeats). An attempt is a
 *   container restart of the pod, or, for pods that never restart, an earlier pod of the same
 *   controller (so a Job's second pod is its second attempt).
 *
 * Pods with `restartPolicy` `Never` or `OnFailure` run to completion: without `run-ms` they
 * exit after the simulation's default run time. `Always` pods run until deleted unless they
 * carry `run-ms`. What follows an exit is the kubelet's: `Never`, or `OnFailure` with code 0,
 * ends the pod (`Succeeded` for 0, else `Failed`); otherwise the container restarts after a
 * back-off.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";

/** Annotation: how long the containers run before exiting, in ms. */
export const RUN_MS_ANNOTATION = "simulation.kubefold.dev/run-ms";
/** Annotation: the exit code, or a comma-separated code per attempt. */
export const EXIT_CODE_ANNOTATION = "simulation.kubefold.dev/exit-code";

/** One run of a pod's containers. */
export interface PodRun {
  /** How long the containers run, in ms. */
  readonly runMs: number;
  /** The code they exit with. */
  readonly exitCode: number;
  /** What the kubelet does after the exit. */
  readonly then: "Succeeded" | "Failed" | "Restart";
}

const wholeNumber = (text: string | undefined, max: number): number | undefined => {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n <= max ? n : undefined;
};

/**
 * The pod's `spec.restartPolicy` (default `Always`).
 *
 * @example
 * ```ts
 * import { restartPolicyOf } from "./pod_exit_rule.ts";
 * restartPolicyOf({ spec: { restartPolicy: "Never" } }); // "Never"
 * restartPolicyOf({ spec: {} }); // "Always"
 * ```
 */
export function restartPolicyOf(pod: KubeObject): "Always" | "OnFailure" | "Never" {
  const p = isPlainObject(pod.spec) ? pod.spec.restartPolicy : undefined;
  return p === "Never" || p === "OnFailure" ? p : "Always";
}

/**
 * The run of attempt `attempt` (0-based) of a pod, or undefined when it runs until deleted.
 * Malformed annotations are ignored (the defaults apply).
 *
 * @param defaultRunMs the run time of a run-to-completion pod without `run-ms`
 *
 * @example
 * ```ts
 * import { podRun } from "./pod_exit_rule.ts";
 * const pod = {
 *   metadata: { annotations: { "simulation.kubefold.dev/exit-code": "1,0" } },
 *   spec: { restartPolicy: "OnFailure" },
 * };
 * podRun(pod, 0, 50); // { runMs: 50, exitCode: 1, then: "Restart" }
 * podRun(pod, 1, 50); // { runMs: 50, exitCode: 0, then: "Succeeded" }
 * podRun({ spec: {} }, 0, 50); // undefined: an Always pod without run-ms runs on
 * ```
 */
export function podRun(pod: KubeObject, attempt: number, defaultRunMs: number): PodRun | undefined {
  const annotations = pod.metadata?.annotations ?? {};
  const policy = restartPolicyOf(pod);
  const runMs = wholeNumber(annotations[RUN_MS_ANNOTATION], Number.MAX_SAFE_INTEGER);
  if (runMs === undefined && policy === "Always") return undefined;
  const codes = (annotations[EXIT_CODE_ANNOTATION] ?? "").split(",")
    .map((c) => wholeNumber(c, 255));
  const valid = codes.every((c) => c !== undefined) ? codes as number[] : [0];
  const exitCode = valid[Math.min(Math.max(0, attempt), valid.length - 1)];
  const then = policy === "Never"
    ? (exitCode === 0 ? "Succeeded" : "Failed")
    : policy === "OnFailure" && exitCode === 0
    ? "Succeeded"
    : "Restart";
  return { runMs: runMs ?? defaultRunMs, exitCode, then };
}
