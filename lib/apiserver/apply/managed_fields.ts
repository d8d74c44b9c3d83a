/**
 * `metadata.managedFields`: decoding entries into per-manager field sets and encoding them
 * back, sorted as kube-apiserver sorts them.
 *
 * @module
 */
import type { JsonObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;
import { type FieldSet, isEmptyFieldSet, union } from "./field_set.ts";
import { type FieldsV1Error, fromFieldsV1, toFieldsV1 } from "./fields_v1.ts";
import { compareStrings } from "./_go_json.ts";

/** One `metav1.ManagedFieldsEntry`, in kube's field order. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: "Apply" | "Update";
  apiVersion?: string;
  time?: string;
  fieldsType?: "FieldsV1";
  fieldsV1?: JsonObject;
  subresource?: string;
}

/** One manager's fields, decoded. */
export interface ManagerFields {
  readonly manager: string;
  readonly operation: "Apply" | "Update";
  readonly apiVersion: string;
  readonly time?: string;
  readonly subresource?: string;
  readonly fields: FieldSet;
}

/**
 * A manager's identity as kube builds it: the entry without time and fields, and without
 * `apiVersion` for appliers (an applier keeps its entry across versions).
 *
 * @example
 * ```ts
 * import { managerIdentity } from "./managed_fields.ts";
 * managerIdentity({ manager: "ctrl", operation: "Update", apiVersion: "v1" });
 * // '{"manager":"ctrl","operation":"Update","apiVersion":"v1"}'
 * ```
 */
export function managerIdentity(
  m: Pick<ManagerFields, "manager" | "operation" | "apiVersion" | "subresource">,
): string {
  return JSON.stringify({
    manager: m.manager,
    operation: m.operation,
    ...(m.operation === "Update" && m.apiVersion ? { apiVersion: m.apiVersion } : {}),
    ...(m.subresource ? { subresource: m.subresource } : {}),
  });
}

/**
 * Decodes `metadata.managedFields`; entries of the same identity are merged.
 *
 * @example
 * ```ts
 * import { decodeManagedFields } from "./managed_fields.ts";
 * decodeManagedFields([{ manager: "kubectl", operation: "Apply", apiVersion: "v1",
 *   fieldsType: "FieldsV1", fieldsV1: { "f:data": { "f:a": {} } } }])._tag; // "Right"
 * ```
 */
export function decodeManagedFields(entries: unknown): Either<FieldsV1Error, ManagerFields[]> {
  if (entries === undefined || entries === null) return right([]);
  if (!Array.isArray(entries)) {
    return left({ type: "invalidFieldsV1", detail: "managedFields must be a list" });
  }
  const byId = new Map<string, ManagerFields>();
  for (const raw of entries) {
    if (!isPlainObject(raw)) {
      return left({ type: "invalidFieldsV1", detail: "managedFields entry must be an object" });
    }
    const op = raw.operation;
    if (op !== "Apply" && op !== "Update") {
      return left({ type: "invalidFieldsV1", detail: `unknown operation ${JSON.stringify(op)}` });
    }
    if (raw.fieldsType !== undefined && raw.fieldsType !== "FieldsV1") {
      return left({
        type: "invalidFieldsV1",
        detail: `unknown fieldsType ${JSON.stringify(raw.fieldsType)}`,
      });
    }
    const fields = fromFieldsV1(raw.fieldsV1 ?? {});
    if (fields._tag === "Left") return fields;
    const m: ManagerFields = {
      manager: typeof raw.manager === "string" ? raw.manager : "",
      operation: op,
      apiVersion: typeof raw.apiVersion === "string" ? raw.apiVersion : "",
      ...(typeof raw.time === "string" ? { time: raw.time } : {}),
      ...(typeof raw.subresource === "string" && raw.subresource
        ? { subresource: raw.subresource }
        : {}),
      fields: fields.right,
    };
    const id = managerIdentity(m);
    const prev = byId.get(id);
    byId.set(id, prev ? { ...m, fields: union(prev.fields, m.fields) } : m);
  }
  return right([...byId.values()]);
}

const seconds = (t: string | undefined) => t ? Math.floor(Date.parse(t) / 1000) || 0 : 0;

/**
 * Encodes managers as `metadata.managedFields`: managers with no fields are dropped; entries
 * are sorted by operation (Apply first), time, manager, apiVersion, subresource.
 *
 * @example
 * ```ts
 * import { encodeManagedFields } from "./managed_fields.ts";
 * import { fieldSetOf } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * encodeManagedFields([{ manager: "kubectl", operation: "Apply", apiVersion: "v1",
 *   time: "2025-01-02T03:04:05Z", fields: fieldSetOf([[f("data"), f("a")]]) }]);
 * ```
 */
export function encodeManagedFields(managers: readonly ManagerFields[]): ManagedFieldsEntry[] {
  return managers
    .filter((m) => !isEmptyFieldSet(m.fields))
    .sort((p, q) =>
      compareStrings(p.operation, q.operation) || seconds(p.time) - seconds(q.time) ||
      compareStrings(p.manager, q.manager) || compareStrings(p.apiVersion, q.apiVersion) ||
      compareStrings(p.subresource ?? "", q.subresource ?? "")
    )
    .map((m) => ({
      manager: m.manager,
      operation: m.operation,
      apiVersion: m.apiVersion,
      ...(m.time ? { time: m.time } : {}),
      fieldsType: "FieldsV1" as const,
      fieldsV1: toFieldsV1(m.fields),
      ...(m.subresource ? { subresource: m.subresource } : {}),
    }));
}
