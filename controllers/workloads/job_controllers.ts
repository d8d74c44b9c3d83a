/**
 * The Job and CronJob controller specs, ready for `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec, kind } from "../../lib/controller/controller_spec.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { Pod } from "./pod_facts.ts";
import type { Job } from "./job_progress.ts";
import { type JobWorld, reconcileJob } from "./reconcile_job.ts";
import { type CronJob, type CronJobWorld, reconcileCronJob } from "./reconcile_cron_job.ts";

const pods = kind<Pod>("v1", "Pod");
const jobs = kind<Job>("batch/v1", "Job");

/**
 * The Job controller spec: Jobs are primary, pods are owned.
 *
 * @example
 * ```ts
 * import { jobController } from "./job_controllers.ts";
 * jobController().name; // "job"
 * ```
 */
export function jobController(): ControllerSpec<Job & HasMetadata, JobWorld> {
  return controller<Job & HasMetadata, JobWorld>({
    name: "job",
    for: jobs,
    owns: [pods],
    statusBatchMs: 0,
    world: (cache) => ({
      pods: cache.world(pods),
    }),
    reconcile: (job, world, ctx) => reconcileJob(job, world, ctx),
  });
}

/**
 * The CronJob controller spec: CronJobs are primary, Jobs are owned; each reconcile asks to
 * run again at the next scheduled time.
 *
 * @example
 * ```ts
 * import { cronJobController } from "./job_controllers.ts";
 * cronJobController().owns?.[0].kind; // "Job"
 * ```
 */
export function cronJobController(): ControllerSpec<CronJob & HasMetadata, CronJobWorld> {
  return controller<CronJob & HasMetadata, CronJobWorld>({
    name: "cronjob",
    for: { apiVersion: "batch/v1", kind: "CronJob" },
    owns: [jobs],
    statusBatchMs: 0,
    world: (cache) => ({
      jobs: cache.world(jobs),
    }),
    reconcile: (cj, world, ctx) => reconcileCronJob(cj, world, ctx),
  });
}
