/**
 * `recordUpdate`: managed-fields bookkeeping for writes that are not apply (create, update,
 * patch): the writer takes every field it changed.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import { formatTime } from "../../core/time.ts";
import type { ApplySchema } from "./apply_schema.ts";
import { compareObjects } from "./compare_objects.ts";
import { difference, emptyFieldSet, isEmptyFieldSet, union } from "./field_set.ts";
import { capUpdateManagers } from "./cap_update_managers.ts";
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagerFields,
} from "./managed_fields.ts";
import { trackedView, writeScope } from "./tracked_view.ts";

function decodedOrNone(entries: unknown): ManagerFields[] {
  const decoded = decodeManagedFields(entries);
  return decoded._tag === "Right" ? decoded.right : [];
}

/** `[]` or `[{}]`: a client clearing the managed fields (kube's `isResetManagedFields`). */
function isReset(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && isPlainObject(entries[0]) && Object.keys(entries[0]).length === 0;
}

/**
 * The managers a write starts from when it sends managed fields of its own: none when it
 * resets them, its own when they decode to something, otherwise the stored ones.
 */
function startingManagers(sent: unknown, stored: unknown): ManagerFields[] {
  if (isReset(sent)) return [];
  const decoded = decodedOrNone(sent);
  return decoded.length ? decoded : decodedOrNone(stored);
}

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
  // A subresource write never sets managed fields (kube: ignoreManagedFieldsFromRequestObject).
  const sent = opts.subresource ? undefined : next.metadata?.managedFields;
  const fromRequest = sent !== undefined && sent !== null && !deepEqual(sent, oldEntries);
  const managers = fromRequest ? startingManagers(sent, oldEntries) : decodedOrNone(oldEntries);
  // kube's skipNonAppliedManager: an update of an object without managed fields (or one
  // that resets them with `[]` or `[{}]`) is not tracked; only a create starts tracking.
  if (old !== undefined && managers.length === 0) return [];
  const start = fromRequest ? sent : oldEntries;
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
  return encodeManagedFields(capUpdateManagers(out));
}
