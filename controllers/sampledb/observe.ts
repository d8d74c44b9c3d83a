/**
 * What a SampleDB's reconciler reads from the world, and the facts it derives: the children
 * found by name (and controlled by the SampleDB), the state of its Jobs, whether the
 * StatefulSet has rolled out, and the backups in flight.
 *
 * @module
 */
import {
  type appsv1,
  type batchv1,
  type corev1,
  type DeepReadonly,
  type HasMetadata,
  isControlledBy,
  objectKey,
  type World,
} from "../../mod.ts";
import type { VolumeSnapshot } from "../snapshots/types.ts";
import { childNamesOf, TARGET_VERSION_ANNOTATION, VERSION_ANNOTATION } from "./children.ts";
import type { SampleDB } from "./types.ts";

/** What the SampleDB reconciler reads from the cache. */
export interface SampleDbWorld {
  /** StatefulSets (the database's, by name). */
  readonly statefulSets: World<appsv1.StatefulSet>;
  /** Services (the headless one, by name). */
  readonly services: World<corev1.Service>;
  /** ConfigMaps (the connection details, by name). */
  readonly configMaps: World<corev1.ConfigMap>;
  /** Secrets (the credentials, generated or given, by name). */
  readonly secrets: World<corev1.Secret>;
  /** Jobs: the SampleDB's own (init, upgrade) and its CronJob's backups (`ownedBy`). */
  readonly jobs: World<batchv1.Job>;
  /** CronJobs (the backup schedule, by name). */
  readonly cronJobs: World<batchv1.CronJob>;
  /** PersistentVolumeClaims (`data-<db>-<ordinal>`). */
  readonly claims: World<corev1.PersistentVolumeClaim>;
  /** VolumeSnapshots (the final ones carry the uid label). */
  readonly snapshots: World<VolumeSnapshot>;
}

type R<T> = DeepReadonly<T>;
type Job = R<batchv1.Job>;

/** Where a Job is: not there, running, finished either way, or being deleted. */
export type JobState = "none" | "running" | "complete" | "failed" | "terminating";

/** The state of a Job (`none` when absent). */
export function jobState(job: Job | undefined): JobState {
  if (!job) return "none";
  if (job.metadata?.deletionTimestamp) return "terminating";
  for (const c of job.status?.conditions ?? []) {
    if (c.status !== "True") continue;
    if (c.type === "Complete") return "complete";
    if (c.type === "Failed") return "failed";
  }
  return "running";
}

/** Why a Job failed, from its `Failed` condition. */
export function jobFailure(job: Job | undefined): string {
  const c = job?.status?.conditions?.find((c) => c.type === "Failed" && c.status === "True");
  return c ? `${c.reason ?? "Failed"}: ${c.message ?? ""}`.trim() : "";
}

/** Whether a StatefulSet has rolled out its current spec and all its pods are ready. */
export function isRolledOut(sts: R<appsv1.StatefulSet> | undefined): boolean {
  const s = sts?.status;
  if (!sts || !s) return false;
  const want = sts.spec?.replicas ?? 1;
  return (s.observedGeneration ?? 0) >= (sts.metadata?.generation ?? 0) &&
    (s.readyReplicas ?? 0) === want && (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want && s.currentRevision === s.updateRevision;
}

/** The facts a reconcile of a SampleDB decides on. */
export interface DbFacts {
  readonly statefulSet?: R<appsv1.StatefulSet>;
  /** The version the StatefulSet runs (its annotation). */
  readonly statefulSetVersion?: string;
  readonly rolledOut: boolean;
  readonly service?: R<corev1.Service>;
  readonly configMap?: R<corev1.ConfigMap>;
  /** The Secret the pods read (generated or given), if it exists. */
  readonly secret?: R<corev1.Secret>;
  readonly initJob?: Job;
  readonly upgradeJob?: Job;
  /** The version the upgrade Job upgrades to. */
  readonly upgradeTarget?: string;
  readonly cronJob?: R<batchv1.CronJob>;
  /** Backup Jobs of the CronJob still running. */
  readonly activeBackups: number;
}

/**
 * Looks the SampleDB's children up by name. Jobs, the StatefulSet and the CronJob count only
 * when the SampleDB controls them; a Service, ConfigMap or StatefulSet name held by another
 * owner shows up in `planChildren`'s conflicts instead.
 */
export function observe(db: R<SampleDB>, world: SampleDbWorld): DbFacts {
  const uid = db.metadata?.uid ?? "";
  const ns = db.metadata?.namespace;
  const n = childNamesOf(db);
  const key = (name: string) => objectKey(ns, name);
  const mine = <T extends HasMetadata>(o: T | undefined) =>
    o && isControlledBy(o, uid) ? o : undefined;
  const statefulSet = world.statefulSets.get(key(n.statefulSet));
  const upgradeJob = mine(world.jobs.get(key(n.upgrade)));
  const cronJob = mine(world.cronJobs.get(key(n.backup)));
  const backups = cronJob?.metadata?.uid ? world.jobs.ownedBy(cronJob.metadata.uid) : [];
  return {
    ...(statefulSet ? { statefulSet } : {}),
    statefulSetVersion: statefulSet?.metadata?.annotations?.[VERSION_ANNOTATION],
    rolledOut: isRolledOut(mine(statefulSet)),
    service: world.services.get(key(n.service)),
    configMap: world.configMaps.get(key(n.config)),
    secret: world.secrets.get(key(n.secret)),
    initJob: mine(world.jobs.get(key(n.init))),
    upgradeJob,
    upgradeTarget: upgradeJob?.metadata?.annotations?.[TARGET_VERSION_ANNOTATION],
    cronJob,
    activeBackups: backups.filter((j) => jobState(j) === "running").length,
  };
}
