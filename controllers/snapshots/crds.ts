/**
 * The CustomResourceDefinitions of the snapshot API, generated from `types.ts`: what a cluster
 * installs with kubernetes-csi/external-snapshotter (names, scopes, short names, printer
 * columns, status subresources).
 *
 * @module
 */
import type { k8sApiextensions } from "../../lib/deps.ts";
import {
  customResourceDefinition,
  type PrinterColumn,
} from "../../lib/crd/custom_resource_definition.ts";
import type { Schema } from "../../lib/reconcile/schema_builder.ts";
import {
  SNAPSHOT_GROUP,
  snapshotClassSchema,
  snapshotContentSchema,
  volumeSnapshotSchema,
} from "./types.ts";

type Crd = k8sApiextensions.CustomResourceDefinition;

const crd = (
  kind: string,
  scope: "Namespaced" | "Cluster",
  shortNames: string[],
  schema: Schema<unknown>,
  printerColumns: PrinterColumn[],
  status: boolean,
): Crd =>
  customResourceDefinition({
    group: SNAPSHOT_GROUP,
    kind,
    scope,
    shortNames,
    versions: [{ name: "v1", schema, status, printerColumns }],
  });

/**
 * The VolumeSnapshot CRD (namespaced, short name `vs`).
 *
 * @example
 * ```ts
 * import { volumeSnapshotCrd } from "./crds.ts";
 * volumeSnapshotCrd.metadata?.name; // "volumesnapshots.snapshot.storage.k8s.io"
 * ```
 */
export const volumeSnapshotCrd: Crd = crd(
  "VolumeSnapshot",
  "Namespaced",
  ["vs"],
  volumeSnapshotSchema,
  [
    { name: "ReadyToUse", type: "boolean", jsonPath: ".status.readyToUse" },
    { name: "SourcePVC", type: "string", jsonPath: ".spec.source.persistentVolumeClaimName" },
    {
      name: "SourceSnapshotContent",
      type: "string",
      jsonPath: ".spec.source.volumeSnapshotContentName",
    },
    { name: "RestoreSize", type: "string", jsonPath: ".status.restoreSize" },
    { name: "SnapshotClass", type: "string", jsonPath: ".spec.volumeSnapshotClassName" },
    { name: "SnapshotContent", type: "string", jsonPath: ".status.boundVolumeSnapshotContentName" },
    { name: "CreationTime", type: "date", jsonPath: ".status.creationTime" },
  ],
  true,
);

/**
 * The VolumeSnapshotContent CRD (cluster-scoped, short names `vsc`, `vscs`).
 *
 * @example
 * ```ts
 * import { snapshotContentCrd } from "./crds.ts";
 * snapshotContentCrd.spec.scope; // "Cluster"
 * ```
 */
export const snapshotContentCrd: Crd = crd(
  "VolumeSnapshotContent",
  "Cluster",
  ["vsc", "vscs"],
  snapshotContentSchema,
  [
    { name: "ReadyToUse", type: "boolean", jsonPath: ".status.readyToUse" },
    { name: "RestoreSize", type: "integer", jsonPath: ".status.restoreSize" },
    { name: "DeletionPolicy", type: "string", jsonPath: ".spec.deletionPolicy" },
    { name: "Driver", type: "string", jsonPath: ".spec.driver" },
    { name: "VolumeSnapshotClass", type: "string", jsonPath: ".spec.volumeSnapshotClassName" },
    { name: "VolumeSnapshot", type: "string", jsonPath: ".spec.volumeSnapshotRef.name" },
    {
      name: "VolumeSnapshotNamespace",
      type: "string",
      jsonPath: ".spec.volumeSnapshotRef.namespace",
    },
  ],
  true,
);

/**
 * The VolumeSnapshotClass CRD (cluster-scoped, short names `vsclass`, `vsclasses`).
 *
 * @example
 * ```ts
 * import { snapshotClassCrd } from "./crds.ts";
 * snapshotClassCrd.spec.names.plural; // "volumesnapshotclasses"
 * ```
 */
export const snapshotClassCrd: Crd = crd(
  "VolumeSnapshotClass",
  "Cluster",
  ["vsclass", "vsclasses"],
  snapshotClassSchema,
  [
    { name: "Driver", type: "string", jsonPath: ".driver" },
    { name: "DeletionPolicy", type: "string", jsonPath: ".deletionPolicy" },
  ],
  false,
);

/** The three snapshot CRDs, in install order. */
export const snapshotCrds: readonly Crd[] = [
  snapshotClassCrd,
  snapshotContentCrd,
  volumeSnapshotCrd,
];
