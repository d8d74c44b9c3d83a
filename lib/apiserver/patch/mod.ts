/**
 * Patch application for the embedded API server: RFC 6902 JSON patch, RFC 7386 merge patch
 * (and its inverse), and strategic merge patch with schemas for the built-in kinds.
 *
 * @example
 * ```ts
 * import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, strategicSchemaFor } from "./mod.ts";
 * const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { x: "1" } };
 * applyMergePatch(cm, { data: { x: null, y: "2" } });
 * applyJsonPatch(cm, [{ op: "replace", path: "/data/x", value: "3" }]);
 * const schema = strategicSchemaFor("v1", "ConfigMap");
 * if (schema) applyStrategicMergePatch(cm, { metadata: { finalizers: ["f"] } }, schema);
 * ```
 *
 * @module
 */
export { applyJsonPatch, maxJsonPatchOperations } from "./json_patch.ts";
export { applyMergePatch, createMergePatch } from "./merge_patch.ts";
export { applyStrategicMergePatch } from "./strategic_merge_patch.ts";
export type { PatchError } from "./patch_error.ts";
export { patchErrorStatus } from "./patch_error.ts";
export type {
  AtomicListSchema,
  KeyedListSchema,
  MergeSchema,
  SetListSchema,
  StructSchema,
} from "./merge_schema.ts";
export {
  atomicList,
  emptyStruct,
  fieldSchema,
  keyedList,
  setList,
  structSchema,
} from "./merge_schema.ts";
export {
  containerSchema,
  cronJobSchema,
  deploymentSchema,
  nodeSchema,
  objectMetaSchema,
  objectSchema,
  podSchema,
  podSpecSchema,
  podStatusSchema,
  podTemplateOwnerSchema,
  podTemplateSpecSchema,
  serviceAccountSchema,
  serviceSchema,
  strategicSchemaFor,
} from "./strategic_schemas.ts";
