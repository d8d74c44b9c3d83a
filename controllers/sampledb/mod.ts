/**
 * The SampleDB operator: the kubebuilder guide's typical database operator — storage, an init
 * Job, scheduled backups, upgrades and a snapshot on delete — built from one pure reconciler.
 *
 * @example
 * ```ts ignore
 * import { sampleDbController, sampleDbCrd } from "./mod.ts";
 * import { startCluster } from "../workloads/mod.ts";
 * const cluster = await startCluster({ controllers: [sampleDbController()] });
 * ```
 *
 * @module
 */
import {
  type appsv1,
  type batchv1,
  controller,
  type ControllerSpec,
  type corev1,
  type HasMetadata,
  kind,
  objectKey,
  type StoreReader,
  watch,
} from "../../mod.ts";
import type { VolumeSnapshot } from "../snapshots/types.ts";
import { SNAPSHOT_API_VERSION } from "../snapshots/types.ts";
import { SNAPSHOT_OF_LABEL } from "./children.ts";
import { isClaimOf } from "./plan_cleanup.ts";
import { reconcileSampleDb, type SampleDbWorld } from "./reconcile.ts";
import { type SampleDB, SAMPLEDB_API_VERSION, SAMPLEDB_KIND } from "./types.ts";

export { sampleDbCrd } from "./crd.ts";
export {
  reconcileSampleDb,
  SAMPLEDB_FINALIZER,
  type SampleDbContext,
  type SampleDbWorld,
} from "./reconcile.ts";
export { planUpgrade, type UpgradeDecision, type UpgradeInput } from "./plan_upgrade.ts";
export { CLEANUP_POLL_MS, planCleanup, snapshotNameOf } from "./plan_cleanup.ts";
export { compareVersions, parseVersion } from "./version.ts";
export {
  childNamesOf,
  SNAPSHOT_OF_LABEL,
  TARGET_VERSION_ANNOTATION,
  VERSION_ANNOTATION,
} from "./children.ts";
export * from "./types.ts";

const self = kind<SampleDB & HasMetadata>(SAMPLEDB_API_VERSION, SAMPLEDB_KIND);
const kinds = {
  statefulSets: kind<appsv1.StatefulSet>("apps/v1", "StatefulSet"),
  services: kind<corev1.Service>("v1", "Service"),
  configMaps: kind<corev1.ConfigMap>("v1", "ConfigMap"),
  secrets: kind<corev1.Secret>("v1", "Secret"),
  jobs: kind<batchv1.Job>("batch/v1", "Job"),
  cronJobs: kind<batchv1.CronJob>("batch/v1", "CronJob"),
  claims: kind<corev1.PersistentVolumeClaim>("v1", "PersistentVolumeClaim"),
  snapshots: kind<VolumeSnapshot & HasMetadata>(SNAPSHOT_API_VERSION, "VolumeSnapshot"),
} as const;

/** A fresh random password: 24 characters from a 62-letter alphabet. */
export function randomPassword(): string {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return [...bytes].map((b) => letters[b % letters.length]).join("");
}

/** Options of {@link sampleDbController}. */
export interface SampleDbControllerOptions {
  /** Source of generated passwords (default {@link randomPassword}). */
  readonly password?: () => string;
}

/**
 * The SampleDB controller spec: SampleDBs are primary; it owns Services, ConfigMaps, Secrets,
 * StatefulSets, Jobs and CronJobs, and watches claims (by name) and VolumeSnapshots (by the
 * uid label) — and the Secret a SampleDB names in `spec.credentialsSecret`.
 *
 * Its `writes` say what its plans may write, so `kubefold manifests` derives least-privilege
 * RBAC: Secrets are only ever created (never patched or deleted: the Secret cannot be
 * replaced), claims only deleted, VolumeSnapshots only created.
 *
 * @example
 * ```ts
 * import { sampleDbController } from "./mod.ts";
 * sampleDbController().name; // "sampledb"
 * ```
 */
export function sampleDbController(
  options: SampleDbControllerOptions = {},
): ControllerSpec<SampleDB & HasMetadata, SampleDbWorld> {
  const password = options.password ?? randomPassword;
  let dbs: StoreReader<SampleDB & HasMetadata> | undefined;
  const key = (o: { metadata?: { namespace?: string } }, name: string) =>
    objectKey(o.metadata?.namespace, name);
  // A claim `data-<db>-<n>` or a Secret named in spec.credentialsSecret wakes its SampleDB.
  const dbsOf = (o: { metadata?: { namespace?: string; name?: string } }, secret: boolean) =>
    (dbs?.list() ?? []).flatMap((db) => {
      if (db.metadata?.namespace !== o.metadata?.namespace) return [];
      const hit = secret
        ? db.spec?.credentialsSecret === o.metadata?.name
        : isClaimOf(db.metadata?.name ?? "", o.metadata?.name ?? "");
      return hit ? [key(db, db.metadata?.name ?? "")] : [];
    });
  return controller<SampleDB & HasMetadata, SampleDbWorld>({
    name: "sampledb",
    for: self,
    owns: [
      kinds.services,
      kinds.configMaps,
      kinds.secrets,
      kinds.statefulSets,
      kinds.jobs,
      kinds.cronJobs,
    ],
    writes: [
      { resource: self, ops: ["patch", "status"] },
      { resource: kinds.secrets, ops: ["create"] },
      { resource: kinds.services, ops: ["create", "apply"] },
      { resource: kinds.configMaps, ops: ["create", "apply"] },
      { resource: kinds.statefulSets, ops: ["create", "apply", "delete"] },
      { resource: kinds.cronJobs, ops: ["create", "apply", "delete"] },
      { resource: kinds.jobs, ops: ["create", "delete"] },
      { resource: kinds.claims, ops: ["delete"] },
      { resource: kinds.snapshots, ops: ["create"] },
    ],
    watches: [
      watch(kinds.claims, (c) => dbsOf(c, false)),
      watch(kinds.secrets, (s) => dbsOf(s, true)),
      watch(kinds.snapshots, (s) => {
        const uid = s.metadata?.labels?.[SNAPSHOT_OF_LABEL];
        const db = uid && dbs?.list().find((d) => d.metadata?.uid === uid);
        return db ? [key(db, db.metadata?.name ?? "")] : [];
      }),
    ],
    world: (cache) => {
      dbs = cache.store(self);
      return {
        statefulSets: cache.world(kinds.statefulSets),
        services: cache.world(kinds.services),
        configMaps: cache.world(kinds.configMaps),
        secrets: cache.world(kinds.secrets),
        jobs: cache.world(kinds.jobs),
        cronJobs: cache.world(kinds.cronJobs),
        claims: cache.world(kinds.claims),
        snapshots: cache.world(kinds.snapshots),
      };
    },
    reconcile: (db, world, ctx) => reconcileSampleDb(db, world, { ...ctx, password: password() }),
  });
}
