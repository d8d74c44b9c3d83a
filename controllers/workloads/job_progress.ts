/**
 * `jobProgress`: what a Job's pods say about it — counts, completed indexes, and whether it
 * has met its success criteria or a failure target (backoff limit, deadline).
 *
 * @module
 */
import type { k8sBatch } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import type { Pod } from "./pod_facts.ts";

/** A batch/v1 Job. */
export type Job = k8sBatch.Job;

/** The annotation and label holding an Indexed Job pod's completion index. */
export const COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";

type P = DeepReadonly<Pod>;

/** A Job's pods sorted out, and the verdict they give. */
export interface JobProgress {
  /** Pods neither finished nor being deleted. */
  readonly active: readonly P[];
  /** Pods being deleted. */
  readonly terminating: readonly P[];
  /** `status.succeeded` after this observation (never below the recorded count). */
  readonly succeeded: number;
  /** `status.failed` after this observation (never below the recorded count). */
  readonly failed: number;
  /** Indexed Jobs: the indexes with a Succeeded pod. */
  readonly completedIndexes: ReadonlySet<number>;
  /** Why the Job has failed, if it has. */
  readonly failure?: { readonly reason: string; readonly message: string };
  /** Whether its success criteria are met. */
  readonly success: boolean;
}

/**
 * A pod's completion index (Indexed Jobs), or undefined.
 *
 * @example
 * ```ts
 * import { completionIndexOf } from "./job_progress.ts";
 * completionIndexOf({ metadata: { annotations: { "batch.kubernetes.io/job-completion-index": "2" } } }); // 2
 * ```
 */
export function completionIndexOf(pod: P): number | undefined {
  const text = pod.metadata?.annotations?.[COMPLETION_INDEX_ANNOTATION];
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

const restarts = (p: P) =>
  [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? [])]
    .reduce((n, c) => n + (c.restartCount ?? 0), 0);

/**
 * Sorts a Job's pods and decides, as the Job controller does (a failure wins over success):
 * - failed past `backoffLimit` (default 6) — Failed pods, or for `OnFailure` pods the
 *   container restarts of active pods (`> 0` when the limit is 0, else `>=` the limit) —
 *   fails it with `BackoffLimitExceeded`;
 * - running longer than `activeDeadlineSeconds` since `startTime` fails it with
 *   `DeadlineExceeded`;
 * - success: `completions` Succeeded pods (NonIndexed), every index succeeded (Indexed), or
 *   without `completions` one Succeeded pod and none active.
 *
 * @param startTime epoch ms the Job started (undefined: not started)
 *
 * @example
 * ```ts
 * import { jobProgress } from "./job_progress.ts";
 * const job = { spec: { completions: 1, template: {} } };
 * jobProgress(job, [{ metadata: { name: "p" }, status: { phase: "Succeeded" } }], 0, undefined).success; // true
 * ```
 */
export function jobProgress(
  job: DeepReadonly<Job>,
  pods: readonly P[],
  now: number,
  startTime: number | undefined,
): JobProgress {
  const spec = job.spec;
  const active: P[] = [], terminating: P[] = [];
  let succeededPods = 0, failedPods = 0;
  const completedIndexes = new Set<number>();
  for (const p of pods) {
    const phase = p.status?.phase;
    if (phase === "Succeeded") {
      succeededPods++;
      const i = completionIndexOf(p);
      if (i !== undefined) completedIndexes.add(i);
    } else if (phase === "Failed") failedPods++;
    else if (p.metadata?.deletionTimestamp) terminating.push(p);
    else active.push(p);
  }
  const succeeded = Math.max(job.status?.succeeded ?? 0, succeededPods);
  const failed = Math.max(job.status?.failed ?? 0, failedPods);
  const limit = spec?.backoffLimit ?? 6;
  const onFailure = spec?.template?.spec?.restartPolicy === "OnFailure";
  const restarted = onFailure ? active.reduce((n, p) => n + restarts(p), 0) : 0;
  const pastBackoff = failed > limit ||
    (onFailure && (limit === 0 ? restarted > 0 : restarted >= limit));
  const deadline = spec?.activeDeadlineSeconds;
  const pastDeadline = deadline !== undefined && deadline !== null && startTime !== undefined &&
    now - startTime >= deadline * 1000;
  const completions = spec?.completions;
  const met = spec?.completionMode === "Indexed"
    ? completions !== undefined && completions !== null &&
      [...Array(completions).keys()].every((i) => completedIndexes.has(i))
    : completions !== undefined && completions !== null
    ? succeeded >= completions
    : succeeded > 0 && active.length === 0;
  // As the Job controller checks them: failures first, then success.
  const failure = pastBackoff
    ? { reason: "BackoffLimitExceeded", message: "Job has reached the specified backoff limit" }
    : pastDeadline
    ? { reason: "DeadlineExceeded", message: "Job was active longer than specified deadline" }
    : undefined;
  const success = !failure && met;
  return {
    active,
    terminating,
    succeeded,
    failed,
    completedIndexes,
    success,
    ...(failure ? { failure } : {}),
  };
}

/**
 * Indexes as the Job status writes them: increasing, runs of three or more as `a-b`
 * (`"1,3-5,7"`).
 *
 * @example
 * ```ts
 * import { formatIndexes } from "./job_progress.ts";
 * formatIndexes(new Set([7, 1, 3, 4, 5])); // "1,3-5,7"
 * ```
 */
export function formatIndexes(indexes: ReadonlySet<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    if (j - i >= 2) parts.push(`${sorted[i]}-${sorted[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
    i = j + 1;
  }
  return parts.join(",");
}
