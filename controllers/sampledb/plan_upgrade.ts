/**
 * `planUpgrade`: where a SampleDB's version stands and what the next upgrade step is — pure.
 *
 * ## The upgrade, step by step
 * 1. `spec.version` newer than `status.currentVersion`: the upgrade is pending. Backups are
 *    suspended first; the upgrade Job starts once the CronJob is seen suspended, no backup Job
 *    runs, the database is initialized and the StatefulSet has rolled out.
 * 2. The upgrade Job (`<db>-upgrade`, target in an annotation) runs.
 * 3. Once it completed, the StatefulSet's image rolls to the target.
 * 4. Once the roll-out is done, the status records the target as the current version.
 * 5. Once the status shows it, the finished upgrade Job is deleted and backups resume.
 *
 * ## Guarantees
 * - Never two upgrades at once: a new upgrade Job is only created when no upgrade Job exists
 *   at all (not even a terminating one), and a running one is followed to its end even when
 *   `spec.version` moves on meanwhile.
 * - A downgrade (`spec.version` older than the current version) is refused: nothing moves.
 * - A failed upgrade Job stays (the database keeps running the current version) until
 *   `spec.version` changes or someone deletes the Job, which retries the upgrade.
 *
 * @module
 */
import type { DbFacts } from "./observe.ts";
import { jobState } from "./observe.ts";
import { compareVersions } from "./version.ts";

/** Inputs of {@link planUpgrade}. */
export interface UpgradeInput {
  /** `spec.version`. */
  readonly wanted: string;
  /** `status.currentVersion`, if recorded. */
  readonly recorded?: string;
  /** Whether the database has been initialized. */
  readonly initialized: boolean;
  /** What was observed. */
  readonly facts: DbFacts;
}

/** Where the version stands, and the upgrade steps to take now. */
export interface UpgradeDecision {
  /** The version the data is at. */
  readonly current: string;
  /** The version the StatefulSet should run. */
  readonly running: string;
  /** The version an upgrade is under way (or waiting) to, if any. */
  readonly target?: string;
  /** Why the upgrade waits, when it does. */
  readonly waitingFor?: string;
  /** The upgrade Job failed (for `target`). */
  readonly failed: boolean;
  /** `spec.version` is older than `current`. */
  readonly downgrade: boolean;
  /** Create the upgrade Job now. */
  readonly start?: { readonly from: string; readonly to: string };
  /** Delete the (finished, or no longer wanted) upgrade Job. */
  readonly removeJob: boolean;
  /** The current version once the roll-out to `target` is done (for the status). */
  readonly nextCurrent: string;
}

/**
 * Decides the upgrade step. See the module doc.
 *
 * @example
 * ```ts
 * import { planUpgrade } from "./plan_upgrade.ts";
 * const d = planUpgrade({ wanted: "16.4", recorded: "15.8", initialized: true,
 *   facts: { rolledOut: true, activeBackups: 0 } });
 * d.start; // { from: "15.8", to: "16.4" }
 * ```
 */
export function planUpgrade(input: UpgradeInput): UpgradeDecision {
  const { wanted, facts } = input;
  const current = input.recorded ?? facts.statefulSetVersion ?? wanted;
  const job = facts.upgradeJob;
  const state = jobState(job);
  const jobTarget = facts.upgradeTarget;
  const base = {
    current,
    running: current,
    failed: false,
    downgrade: false,
    removeJob: false,
    nextCurrent: current,
  };
  if (job && jobTarget !== undefined && state !== "terminating") {
    if (compareVersions(jobTarget, current) <= 0) {
      // Done (the status records it): remove the Job; a newer version waits for it to go.
      const cmp = compareVersions(wanted, current);
      return {
        ...base,
        removeJob: true,
        downgrade: cmp < 0,
        ...(cmp > 0 ? { target: wanted, waitingFor: `the old upgrade Job to go` } : {}),
      };
    }
    if (state === "failed") {
      if (wanted === jobTarget) return { ...base, target: jobTarget, failed: true };
      // spec.version moved on: clear the failed Job; the next upgrade (if any) waits for it.
      const cmp = compareVersions(wanted, current);
      return {
        ...base,
        removeJob: true,
        downgrade: cmp < 0,
        ...(cmp > 0 ? { target: wanted, waitingFor: `the failed upgrade Job to go` } : {}),
      };
    }
    if (state === "running") {
      return { ...base, target: jobTarget, waitingFor: `the upgrade Job ${job.metadata?.name}` };
    }
    // Complete: roll the pods, then record the version.
    const rolled = facts.rolledOut && facts.statefulSetVersion === jobTarget;
    return {
      ...base,
      running: jobTarget,
      target: jobTarget,
      ...(rolled ? { nextCurrent: jobTarget } : { waitingFor: "the pods to roll" }),
    };
  }
  const cmp = compareVersions(wanted, current);
  if (cmp < 0) return { ...base, downgrade: true };
  if (cmp === 0) return base;
  const waitingFor = job
    ? `the old upgrade Job ${job.metadata?.name} to go`
    : !input.initialized
    ? "the database to be initialized"
    : !facts.rolledOut
    ? "the StatefulSet to roll out"
    : facts.cronJob && facts.cronJob.spec?.suspend !== true
    ? "backups to be suspended"
    : facts.activeBackups > 0
    ? "the running backup to finish"
    : undefined;
  return {
    ...base,
    target: wanted,
    ...(waitingFor ? { waitingFor } : { start: { from: current, to: wanted } }),
  };
}
