/**
 * `recordUpdate`: managed-fields bookkeeping for writes that are not apply (create, update,
 * patch): the writer takes every field it changed.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import { formatTime } from "../../core/time.ts";
import type { ApplySchema } from "./apply_schema.ts";
import { compareObjects } from "./compare_objects.ts";
import { difference, emptyFieldSet, isEmptyFieldSet, union } from "./field_set.ts";
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagerFields,
} from "./managed_fields.ts";
import { trackedView, writeScope } from "./tracked_view.ts";

/** Options of {@link recordUpdate}. */
export interface RecordUpdateOptions {
  /** The writer: `fieldManager`, else {@link managerFromUserAgent} of the User-Agent. */
  readonly manager: string;
  /** Epoch milliseconds. */
  readonly now: number;
  /** The request's `group/version`. */
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly hasStatusSubresource?: boolean;
  readonly schema?: ApplySchema;
}

/**
 * The managed fields after a non-apply write, like kube-apiserver's field manager on
 * create/update/patch: the fields that changed between `old` and `next` go to `manager`'s
 * `Update` entry (merged with its earlier one), other managers lose them (an update takes
 * ownership, it never conflicts), removed fields leave every manager, and managers left
 * with no fields are dropped.
 *
 * The starting entries are `next.metadata.managedFields` when the writer sent ones that
 * differ from `old`'s (a client resetting them; `[]` clears), otherwise `old`'s.
 *
 * @param old the stored object, `undefined` for a create
 * @param next the object about to be stored
 * @param opts see {@link RecordUpdateOptions}
 * @returns the `metadata.managedFields` to store with `next`
 *
 * @example
 * ```ts
 * import { recordUpdate } from "./record_update.ts";
 * const next = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { x: "1" } };
 * recordUpdate(undefined, next, { manager: "kubectl", now: 0, apiVersion: "v1" });
 * // [{ manager: "kubectl", operation: "Update", apiVersion: "v1", time: "1970-01-01T00:00:00Z",
 * //    fieldsType: "FieldsV1", fieldsV1: { "f:data": { "f:x": {}, ".": {} } } }]
 * ```
 */
export function recordUpdate(
  old: KubeObject | undefined,
  next: KubeObject,
  opts: RecordUpdateOptions,
): ManagedFieldsEntry[] {
  const oldEntries = old?.metadata?.managedFields;
  const sent = next.metadata?.managedFields;
  const start = sent !== undefined && !deepEqual(sent, oldEntries) ? sent : oldEntries;
  const decoded = decodeManagedFields(start);
  const managers = decoded._tag === "Right" ? decoded.right : [];
  const scope = writeScope(opts);
  const changes = compareObjects(
    trackedView(old ?? {}, scope),
    trackedView(next, scope),
    opts.schema,
  );
  const taken = union(changes.added, changes.modified);
  if (start === oldEntries && isEmptyFieldSet(taken) && isEmptyFieldSet(changes.removed)) {
    // Nothing this write owns changed: the managed fields stay as they are.
    return (oldEntries ?? []) as ManagedFieldsEntry[];
  }
  const isMine = (m: ManagerFields) =>
    m.manager === opts.manager && m.operation === "Update" && m.apiVersion === opts.apiVersion &&
    (m.subresource ?? "") === (opts.subresource ?? "");
  const out: ManagerFields[] = [];
  let mine: ManagerFields | undefined;
  for (const m of managers) {
    if (isMine(m)) mine = m;
    else out.push({ ...m, fields: difference(difference(m.fields, taken), changes.removed) });
  }
  if (isEmptyFieldSet(taken)) {
    if (mine) out.push({ ...mine, fields: difference(mine.fields, changes.removed) });
  } else {
    out.push({
      manager: opts.manager,
      operation: "Update",
      apiVersion: opts.apiVersion,
      time: formatTime(opts.now),
      ...(opts.subresource ? { subresource: opts.subresource } : {}),
      fields: difference(union(mine?.fields ?? emptyFieldSet, taken), changes.removed),
    });
  }
  return encodeManagedFields(out);
}
