/**
 * `reconcileJob`: the pure Job reconciler (batch/v1 Job owns v1 Pods), with the
 * TTL-after-finished controller's one rule.
 *
 * ## Guarantees
 * - While running: `min(parallelism, completions - succeeded)` active pods (NonIndexed); one
 *   pod per pending index, lowest first, at most `parallelism` (Indexed; pods named
 *   `<job>-<index>-<suffix>` with the index in an annotation, a label, the hostname and the
 *   `JOB_COMPLETION_INDEX` variable); without `completions`, `parallelism` pods until one
 *   succeeds. Surplus active pods (parallelism lowered) are deleted, not-ready first.
 * - Failed pods are kept (they count); each is replaced by a new pod until `backoffLimit`.
 * - Success or failure (see {@link jobProgress}) deletes the active pods and sets the interim
 *   condition (`SuccessCriteriaMet` / `FailureTarget`); once no pod runs or terminates, the
 *   terminal one (`Complete` with `completionTime` / `Failed`), as kube-controller-manager
 *   1.31+ does. A finished Job is never restarted.
 * - `suspend` deletes the active pods and sets `Suspended`; resuming resets `startTime`.
 * - `activeDeadlineSeconds` and `ttlSecondsAfterFinished` are honoured by requeueing at the
 *   deadline; an expired finished Job is deleted (its pods follow by garbage collection).
 *
 * ## Caveats
 * Counts are read off the pods that exist (never below the recorded counts), without the
 * `batch.kubernetes.io/job-tracking` finalizer protocol; failed pods are replaced at once (no
 * exponential back-off); `podFailurePolicy`, `successPolicy` and `backoffLimitPerIndex` are
 * not implemented.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { formatTime } from "../../lib/core/time.ts";
import { matchesLabels } from "../../lib/core/label_selector.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { childNames, hashSuffix } from "../../lib/reconcile/child_names.ts";
import { deleteOp, type Op, statusOp } from "../../lib/reconcile/op.ts";
import { podFromTemplate } from "../../lib/reconcile/pod_from_template.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { World } from "../../lib/reconcile/world.ts";
import {
  type Condition,
  type ConditionLike,
  findCondition,
  setCondition,
} from "../../lib/reconcile/set_condition.ts";
import { isPodReady, type Pod, podDeletionOrder } from "./pod_facts.ts";
import { workloadSelector } from "./workload_selector.ts";
import {
  COMPLETION_INDEX_ANNOTATION,
  completionIndexOf,
  formatIndexes,
  type Job,
  jobProgress,
} from "./job_progress.ts";
import type { ReplicaSetContext } from "./reconcile_replica_set.ts";

/** What the Job reconciler reads from the cache. */
export interface JobWorld {
  /** Pods, with `ownedBy` answering by controller uid. */
  readonly pods: World<Pod>;
}

const isTrue = (conds: readonly ConditionLike[], type: string) =>
  findCondition(conds, type)?.status === "True";
const time = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);

/** The finished Job's TTL plan: delete it once expired, else look again then. */
function afterFinished(job: DeepReadonly<Job>, conds: readonly ConditionLike[], now: number): Plan {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null) return { ops: [] };
  const done = findCondition(conds, "Complete") ?? findCondition(conds, "Failed");
  const finishedAt = time(job.status?.completionTime ?? done?.lastTransitionTime);
  if (Number.isNaN(finishedAt)) return { ops: [] };
  const due = finishedAt + ttl * 1000;
  return due <= now
    ? { ops: [deleteOp({ ...job, apiVersion: "batch/v1", kind: "Job" })] }
    : { ops: [], requeueAfterMs: due - now };
}

/**
 * Reconciles one Job: the plan that runs its pods to completion, reports status, and
 * removes it after its TTL. See the module doc.
 *
 * @example
 * ```ts
 * import { reconcileJob } from "./reconcile_job.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileJob({
 *   apiVersion: "batch/v1", kind: "Job",
 *   metadata: { namespace: "d", name: "pi", uid: "u1" },
 *   spec: { completions: 2, parallelism: 1, selector: { matchLabels: { job: "pi" } },
 *     template: { metadata: { labels: { job: "pi" } },
 *       spec: { restartPolicy: "Never", containers: [{ name: "c", image: "perl" }] } } },
 * }, { pods: worldFromObjects([]) }, { now: 0, nameSuffix: (i) => `p${i}` });
 * // right({ ops: [create d/pi-p0, status { active: 1, startTime }] })
 * ```
 */
