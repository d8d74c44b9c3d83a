/**
 * `reconcileSampleDb`: the pure SampleDB reconciler. It returns the complete desired state of
 * a database — Service, ConfigMap, Secret, StatefulSet, init Job, backup CronJob, upgrade Job —
 * and, once the SampleDB is deleted, the cleanup: snapshot first, then the StatefulSet and
 * its claims, then the finalizer goes.
 *
 * ## Guarantees
 * - The headless Service, the connection ConfigMap, the StatefulSet and the backup CronJob are
 *   the complete applied set: drift is applied back, fields no longer rendered are removed
 *   by the next apply (managed fields under `ctx.fieldManager`, see `planChildren`), and
 *   what is no longer wanted (the CronJob once `spec.backup` is removed) is deleted. Names held by objects this SampleDB does not
 *   control are never touched (phase `Failed`, `Ready=False` reason `NameConflict`).
 * - The credentials Secret is generated once, from `ctx.password`, by a `create` — never
 *   applied, patched or deleted — so it cannot be rotated by accident. With
 *   `spec.credentialsSecret` nothing is generated and the StatefulSet waits for that Secret.
 * - The init Job starts once the StatefulSet has rolled out and runs once per database:
 *   `Initialized=True` is kept in the status for good.
 * - Upgrades follow `planUpgrade` (one at a time, after backups are suspended and no backup
 *   runs; downgrades refused with `VersionAccepted=False`). The CronJob is suspended while the
 *   database is not initialized or an upgrade is under way, so a backup Job and an upgrade
 *   Job never run together (given the CronJob controller honours `suspend`).
 * - Deletion follows `planCleanup` under the finalizer `db.example.com/snapshot`.
 *
 * @module
 */
import {
  deepEqual,
  type DeepReadonly,
  deleteOp,
  E,
  type Either,
  type KubeObject,
  objectKey,
  type Op,
  type Plan,
  planChildren,
  type ReconcileContext,
  type ReconcileError,
  type Reconciler,
  statusOp,
  terminal,
  withFinalizer,
} from "../../mod.ts";
import {
  backupCronJob,
  childNamesOf,
  desiredConfigMap,
  desiredService,
  desiredStatefulSet,
  generatedSecret,
  initJob,
  upgradeJob,
} from "./children.ts";
import { jobState, observe, type SampleDbWorld } from "./observe.ts";
import { planCleanup } from "./plan_cleanup.ts";
import { planUpgrade } from "./plan_upgrade.ts";
import { isInitialized, sampleDbStatus } from "./sampledb_status.ts";
import { type SampleDB, SAMPLEDB_API_VERSION, SAMPLEDB_KIND } from "./types.ts";

export type { SampleDbWorld } from "./observe.ts";

/** The finalizer that holds a deleted SampleDB until its snapshots are taken. */
export const SAMPLEDB_FINALIZER = "db.example.com/snapshot";

/** The SampleDB reconciler's context. */
export interface SampleDbContext extends ReconcileContext {
  /** A fresh random password, used only if the credentials Secret has to be generated. */
  readonly password: string;
}

type Db = DeepReadonly<SampleDB>;
type Obj = DeepReadonly<KubeObject>;

