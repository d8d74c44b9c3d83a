/**
 * `apply`: server-side apply of a configuration for a field manager.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;
import type { ApplySchema } from "./apply_schema.ts";
import { compareObjects } from "./compare_objects.ts";
import type { Conflict } from "./conflict.ts";
import {
  difference,
  emptyFieldSet,
  fieldSetEquals,
  fieldSetPaths,
  intersection,
  isEmptyFieldSet,
  union,
} from "./field_set.ts";
import { type ApplyInvalid, checkedFieldsOf } from "./fields_of.ts";
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagedFieldsEntry,
  type ManagerFields,
} from "./managed_fields.ts";
import { mergeApplied } from "./merge_applied.ts";
import { removeFields } from "./remove_fields.ts";
import { trackedView, writeScope } from "./tracked_view.ts";

/** Options of {@link apply}. */
export interface ApplyOptions {
  /** The field manager (`fieldManager` query parameter). */
  readonly manager: string;
  /** Take ownership of conflicting fields instead of failing (`force=true`). Default false. */
  readonly force?: boolean;
  /** The object's schema (`applySchemaFor`, `applySchemaFromOpenApi`); default: deduced. */
  readonly schema?: ApplySchema;
  /** Epoch milliseconds, recorded (seconds precision) as the entry's `time`. */
  readonly now: number;
  /** The request's `group/version`, recorded as the entry's `apiVersion`. */
  readonly apiVersion: string;
  /** `status` for the status subresource (recorded as the entry's `subresource`). */
  readonly subresource?: string;
  /** Whether the kind has a status subresource (then the main endpoint ignores `status`). */
  readonly hasStatusSubresource?: boolean;
}

/** Why an apply failed: conflicts with other managers, or an unusable configuration. */
export type ApplyFailure =
  | { readonly type: "conflict"; readonly conflicts: readonly Conflict[] }
  | ApplyInvalid;

/** A successful apply. */
export interface ApplyResult {
  /** The object to store, `metadata.managedFields` included (omitted when empty). */
  readonly object: KubeObject;
  readonly managedFields: readonly ManagedFieldsEntry[];
  /** Whether the owned fields of the object changed (false: the apply was a no-op). */
  readonly changed: boolean;
}

function withManagedFields(obj: KubeObject, entries: readonly ManagedFieldsEntry[]): KubeObject {
  const { managedFields: _m, ...meta } = obj.metadata ?? {};
  const metadata = entries.length ? { ...meta, managedFields: [...entries] } : meta;
  return { ...obj, metadata } as KubeObject;
}

/**
 * Applies a configuration for a field manager, like kube-apiserver's
 * `application/apply-patch+yaml`, but as a pure function of the live object.
 *
 * The configuration is merged into the live object (granular objects per field, list maps
 * per key, sets as unions, atomic values replaced); fields the manager applied last time and
 * omits now are removed unless another manager owns them; the manager's `Apply` entry becomes
 * exactly the configuration's fields. A field the configuration changes that another manager
 * owns is a conflict, unless `force` moves it to this manager; applying the value a field
 * already has shares its ownership. With no live object the result is the object to create.
 *
 * @param live the stored object, `undefined` for create-on-apply
 * @param applied the applied configuration (must not set `metadata.managedFields`)
 * @param opts see {@link ApplyOptions}
 * @returns the object and its managed fields, or the conflicts / why the config is invalid
 *
 * @example
 * ```ts
 * import { apply } from "./apply.ts";
 * const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "demo" }, data: { a: "1" } };
 * const r = apply(undefined, cm, { manager: "kubectl", now: 0, apiVersion: "v1" });
 * if (r._tag === "Right") r.right.managedFields[0].fieldsV1; // { "f:data": { "f:a": {} } }
 * ```
 */
export function apply(
  live: KubeObject | undefined,
  applied: KubeObject,
  opts: ApplyOptions,
): Either<ApplyFailure, ApplyResult> {
  if (applied.metadata?.managedFields !== undefined) {
    return left({ type: "invalid", field: ".metadata.managedFields", detail: "must be nil" });
  }
  const { schema } = opts;
  const scope = writeScope(opts);
  const config = trackedView(applied, scope);
  const newSet = checkedFieldsOf(config, schema);
  if (newSet._tag === "Left") return newSet;
  const decoded = decodeManagedFields(live?.metadata?.managedFields);
  // Like kube-apiserver: unreadable managed fields are reset rather than failing the write.
  const managers = decoded._tag === "Right" ? decoded.right : [];
  const isMine = (m: ManagerFields) =>
    m.manager === opts.manager && m.operation === "Apply" &&
    (m.subresource ?? "") === (opts.subresource ?? "");
  const mine = managers.find(isMine);
  const others = managers.filter((m) => !isMine(m));

  const base: KubeObject = live ?? {
    apiVersion: applied.apiVersion,
    kind: applied.kind,
    metadata: {
      ...(applied.metadata?.name !== undefined ? { name: applied.metadata.name } : {}),
      ...(applied.metadata?.namespace !== undefined
        ? { namespace: applied.metadata.namespace }
        : {}),
    },
  };
  let object = mergeApplied(base, config, schema) as KubeObject;
  if (mine && !isEmptyFieldSet(mine.fields)) {
    const owned = others.reduce((acc, m) => union(acc, m.fields), newSet.right);
    const toRemove = difference(mine.fields, owned);
    if (!isEmptyFieldSet(toRemove)) {
      // Merging the configuration again restores empty objects and lists it spells out.
      object = mergeApplied(
        removeFields(object, toRemove, { schema, owned }),
        config,
        schema,
      ) as KubeObject;
    }
  }

  const changes = compareObjects(trackedView(base, scope), trackedView(object, scope), schema);
  const changed = union(changes.added, changes.modified);
  const conflicts: Conflict[] = [];
  const nextOthers: ManagerFields[] = [];
  for (const m of others) {
    const lost = intersection(m.fields, changed);
    for (const path of fieldSetPaths(lost)) {
      conflicts.push({
        manager: m.manager,
        operation: m.operation,
        apiVersion: m.apiVersion,
        ...(m.subresource ? { subresource: m.subresource } : {}),
        path,
      });
    }
    nextOthers.push({ ...m, fields: difference(difference(m.fields, lost), changes.removed) });
  }
  if (conflicts.length && !opts.force) return left({ type: "conflict", conflicts });

  const objectChanged = !isEmptyFieldSet(changed) || !isEmptyFieldSet(changes.removed);
  const same = mine !== undefined && fieldSetEquals(mine.fields, newSet.right) && !objectChanged;
  const entry: ManagerFields = {
    manager: opts.manager,
    operation: "Apply",
    apiVersion: opts.apiVersion,
    time: same && mine?.time ? mine.time : formatTime(opts.now),
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
    fields: newSet.right ?? emptyFieldSet,
  };
  const managedFields = encodeManagedFields([...nextOthers, entry]);
  return right({
    object: withManagedFields(object, managedFields),
    managedFields,
    changed: objectChanged,
  });
}
