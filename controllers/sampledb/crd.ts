/**
 * The SampleDB CustomResourceDefinition, built from the schema in `types.ts`.
 *
 * @module
 */
import { type apiextensionsv1, customResourceDefinition } from "../../mod.ts";
import { SAMPLEDB_GROUP, SAMPLEDB_KIND, SAMPLEDB_VERSION, sampleDbSchema } from "./types.ts";

/**
 * The `apiextensions.k8s.io/v1` CRD of SampleDB: namespaced, short name `sdb`, category `all`,
 * a status subresource, and printer columns so `kubectl get sampledb` shows PHASE, VERSION,
 * READY, LAST BACKUP and AGE, and `-o wide` adds the wanted version, replicas, storage and
 * backup schedule.
 *
 * @example
 * ```ts
 * import { sampleDbCrd } from "./crd.ts";
 * sampleDbCrd.metadata?.name; // "sampledbs.db.example.com"
 * ```
 */
export const sampleDbCrd: apiextensionsv1.CustomResourceDefinition = customResourceDefinition({
  group: SAMPLEDB_GROUP,
  kind: SAMPLEDB_KIND,
  shortNames: ["sdb"],
  categories: ["all"],
  versions: [{
    name: SAMPLEDB_VERSION,
    schema: sampleDbSchema,
    printerColumns: [
      { name: "Phase", type: "string", jsonPath: ".status.phase" },
      { name: "Version", type: "string", jsonPath: ".status.currentVersion" },
      { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
      { name: "Last Backup", type: "date", jsonPath: ".status.lastBackup" },
      { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
      { name: "Wanted", type: "string", jsonPath: ".spec.version", priority: 1 },
      { name: "Replicas", type: "integer", jsonPath: ".spec.replicas", priority: 1 },
      { name: "Storage", type: "string", jsonPath: ".spec.storage.size", priority: 1 },
      { name: "Schedule", type: "string", jsonPath: ".spec.backup.schedule", priority: 1 },
    ],
  }],
});