function live(db: Db, world: SampleDbWorld, ctx: SampleDbContext): Plan {
  const ns = db.metadata?.namespace;
  const n = childNamesOf(db);
  const facts = observe(db, world);
  const initialized = isInitialized(db, facts);
  const upgrade = planUpgrade({
    wanted: db.spec.version,
    ...(db.status?.currentVersion ? { recorded: db.status.currentVersion } : {}),
    initialized,
    facts,
  });
  const ops: Op[] = [];
  const given = db.spec.credentialsSecret;
  const credentialsProblem = given && !facts.secret
    ? `Secret ${objectKey(ns, given)} (spec.credentialsSecret) not found`
    : undefined;
  if (!given && !world.secrets.get(objectKey(ns, n.generatedSecret))) {
    ops.push({ type: "create", object: generatedSecret(db, ctx.password) });
  }
  const suspend = !initialized || upgrade.target !== undefined;
  const desired: Obj[] = [desiredService(db), desiredConfigMap(db)];
  if (!credentialsProblem || facts.statefulSet) {
    desired.push(desiredStatefulSet(db, upgrade.running, facts.statefulSet));
  }
  if (db.spec.backup) desired.push(backupCronJob(db, upgrade.current, suspend));
  const observed: Obj[] = [facts.service, facts.configMap, facts.statefulSet, facts.cronJob]
    .flatMap((o) => (o === undefined ? [] : [o]));
  const children = planChildren(desired, observed, {
    ownerUid: db.metadata?.uid ?? "",
    fieldManager: ctx.fieldManager,
  });
  ops.push(...children.ops);
  if (!initialized && facts.rolledOut && jobState(facts.initJob) === "none") {
    ops.push({ type: "create", object: initJob(db, upgrade.running) });
  }
  if (upgrade.removeJob && facts.upgradeJob) {
    ops.push(deleteOp({ ...facts.upgradeJob, apiVersion: "batch/v1", kind: "Job" }));
  }
  if (upgrade.start) {
    ops.push({ type: "create", object: upgradeJob(db, upgrade.start.from, upgrade.start.to) });
  }
  const status = sampleDbStatus({
    db,
    facts,
    upgrade,
    initialized,
    ...(credentialsProblem ? { credentialsProblem } : {}),
    conflicts: children.conflicts,
    now: ctx.now,
  });
  if (!deepEqual(status, db.status)) {
    const self = { ...db, apiVersion: SAMPLEDB_API_VERSION, kind: SAMPLEDB_KIND };
    ops.push(statusOp(self, status));
  }
  return { ops };
}

const guarded: Reconciler<SampleDB, SampleDbWorld, SampleDbContext> = withFinalizer(
  SAMPLEDB_FINALIZER,
  {
    apply: (db, world, ctx) => E.right(live(db, world, ctx)),
    cleanup: (db, world, ctx) => E.right(planCleanup(db, world, ctx.now)),
  },
);

/**
 * Reconciles one SampleDB. See the module doc for the guarantees.
 *
 * @param db the SampleDB (from the cache)
 * @param world its children, jobs, claims and snapshots (from the cache)
 * @param ctx the time and a fresh password
 * @returns the plan, or a terminal error when the SampleDB has no uid
 *
 * @example
 * ```ts
 * import { reconcileSampleDb } from "./reconcile.ts";
 * import { worldFromObjects } from "../../mod.ts";
 * const none = worldFromObjects([]);
 * const plan = reconcileSampleDb({
 *   apiVersion: "db.example.com/v1alpha1", kind: "SampleDB",
 *   metadata: { namespace: "d", name: "orders", uid: "u1", finalizers: ["db.example.com/snapshot"] },
 *   spec: { version: "16.4" },
 * }, { statefulSets: none, services: none, configMaps: none, secrets: none, jobs: none,
 *   cronJobs: none, claims: none, snapshots: none } as never, { now: 0, password: "s3cret" });
 * // right({ ops: [create Secret, create Service, create ConfigMap, create StatefulSet, status] })
 * ```
 */
export function reconcileSampleDb(
  db: DeepReadonly<SampleDB>,
  world: SampleDbWorld,
  ctx: SampleDbContext,
): Either<ReconcileError, Plan> {
  if (!db.metadata?.uid) {
    const key = objectKey(db.metadata?.namespace, db.metadata?.name ?? "");
    return E.left(terminal(`Cannot reconcile SampleDB ${key}: no metadata.uid`));
  }
  return guarded({ ...db, apiVersion: SAMPLEDB_API_VERSION, kind: SAMPLEDB_KIND }, world, ctx);
}
