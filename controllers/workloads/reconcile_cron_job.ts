/**
 * `reconcileCronJob`: the pure CronJob reconciler (batch/v1 CronJob owns Jobs). Time comes in
 * through `ctx.now`; the plan's `requeueAfterMs` brings it back at the next scheduled time.
 *
 * ## Guarantees
 * - The latest scheduled time in `(lastScheduleTime or creation, now]` — no earlier than
 *   `now - startingDeadlineSeconds` when set — gets one Job, `<cronjob>-<minutes since the
 *   epoch>` (so a schedule time never runs twice), with the job template's labels,
 *   annotations and spec, the `batch.kubernetes.io/cronjob-scheduled-timestamp` annotation and
 *   a controller reference; earlier missed times are skipped, as kube-controller-manager does.
 * - `concurrencyPolicy`: `Allow` runs Jobs side by side; `Forbid` creates none while one is
 *   active (the due time runs once it finished, deadline permitting); `Replace` deletes the
 *   active Jobs and creates the new one.
 * - `suspend` creates nothing (running Jobs go on).
 * - Finished Jobs beyond `successfulJobsHistoryLimit` (default 3) and
 *   `failedJobsHistoryLimit` (default 1) are deleted, oldest first.
 * - Status: `active` (references of the unfinished Jobs), `lastScheduleTime`,
 *   `lastSuccessfulTime` (latest `completionTime` of a Complete Job).
 *
 * ## Caveats
 * No Events (`MissSchedule`, `TooManyMissedTimes`, `UnexpectedJob`); an invalid schedule or
 * time zone is a terminal error naming the field.
 *
 * @module
 */
import { E, type Either, type k8sBatch } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { formatTime } from "../../lib/core/time.ts";
import { parseCronSchedule } from "../../lib/core/cron_schedule.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { deleteOp, type Op, statusOp } from "../../lib/reconcile/op.ts";
import { ownerReference } from "../../lib/reconcile/owner_reference.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import type { Job } from "./job_progress.ts";

/** A batch/v1 CronJob. */
export type CronJob = k8sBatch.CronJob;

/** The annotation holding the time a CronJob's Job was scheduled for. */
export const SCHEDULED_TIMESTAMP_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp";

/** What the CronJob reconciler reads from the cache. */
export interface CronJobWorld {
  /** Jobs, with `ownedBy` answering by controller uid. */
  readonly jobs: World<Job>;
}

