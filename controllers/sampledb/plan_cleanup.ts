/**
 * `planCleanup`: what a deleted SampleDB does before its finalizer may go — pure.
 *
 * ## Steps (each waits for the one before)
 * 1. Backups and a running upgrade stop: the CronJob and the upgrade Job are deleted.
 * 2. Every claim of the StatefulSet (`data-<db>-<ordinal>`) gets a VolumeSnapshot,
 *    `<claim>-<first 8 of the uid>`, labelled with the SampleDB's uid and *not owned*, so the
 *    snapshots outlive the SampleDB.
 * 3. Once every claim's snapshot is `readyToUse`, the StatefulSet is deleted; once it is gone,
 *    the claims are deleted.
 * 4. Once the StatefulSet and the claims are gone, the plan is empty: `withFinalizer` removes
 *    the finalizer.
 *
 * ## Guarantees
 * - A claim is only ever deleted when a ready snapshot of it (for this SampleDB) is observed.
 * - A snapshot that reports an error keeps the finalizer: the status says which snapshot and
 *   why (`Snapshotted=False`, reason `SnapshotFailed`), and the plan asks to look again.
 *
 * @module
 */
import {
  deepEqual,
  type DeepReadonly,
  deleteOp,
  type HasMetadata,
  isControlledBy,
  type KubeObject,
  objectKey,
  type Op,
  type Plan,
  setCondition,
  statusOp,
} from "../../mod.ts";
import { SNAPSHOT_API_VERSION, type VolumeSnapshot } from "../snapshots/types.ts";
import { childNamesOf, DATA_CLAIM, labelsOf, SNAPSHOT_OF_LABEL } from "./children.ts";
import { jobState, type SampleDbWorld } from "./observe.ts";
import type { SampleDB, SampleDbStatus } from "./types.ts";
import { SAMPLEDB_API_VERSION, SAMPLEDB_KIND } from "./types.ts";

/** How often a cleanup that waits looks again (its writes may wake it earlier). */
export const CLEANUP_POLL_MS = 5_000;

/** The name of the final snapshot of a claim. */
export function snapshotNameOf(claim: string, uid: string): string {
  return `${claim}-${uid.replace(/-/g, "").slice(0, 8)}`;
}

/** Whether a claim name is one of the set's (`data-<db>-<ordinal>`). */
export function isClaimOf(db: string, claim: string): boolean {
  const prefix = `${DATA_CLAIM}-${db}-`;
  return claim.startsWith(prefix) && /^\d+$/.test(claim.slice(prefix.length));
}

const withKind = <T extends object>(o: T, apiVersion: string, kind: string) => ({
  ...o,
  apiVersion,
  kind,
});

/**
 * The cleanup plan of a SampleDB being deleted. See the module doc.
 *
 * @example
 * ```ts ignore
 * const plan = planCleanup(db, world, now); // { ops: [create VolumeSnapshot data-db-0-1a2b3c4d], requeueAfterMs: 5000 }
 * ```
 */
export function planCleanup(db: DeepReadonly<SampleDB>, world: SampleDbWorld, now: number): Plan {
  const uid = db.metadata?.uid ?? "";
  const ns = db.metadata?.namespace;
  const name = db.metadata?.name ?? "";
  const n = childNamesOf(db);
  const mine = <T extends HasMetadata>(o: T | undefined) =>
    o && isControlledBy(o, uid) ? o : undefined;
  const ops: Op[] = [];
  const cron = mine(world.cronJobs.get(objectKey(ns, n.backup)));
  if (cron && !cron.metadata?.deletionTimestamp) {
    ops.push(deleteOp(withKind(cron, "batch/v1", "CronJob")));
  }
  const upgrade = mine(world.jobs.get(objectKey(ns, n.upgrade)));
  if (jobState(upgrade) === "running") ops.push(deleteOp(withKind(upgrade!, "batch/v1", "Job")));

  const claims = world.claims.list().filter((c) =>
    c.metadata?.namespace === ns && isClaimOf(name, c.metadata?.name ?? "")
  );
  const snaps = world.snapshots.list().filter((s) =>
    s.metadata?.namespace === ns && s.metadata?.labels?.[SNAPSHOT_OF_LABEL] === uid
  );
  const snapOf = (claim: string) =>
    snaps.find((s) => s.spec?.source?.persistentVolumeClaimName === claim);
  const snapshotClass = db.spec?.storage?.snapshotClassName;
  for (const c of claims) {
    const claim = c.metadata?.name ?? "";
    if (snapOf(claim)) continue;
    const snapshot: VolumeSnapshot & KubeObject = {
      apiVersion: SNAPSHOT_API_VERSION,
      kind: "VolumeSnapshot",
      metadata: {
        name: snapshotNameOf(claim, uid),
        namespace: ns ?? "",
        labels: { ...labelsOf(db), [SNAPSHOT_OF_LABEL]: uid },
      },
      spec: {
        source: { persistentVolumeClaimName: claim },
        ...(snapshotClass ? { volumeSnapshotClassName: snapshotClass } : {}),
      },
    };
    ops.push({ type: "create", object: snapshot, owned: false });
  }
  const failed = snaps.filter((s) => s.status?.error?.message && !s.status.readyToUse);
  const pending = claims.filter((c) => snapOf(c.metadata?.name ?? "")?.status?.readyToUse !== true);
  const sts = mine(world.statefulSets.get(objectKey(ns, n.statefulSet)));
  if (pending.length === 0) {
    if (sts && !sts.metadata?.deletionTimestamp) {
      ops.push(deleteOp(withKind(sts, "apps/v1", "StatefulSet")));
    } else if (!sts) {
      for (const c of claims) {
        if (!c.metadata?.deletionTimestamp) {
          ops.push(deleteOp(withKind(c, "v1", "PersistentVolumeClaim")));
        }
      }
    }
  }
  const message = failed.length > 0
    ? failed.map((s) =>
      `VolumeSnapshot ${objectKey(ns, s.metadata?.name ?? "")}: ${s.status?.error?.message}`
    ).join("; ")
    : pending.length > 0
    ? `waiting for ${pending.length} of ${claims.length} snapshots to be ready`
    : `${snaps.length} snapshots ready`;
  const gen = db.metadata?.generation;
  const conditions = setCondition(db.status?.conditions ?? [], {
    type: "Snapshotted",
    status: pending.length === 0 ? "True" : "False",
    reason: failed.length > 0
      ? "SnapshotFailed"
      : pending.length > 0
      ? "SnapshotInProgress"
      : "SnapshotsReady",
    message,
    ...(gen === undefined ? {} : { observedGeneration: gen }),
  }, now);
  const status: SampleDbStatus = {
    ...db.status,
    phase: "Deleting",
    snapshots: snaps.map((s) => s.metadata?.name ?? "").sort(),
    conditions,
  };
  if (!deepEqual(status, db.status)) {
    const self = withKind(db, SAMPLEDB_API_VERSION, SAMPLEDB_KIND);
    ops.push(statusOp(self, status));
  }
  const done = !sts && claims.length === 0 && !cron && jobState(upgrade) !== "running";
  return done && ops.length === 0 ? { ops: [] } : { ops, requeueAfterMs: CLEANUP_POLL_MS };
}