export function reconcileJob(
  job: DeepReadonly<Job>,
  world: JobWorld,
  ctx: ReplicaSetContext,
): Either<ReconcileError, Plan> {
  const self = { ...job, apiVersion: "batch/v1", kind: "Job" };
  const uid = job.metadata?.uid;
  const name = job.metadata?.name ?? "";
  const namespace = job.metadata?.namespace;
  const key = objectKey(namespace, name);
  if (!uid) return E.left(terminal(`Cannot reconcile Job ${key}: no metadata.uid`));
  const spec = job.spec;
  const template = spec?.template;
  const selector = workloadSelector(`Job ${key}`, spec?.selector, template?.metadata?.labels);
  if (selector._tag === "Left") return E.left(terminal(selector.left));
  const now = ctx.now;
  let conds: readonly ConditionLike[] = job.status?.conditions ?? [];
  if (isTrue(conds, "Complete") || isTrue(conds, "Failed")) {
    return E.right(afterFinished(job, conds, now));
  }
  if (job.metadata?.deletionTimestamp) return E.right({ ops: [] });

  const pods = world.pods.ownedBy(uid).filter((p) =>
    matchesLabels(selector.right, p.metadata?.labels)
  );
  const suspended = spec?.suspend === true;
  const recorded = time(job.status?.startTime ?? undefined);
  const resumed = !suspended && isTrue(conds, "Suspended");
  const startTime = suspended ? undefined : resumed || Number.isNaN(recorded) ? now : recorded;
  const progress = jobProgress(job, pods, now, startTime);
  const ops: Op[] = [];
  const podOp = (p: DeepReadonly<Pod>) => deleteOp({ ...p, apiVersion: "v1", kind: "Pod" });
  const set = (type: string, status: Condition["status"], reason: string, message: string) =>
    conds = setCondition(conds, { type, status, reason, message }, now);
  let active = progress.active;
  const created: string[] = [];
  let finished = false;
  if (progress.failure || progress.success) {
    ops.push(...active.map(podOp));
    active = [];
    const [interim, final] = progress.failure
      ? ["FailureTarget", "Failed"]
      : ["SuccessCriteriaMet", "Complete"];
    const { reason, message } = progress.failure ??
      { reason: "CompletionsReached", message: "Reached expected number of succeeded pods" };
    if (!isTrue(conds, interim)) set(interim, "True", reason, message);
    if (progress.active.length === 0 && progress.terminating.length === 0) {
      set(final, "True", reason, message);
      finished = true;
    }
  } else if (suspended) {
    ops.push(...active.map(podOp));
    active = [];
    if (!isTrue(conds, "Suspended")) set("Suspended", "True", "JobSuspended", "Job suspended");
  } else {
    if (resumed) set("Suspended", "False", "JobResumed", "Job resumed");
    const parallelism = spec?.parallelism ?? 1;
    const completions = spec?.completions;
    const indexed = spec?.completionMode === "Indexed";
    let want: number;
    if (indexed) want = parallelism;
    else if (completions === undefined || completions === null) {
      want = progress.succeeded > 0 ? Math.min(active.length, parallelism) : parallelism;
    } else want = Math.min(parallelism, completions - progress.succeeded);
    want = Math.max(0, want);
    if (active.length > want) {
      const surplus = [...active].sort(podDeletionOrder).slice(0, active.length - want);
      ops.push(...surplus.map(podOp));
      active = active.filter((p) => !surplus.includes(p));
    }
    const taken = (n: string) => world.pods.get(objectKey(namespace, n)) !== undefined;
    const suffix = ctx.nameSuffix ?? ((i: number) => hashSuffix(uid, i));
    if (indexed) {
      const busy = new Set(active.map(completionIndexOf));
      const pending = [...Array(completions ?? 0).keys()]
        .filter((i) => !progress.completedIndexes.has(i) && !busy.has(i))
        .slice(0, Math.max(0, want - active.length));
      for (const i of pending) {
        const names = childNames(`${name}-${i}`, 1, { suffix: (k) => suffix(i * 1000 + k), taken });
        if (names._tag === "Left") return names;
        ops.push({ type: "create", object: indexedPod(self, template, names.right[0], i) });
        created.push(names.right[0]);
      }
    } else {
      const names = childNames(name, want - active.length, { suffix, taken });
      if (names._tag === "Left") return names;
      for (const n of names.right) {
        ops.push({
          type: "create",
          object: podFromTemplate(self, template, { name: n, namespace }),
        });
        created.push(n);
      }
    }
  }
  const status: Record<string, unknown> = {
    ...job.status,
    active: active.length + created.length,
    ready: active.filter(isPodReady).length,
    terminating: progress.terminating.length,
    succeeded: progress.succeeded,
    failed: progress.failed,
    ...(startTime !== undefined ? { startTime: formatTime(startTime) } : {}),
    ...(spec?.completionMode === "Indexed"
      ? { completedIndexes: formatIndexes(progress.completedIndexes) }
      : {}),
    ...(finished && progress.success ? { completionTime: formatTime(now) } : {}),
    ...(conds.length ? { conditions: conds } : {}),
  };
  if (!deepEqual(status, job.status)) {
    ops.push(statusOp(self, status));
  }
  const deadline = spec?.activeDeadlineSeconds;
  const requeue = !finished && startTime !== undefined && deadline !== undefined &&
      deadline !== null
    ? { requeueAfterMs: Math.max(0, startTime + deadline * 1000 - now) }
    : {};
  return E.right({ ops, ...requeue });
}

/** A pod of an Indexed Job for index `i`. */
function indexedPod(
  job: DeepReadonly<KubeObject>,
  template: DeepReadonly<NonNullable<Job["spec"]>["template"]> | undefined,
  name: string,
  i: number,
): DeepReadonly<KubeObject> {
  const base = podFromTemplate(job, template, { name, namespace: job.metadata?.namespace });
  // podFromTemplate copies the template's spec (or `{ containers: [] }`).
  const podSpec: DeepReadonly<NonNullable<Pod["spec"]>> = template?.spec ?? { containers: [] };
  const env = { name: "JOB_COMPLETION_INDEX", value: String(i) };
  return {
    ...base,
    metadata: {
      ...base.metadata,
      labels: { ...base.metadata?.labels, [COMPLETION_INDEX_ANNOTATION]: String(i) },
      annotations: { ...base.metadata?.annotations, [COMPLETION_INDEX_ANNOTATION]: String(i) },
    },
    spec: {
      ...podSpec,
      hostname: `${job.metadata?.name}-${i}`,
      containers: (podSpec.containers ?? []).map((c) => ({ ...c, env: [...(c.env ?? []), env] })),
    },
  };
}