type J = DeepReadonly<Job>;
const finishedAs = (j: J): "Complete" | "Failed" | undefined => {
  for (const c of j.status?.conditions ?? []) {
    if ((c.type === "Complete" || c.type === "Failed") && c.status === "True") return c.type;
  }
  return undefined;
};
const time = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);
const started = (j: J) => {
  const t = time(j.status?.startTime ?? j.metadata?.creationTimestamp);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * The name of the Job a CronJob creates for `scheduledMs`.
 *
 * @example
 * ```ts
 * import { cronJobName } from "./reconcile_cron_job.ts";
 * cronJobName("backup", Date.parse("2025-01-01T00:05:00Z")); // "backup-28928165"
 * ```
 */
export function cronJobName(cronJob: string, scheduledMs: number): string {
  return `${cronJob}-${Math.floor(scheduledMs / 60_000)}`;
}

/**
 * Reconciles one CronJob at `ctx.now` (see the module doc).
 *
 * @example
 * ```ts
 * import { reconcileCronJob } from "./reconcile_cron_job.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileCronJob({
 *   apiVersion: "batch/v1", kind: "CronJob",
 *   metadata: { namespace: "d", name: "tick", uid: "u1", creationTimestamp: "2025-01-01T00:00:30Z" },
 *   spec: { schedule: "* * * * *", jobTemplate: { spec: { template: { spec: {
 *     restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } } } },
 * }, { jobs: worldFromObjects([]) }, { now: Date.parse("2025-01-01T00:01:10Z") });
 * // right({ ops: [create d/tick-28928161, status], requeueAfterMs: 50_000 })
 * ```
 */
export function reconcileCronJob(
  cj: DeepReadonly<CronJob>,
  world: CronJobWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const self = { ...cj, apiVersion: "batch/v1", kind: "CronJob" };
  const uid = cj.metadata?.uid;
  const name = cj.metadata?.name ?? "";
  const namespace = cj.metadata?.namespace;
  const key = objectKey(namespace, name);
  const fail = (m: string) => E.left(terminal(`Cannot reconcile CronJob ${key}: ${m}`));
  if (!uid) return fail("no metadata.uid");
  const spec = cj.spec;
  const schedule = parseCronSchedule(spec?.schedule ?? "", spec?.timeZone ?? undefined);
  if (schedule._tag === "Left") return fail(schedule.left);
  if (cj.metadata?.deletionTimestamp) return E.right({ ops: [] });
  const now = ctx.now;
  const ops: Op[] = [];
  const jobRef = (j: J) => ({ ...j, apiVersion: "batch/v1", kind: "Job" });
  const owned = world.jobs.ownedBy(uid).filter((j) => !j.metadata?.deletionTimestamp);
  let active = owned.filter((j) => finishedAs(j) === undefined);
  let lastSuccess = time(cj.status?.lastSuccessfulTime);
  for (const j of owned) {
    const done = time(j.status?.completionTime);
    if (finishedAs(j) === "Complete" && !(done <= lastSuccess)) lastSuccess = done;
  }
  // History: the oldest finished Jobs beyond each limit go.
  for (
    const [as, limit] of [
      ["Complete", spec?.successfulJobsHistoryLimit ?? 3],
      ["Failed", spec?.failedJobsHistoryLimit ?? 1],
    ] as const
  ) {
    const done = owned.filter((j) => finishedAs(j) === as).sort((a, b) => started(a) - started(b));
    for (const j of done.slice(0, Math.max(0, done.length - limit))) ops.push(deleteOp(jobRef(j)));
  }
  let lastSchedule = time(cj.status?.lastScheduleTime);
  let requeueAfterMs: number | undefined;
  if (spec?.suspend !== true) {
    let earliest = Number.isNaN(lastSchedule) ? time(cj.metadata?.creationTimestamp) : lastSchedule;
    if (Number.isNaN(earliest)) earliest = now;
    const deadline = spec?.startingDeadlineSeconds;
    if (deadline !== undefined && deadline !== null) {
      earliest = Math.max(earliest, now - deadline * 1000);
    }
    const due = schedule.right.latest(earliest, now);
    const jobName = due === undefined ? "" : cronJobName(name, due);
    const exists = due !== undefined && world.jobs.get(objectKey(namespace, jobName)) !== undefined;
    const blocked = spec?.concurrencyPolicy === "Forbid" && active.length > 0;
    if (due !== undefined && exists) {
      lastSchedule = Math.max(Number.isNaN(lastSchedule) ? 0 : lastSchedule, due);
    } else if (due !== undefined && !blocked) {
      if (spec?.concurrencyPolicy === "Replace") {
        ops.push(...active.map((j) => deleteOp(jobRef(j))));
        active = [];
      }
      const template = spec?.jobTemplate;
      const job: DeepReadonly<KubeObject> = {
        apiVersion: "batch/v1",
        kind: "Job",
        metadata: {
          name: jobName,
          ...(namespace ? { namespace } : {}),
          labels: { ...template?.metadata?.labels },
          annotations: {
            ...template?.metadata?.annotations,
            [SCHEDULED_TIMESTAMP_ANNOTATION]: formatTime(due),
          },
          ownerReferences: [ownerReference(self)],
        },
        spec: { ...template?.spec },
      };
      ops.push({ type: "create", object: job });
      active = [...active, { metadata: { name: jobName, namespace } }];
      lastSchedule = due;
    }
    const next = schedule.right.next(now);
    if (next !== undefined) requeueAfterMs = Math.max(0, next - now);
  }
  const status = {
    ...cj.status,
    active: [...active].sort((a, b) => (a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1)
      .map((j) => ({
        apiVersion: "batch/v1",
        kind: "Job",
        name: j.metadata?.name,
        namespace: j.metadata?.namespace,
        ...(j.metadata?.uid ? { uid: j.metadata.uid } : {}),
      })),
    ...(Number.isNaN(lastSchedule) ? {} : { lastScheduleTime: formatTime(lastSchedule) }),
    ...(Number.isNaN(lastSuccess) ? {} : { lastSuccessfulTime: formatTime(lastSuccess) }),
  };
  if (!deepEqual(status, cj.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops, ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}) });
}
