/**
 * The status a live SampleDB reports: its phase, versions, replicas, last backup and
 * conditions, computed from what was observed — pure and deterministic.
 *
 * @module
 */
import { type Condition, type DeepReadonly, findCondition, setCondition } from "../../mod.ts";
import { type DbFacts, jobFailure, jobState } from "./observe.ts";
import type { UpgradeDecision } from "./plan_upgrade.ts";
import type { SampleDB, SampleDbPhase, SampleDbStatus } from "./types.ts";

/** Inputs of {@link sampleDbStatus}. */
export interface DbStatusInput {
  readonly db: DeepReadonly<SampleDB>;
  readonly facts: DbFacts;
  readonly upgrade: UpgradeDecision;
  readonly initialized: boolean;
  /** Why the credentials cannot be used, if they cannot. */
  readonly credentialsProblem?: string;
  /** Children whose names objects of someone else hold. */
  readonly conflicts: readonly string[];
  readonly now: number;
}

/** Whether the database has been initialized (recorded, or the init Job completed). */
export function isInitialized(db: DeepReadonly<SampleDB>, facts: DbFacts): boolean {
  return findCondition(db.status?.conditions, "Initialized")?.status === "True" ||
    jobState(facts.initJob) === "complete";
}

const later = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined ? a : Date.parse(a) >= Date.parse(b) ? a : b;

function phaseOf(i: DbStatusInput): SampleDbPhase {
  const { facts, upgrade } = i;
  const wanted = i.db.spec?.replicas ?? 1;
  if (i.conflicts.length > 0) return "Failed";
  if (i.credentialsProblem && !facts.statefulSet) return "Pending";
  if (!i.initialized && jobState(facts.initJob) === "failed") return "Failed";
  if (!i.initialized) return facts.rolledOut ? "Initializing" : "Provisioning";
  if (upgrade.failed) return "UpgradeFailed";
  if (upgrade.target !== undefined) return "Upgrading";
  if (facts.activeBackups > 0) return "BackingUp";
  return (facts.statefulSet?.status?.readyReplicas ?? 0) >= wanted ? "Ready" : "Provisioning";
}

/**
 * The complete status of a live SampleDB. Conditions: `Ready`, `Initialized` (kept `True` once
 * reached: the init Job runs once per database), `Upgrading`, `VersionAccepted` (`False`,
 * reason `DowngradeRefused`, for a downgrade), `CredentialsReady`, and `BackupScheduled` when
 * backups are configured. Timestamps only move when a condition flips.
 *
 * @example
 * ```ts ignore
 * const status = sampleDbStatus({ db, facts, upgrade, initialized, conflicts: [], now });
 * status.phase; // "Provisioning"
 * ```
 */
export function sampleDbStatus(i: DbStatusInput): SampleDbStatus {
  const { db, facts, upgrade } = i;
  const gen = db.metadata?.generation;
  const observedGeneration = gen === undefined ? {} : { observedGeneration: gen };
  let conditions: Condition[] = [...(db.status?.conditions ?? [])];
  const set = (type: string, ok: boolean, reason: string, message = "") =>
    conditions = setCondition(conditions, {
      type,
      status: ok ? "True" : "False",
      reason,
      message,
      ...observedGeneration,
    }, i.now);
  const phase = phaseOf(i);
  const ready = facts.statefulSet?.status?.readyReplicas ?? 0;
  const replicas = db.spec?.replicas ?? 1;
  set(
    "Ready",
    phase === "Ready" || phase === "BackingUp",
    i.conflicts.length ? "NameConflict" : phase,
    i.conflicts.length
      ? `not owned by this SampleDB: ${i.conflicts.join(", ")}`
      : `${ready} of ${replicas} replicas ready`,
  );
  if (i.initialized) set("Initialized", true, "InitJobComplete");
  else if (jobState(facts.initJob) === "failed") {
    set("Initialized", false, "InitJobFailed", jobFailure(facts.initJob));
  } else set("Initialized", false, facts.initJob ? "InitJobRunning" : "WaitingForStatefulSet");
  if (upgrade.failed) {
    set(
      "Upgrading",
      false,
      "UpgradeFailed",
      `to ${upgrade.target}: ${jobFailure(facts.upgradeJob)}`,
    );
  } else if (upgrade.target !== undefined) {
    const waiting = upgrade.waitingFor ? `, waiting for ${upgrade.waitingFor}` : "";
    set(
      "Upgrading",
      true,
      "UpgradeInProgress",
      `${upgrade.current} -> ${upgrade.target}${waiting}`,
    );
  } else set("Upgrading", false, "UpToDate", `running ${upgrade.current}`);
  if (upgrade.downgrade) {
    set(
      "VersionAccepted",
      false,
      "DowngradeRefused",
      `spec.version ${db.spec?.version} is older than the current version ${upgrade.current}: downgrades are not supported`,
    );
  } else set("VersionAccepted", true, "Accepted");
  if (i.credentialsProblem) set("CredentialsReady", false, "SecretNotFound", i.credentialsProblem);
  else set("CredentialsReady", true, "SecretFound", `Secret ${facts.secret?.metadata?.name ?? ""}`);
  if (db.spec?.backup) {
    const suspended = facts.cronJob?.spec?.suspend === true;
    const why = !i.initialized ? "until the database is initialized" : "during the upgrade";
    if (!facts.cronJob) set("BackupScheduled", false, "CronJobMissing");
    else if (suspended) set("BackupScheduled", false, "Suspended", `backups are suspended ${why}`);
    else set("BackupScheduled", true, "Scheduled", `schedule ${db.spec.backup.schedule}`);
  } else conditions = conditions.filter((c) => c.type !== "BackupScheduled");
  const lastBackup = later(db.status?.lastBackup, facts.cronJob?.status?.lastSuccessfulTime);
  return {
    phase,
    currentVersion: upgrade.nextCurrent,
    readyReplicas: ready,
    ...(lastBackup ? { lastBackup } : {}),
    ...observedGeneration,
    conditions,
  };
}
