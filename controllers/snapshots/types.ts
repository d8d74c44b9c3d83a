/**
 * The CSI snapshot API (`snapshot.storage.k8s.io/v1`): VolumeSnapshot, VolumeSnapshotContent
 * and VolumeSnapshotClass, defined once with the schema builder — the shapes of
 * kubernetes-csi/external-snapshotter's CRDs (the fields a v1 client reads and writes).
 *
 * @module
 */
import type { ObjectMeta } from "../../lib/core/object.ts";
import { type Infer, t } from "../../lib/reconcile/schema_builder.ts";

/** API group of the snapshot kinds. */
export const SNAPSHOT_GROUP = "snapshot.storage.k8s.io";
/** `apiVersion` of the snapshot kinds. */
export const SNAPSHOT_API_VERSION = `${SNAPSHOT_GROUP}/v1`;
/** The annotation that marks a VolumeSnapshotClass as its driver's default. */
export const DEFAULT_SNAPSHOT_CLASS_ANNOTATION = "snapshot.storage.kubernetes.io/is-default-class";

const quantity =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?" +
  "(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";
const immutable = (message: string) => ({
  extensions: { "x-kubernetes-validations": [{ rule: "self == oldSelf", message }] },
});
const snapshotError = t.optional(t.object({
  message: t.optional(t.string()),
  time: t.optional(t.string({ format: "date-time" })),
}, { description: "The last error seen while taking the snapshot (cleared on success)." }));
const deletionPolicy = t.enumOf(["Delete", "Retain"] as const);

/** Schema of `VolumeSnapshot.spec`. */
export const volumeSnapshotSpecSchema = t.object({
  source: t.object({
    persistentVolumeClaimName: t.optional(t.string({
      description: "The claim (same namespace) to take a snapshot of.",
      ...immutable("persistentVolumeClaimName is immutable"),
    })),
    volumeSnapshotContentName: t.optional(t.string({
      description: "A pre-existing VolumeSnapshotContent to bind to.",
      ...immutable("volumeSnapshotContentName is immutable"),
    })),
  }, {
    description: "Where the snapshot comes from: exactly one of the two.",
    extensions: {
      "x-kubernetes-validations": [{
        rule: "(has(self.persistentVolumeClaimName) && !has(self.volumeSnapshotContentName)) || " +
          "(!has(self.persistentVolumeClaimName) && has(self.volumeSnapshotContentName))",
        message:
          "exactly one of volumeSnapshotContentName and persistentVolumeClaimName must be set",
      }],
    },
  }),
  volumeSnapshotClassName: t.optional(t.string({
    minLength: 1,
    description: "The VolumeSnapshotClass (default: the driver's default class).",
  })),
});

/** Schema of `VolumeSnapshot.status`. */
export const volumeSnapshotStatusSchema = t.object({
  boundVolumeSnapshotContentName: t.optional(t.string()),
  creationTime: t.optional(t.string({ format: "date-time" })),
  readyToUse: t.optional(t.boolean()),
  restoreSize: t.optional(t.string({ pattern: quantity })),
  error: snapshotError,
});

/** Schema of a whole VolumeSnapshot. */
export const volumeSnapshotSchema = t.resource({
  spec: volumeSnapshotSpecSchema,
  status: t.optional(volumeSnapshotStatusSchema),
}, { description: "A request for a point-in-time snapshot of a PersistentVolumeClaim." });

/** Schema of `VolumeSnapshotContent.spec`. */
export const snapshotContentSpecSchema = t.object({
  deletionPolicy,
  driver: t.string({ description: "The CSI driver that takes the snapshot." }),
  source: t.object({
    volumeHandle: t.optional(t.string(immutable("volumeHandle is immutable"))),
    snapshotHandle: t.optional(t.string(immutable("snapshotHandle is immutable"))),
  }),
  volumeSnapshotClassName: t.optional(t.string()),
  volumeSnapshotRef: t.object({
    apiVersion: t.optional(t.string()),
    kind: t.optional(t.string()),
    namespace: t.optional(t.string()),
    name: t.optional(t.string()),
    uid: t.optional(t.string()),
    resourceVersion: t.optional(t.string()),
  }, { extensions: { "x-kubernetes-map-type": "atomic" } }),
});

/** Schema of `VolumeSnapshotContent.status`. */
export const snapshotContentStatusSchema = t.object({
  creationTime: t.optional(t.integer({ description: "Unix nanoseconds." })),
  readyToUse: t.optional(t.boolean()),
  restoreSize: t.optional(t.integer({ minimum: 0, description: "Bytes." })),
  snapshotHandle: t.optional(t.string()),
  error: snapshotError,
});

/** Schema of a whole VolumeSnapshotContent (cluster-scoped). */
export const snapshotContentSchema = t.resource({
  spec: snapshotContentSpecSchema,
  status: t.optional(snapshotContentStatusSchema),
}, { description: "The snapshot on the storage system, bound to one VolumeSnapshot." });

/** Schema of a whole VolumeSnapshotClass (cluster-scoped; no spec, fields at the top). */
export const snapshotClassSchema = t.resource({
  driver: t.string(),
  deletionPolicy,
  parameters: t.optional(t.record(t.string())),
}, { description: "How snapshots of one CSI driver are taken." });

/** `VolumeSnapshot.spec`. */
export type VolumeSnapshotSpec = Infer<typeof volumeSnapshotSpecSchema>;
/** `VolumeSnapshot.status`. */
export type VolumeSnapshotStatus = Infer<typeof volumeSnapshotStatusSchema>;
/** `VolumeSnapshotContent.spec`. */
export type SnapshotContentSpec = Infer<typeof snapshotContentSpecSchema>;
/** `VolumeSnapshotContent.status`. */
export type SnapshotContentStatus = Infer<typeof snapshotContentStatusSchema>;

/**
 * A VolumeSnapshot.
 *
 * @example
 * ```ts
 * import type { VolumeSnapshot } from "./types.ts";
 * const vs: VolumeSnapshot = {
 *   apiVersion: "snapshot.storage.k8s.io/v1", kind: "VolumeSnapshot",
 *   metadata: { namespace: "default", name: "data-db-0-snap" },
 *   spec: { source: { persistentVolumeClaimName: "data-db-0" } },
 * };
 * ```
 */
export interface VolumeSnapshot {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: VolumeSnapshotSpec;
  status?: VolumeSnapshotStatus;
}

/** A VolumeSnapshotContent (cluster-scoped). */
export interface VolumeSnapshotContent {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: SnapshotContentSpec;
  status?: SnapshotContentStatus;
}

/** A VolumeSnapshotClass (cluster-scoped). */
export interface VolumeSnapshotClass {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  driver: string;
  deletionPolicy: "Delete" | "Retain";
  parameters?: Record<string, string>;
}
