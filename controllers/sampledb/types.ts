/**
 * The SampleDB custom resource (`db.example.com/v1alpha1`): the kubebuilder guide's typical
 * operator — a database with storage, an init Job, scheduled backups, upgrades and a snapshot
 * on delete. Its schema, defined once with the schema builder, and the types derived from it.
 *
 * @module
 */
import { type Infer, type ObjectMeta, t } from "../../mod.ts";

/** API group of SampleDB. */
export const SAMPLEDB_GROUP = "db.example.com";
/** API version of SampleDB. */
export const SAMPLEDB_VERSION = "v1alpha1";
/** `apiVersion` of SampleDB. */
export const SAMPLEDB_API_VERSION = `${SAMPLEDB_GROUP}/${SAMPLEDB_VERSION}`;
/** Kind of SampleDB. */
export const SAMPLEDB_KIND = "SampleDB";

/** The phases a SampleDB goes through, in `status.phase`. */
export const SAMPLEDB_PHASES = [
  "Pending",
  "Provisioning",
  "Initializing",
  "Ready",
  "BackingUp",
  "Upgrading",
  "UpgradeFailed",
  "Failed",
  "Deleting",
] as const;
/** One of {@link SAMPLEDB_PHASES}. */
export type SampleDbPhase = typeof SAMPLEDB_PHASES[number];

const QUANTITY = "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$";
const NAME = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

const condition = t.object({
  type: t.string(),
  status: t.enumOf(["True", "False", "Unknown"] as const),
  reason: t.string(),
  message: t.string(),
  lastTransitionTime: t.string({ format: "date-time" }),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
});

/** Schema of `spec`. */
export const sampleDbSpecSchema = t.object({
  version: t.string({
    pattern: "^[0-9]+(\\.[0-9]+){0,2}$",
    description:
      "The database version to run (e.g. 16.4). Raising it upgrades; lowering it is refused.",
  }),
  replicas: t.optional(
    t.integer({
      minimum: 1,
      maximum: 9,
      default: 1,
      description: "Pods of the StatefulSet (default 1).",
    }),
  ),
  storage: t.optional(t.object({
    size: t.optional(
      t.string({
        pattern: QUANTITY,
        default: "1Gi",
        description: "Size of each volume (default 1Gi).",
      }),
    ),
    className: t.optional(
      t.string({
        pattern: NAME,
        description: "StorageClass of the volumes (default: the cluster's default).",
      }),
    ),
    snapshotClassName: t.optional(
      t.string({
        pattern: NAME,
        description: "VolumeSnapshotClass of the final snapshot (default: the cluster's default).",
      }),
    ),
  }, {
    description: "The volumes: one claim per replica, from the StatefulSet's claim template.",
  })),
  backup: t.optional(t.object({
    schedule: t.string({
      minLength: 1,
      description: 'Cron schedule of backups, e.g. "0 3 * * *".',
    }),
    retention: t.optional(
      t.integer({
        minimum: 1,
        maximum: 100,
        default: 3,
        description: "Successful backup Jobs kept (default 3).",
      }),
    ),
  }, {
    description:
      "Regular backups by a CronJob whose pods mount the connection ConfigMap and the credentials Secret.",
  })),
  credentialsSecret: t.optional(t.string({
    pattern: NAME,
    description: "An existing Secret (keys username, password) to use instead of a generated one.",
  })),
});

/** Schema of `status`. */
export const sampleDbStatusSchema = t.object({
  phase: t.enumOf(SAMPLEDB_PHASES),
  currentVersion: t.optional(
    t.string({ description: "The version the data and the pods are at." }),
  ),
  readyReplicas: t.optional(t.integer({ minimum: 0 })),
  lastBackup: t.optional(
    t.string({ format: "date-time", description: "When the last backup completed." }),
  ),
  snapshots: t.optional(
    t.array(t.string(), { description: "The VolumeSnapshots taken on delete." }),
  ),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
  conditions: t.optional(t.array(condition, { listType: "map", listMapKeys: ["type"] })),
});

/** Schema of a whole SampleDB (the CRD's `openAPIV3Schema`). */
export const sampleDbSchema = t.resource({
  spec: sampleDbSpecSchema,
  status: t.optional(sampleDbStatusSchema),
});

/** `SampleDB.spec`. */
export type SampleDbSpec = Infer<typeof sampleDbSpecSchema>;
/** `SampleDB.status`. */
export type SampleDbStatus = Infer<typeof sampleDbStatusSchema>;

/**
 * A SampleDB.
 *
 * @example
 * ```ts
 * import type { SampleDB } from "./types.ts";
 * const db: SampleDB = {
 *   apiVersion: "db.example.com/v1alpha1",
 *   kind: "SampleDB",
 *   metadata: { namespace: "default", name: "orders" },
 *   spec: { version: "16.4", storage: { size: "1Gi" }, backup: { schedule: "0 3 * * *" } },
 * };
 * ```
 */
export interface SampleDB {
  /** `apiVersion` (set by the server on reads). */
  apiVersion?: string;
  /** `kind`. */
  kind?: string;
  /** Standard object metadata. */
  metadata?: ObjectMeta;
  /** What is wanted. */
  spec: SampleDbSpec;
  /** What the operator observed. */
  status?: SampleDbStatus;
}
