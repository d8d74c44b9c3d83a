/**
 * Server-side apply engine for the embedded API server: field sets and their FieldsV1 form,
 * apply schemas (built-in kinds and CRDs), the apply merge with ownership and conflicts, and
 * managed-fields bookkeeping for ordinary writes. Pure functions; the server's PATCH and
 * write paths call them.
 *
 * @example
 * ```ts
 * import { apply, applySchemaFor, conflictStatus, recordUpdate } from "./mod.ts";
 * const schema = applySchemaFor("v1", "ConfigMap");
 * const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "demo" }, data: { a: "1" } };
 * const created = apply(undefined, cm, { manager: "kubectl", now: 0, apiVersion: "v1", schema });
 * if (created._tag === "Right") {
 *   const live = created.right.object;
 *   const byCtrl = { ...live, data: { a: "2" } };
 *   const stored = { ...byCtrl, metadata: { ...byCtrl.metadata,
 *     managedFields: recordUpdate(live, byCtrl, { manager: "ctrl", now: 1000, apiVersion: "v1", schema }) } };
 *   const again = apply(stored, cm, { manager: "kubectl", now: 2000, apiVersion: "v1", schema });
 *   if (again._tag === "Left" && again.left.type === "conflict") conflictStatus(again.left.conflicts).code; // 409
 * }
 * ```
 *
 * @module
 */
export type { FieldPath, PathElement } from "./path_element.ts";
export {
  compareElements,
  elementKey,
  fieldElement,
  formatPath,
  indexElement,
  keyElement,
  parseElementKey,
  valueElement,
} from "./path_element.ts";
export type { FieldSet, FieldSetChild } from "./field_set.ts";
export {
  childSet,
  difference,
  emptyFieldSet,
  fieldSetEquals,
  fieldSetOf,
  fieldSetPaths,
  formatFieldSet,
  hasPath,
  intersection,
  isEmptyFieldSet,
  union,
} from "./field_set.ts";
export type { FieldsV1Error } from "./fields_v1.ts";
export { fromFieldsV1, toFieldsV1 } from "./fields_v1.ts";
export type {
  ApplySchema,
  AtomicApplySchema,
  ListMapApplySchema,
  ListSetApplySchema,
  StructApplySchema,
  ValueShape,
} from "./apply_schema.ts";
export { atomic, fieldApplySchema, listMap, listSet, shapeOf, struct } from "./apply_schema.ts";
export {
  applySchemaFor,
  containerApplySchema,
  objectApplySchema,
  objectMetaApplySchema,
  podApplySchema,
  podSpecApplySchema,
  podTemplateApplySchema,
  serviceApplySchema,
  workloadApplySchema,
} from "./builtin_apply_schemas.ts";
export { applySchemaFromOpenApi } from "./apply_schema_from_open_api.ts";
export type { ApplyInvalid } from "./fields_of.ts";
export { checkedFieldsOf, fieldsOf } from "./fields_of.ts";
export { mergeApplied } from "./merge_applied.ts";
export type { FieldChanges } from "./compare_objects.ts";
export { compareObjects } from "./compare_objects.ts";
export { removeFields } from "./remove_fields.ts";
export type { ManagedFieldsEntry, ManagerFields } from "./managed_fields.ts";
export { decodeManagedFields, encodeManagedFields, managerIdentity } from "./managed_fields.ts";
export type { Conflict } from "./conflict.ts";
export { conflictMessage, conflictStatus, printManager } from "./conflict.ts";
export type { WriteScope } from "./tracked_view.ts";
export { trackedView, untrackedMetadata, writeScope } from "./tracked_view.ts";
export type { ApplyFailure, ApplyOptions, ApplyResult } from "./apply.ts";
export { apply } from "./apply.ts";
export {
  BEFORE_FIRST_APPLY_MANAGER,
  fieldManagerApply,
  KUBECTL_APPLY_MANAGER,
} from "./field_manager_apply.ts";
export type { LastAppliedOptions } from "./last_applied.ts";
export {
  allowedConflictsFromLastApplied,
  LAST_APPLIED_ANNOTATION,
  lastAppliedConfiguration,
  syncLastApplied,
} from "./last_applied.ts";
export type { RecordUpdateOptions } from "./record_update.ts";
export { recordUpdate } from "./record_update.ts";
export { managerFromUserAgent } from "./manager_from_user_agent.ts";
export {
  ANCIENT_CHANGES_MANAGER,
  capUpdateManagers,
  MAX_UPDATE_MANAGERS,
} from "./cap_update_managers.ts";
