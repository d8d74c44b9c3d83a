/**
 * The `kubectl.kubernetes.io/last-applied-configuration` annotation as kube-apiserver's field
 * manager reads and writes it on server-side apply (apimachinery
 * `pkg/util/managedfields/internal/lastappliedmanager.go` and `lastappliedupdater.go`):
 * the conflicts a first server-side apply may take over from client-side apply, and the
 * annotation kept in step with later server-side applies.
 *
 * @module
 */
import type { Json, KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ApplySchema } from "./apply_schema.ts";
import { compareObjects } from "./compare_objects.ts";
import { difference, type FieldSet } from "./field_set.ts";
import { fieldsOf } from "./fields_of.ts";
import { trackedView, type WriteScope } from "./tracked_view.ts";
import { goJson } from "./_go_json.ts";

/** The annotation client-side `kubectl apply` records its configuration in. */
export const LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

/** kube-apiserver's limit on the total size of an object's annotations (256 KiB). */
const totalAnnotationSizeLimit = 256 * 1024;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

function lastAppliedText(obj: Readonly<KubeObject>): string | undefined {
  const value = obj.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Options of {@link allowedConflictsFromLastApplied}. */
export interface LastAppliedOptions {
  /** The request's `group/version`: the annotation must be of the same version. */
  readonly apiVersion: string;
  readonly schema?: ApplySchema;
  readonly scope: WriteScope;
}

/**
 * The fields a server-side apply by `kubectl` may take from other managers without a
 * conflict: those the live object's last-applied configuration sets to the value they still
 * have. `undefined` when there is no usable annotation (absent, not JSON, another version).
 *
 * Like kube-apiserver's `lastAppliedManager`: the last-applied field set minus every field
 * that differs between it and the live object (modified, added or removed).
 *
 * @param live the stored object
 * @param opts see {@link LastAppliedOptions}
 * @returns the allowed fields, or `undefined`
 *
 * @example
 * ```ts
 * import { allowedConflictsFromLastApplied } from "./last_applied.ts";
 * import { formatFieldSet } from "./field_set.ts";
 * const last = '{"apiVersion":"v1","data":{"a":"1","b":"2"},"kind":"ConfigMap"}\n';
 * const live = { apiVersion: "v1", kind: "ConfigMap",
 *   metadata: { name: "c", annotations: { "kubectl.kubernetes.io/last-applied-configuration": last } },
 *   data: { a: "1", b: "changed" } };
 * const allowed = allowedConflictsFromLastApplied(live, { apiVersion: "v1", scope: "all" });
 * formatFieldSet(allowed!); // [".data.a"]
 * ```
 */
export function allowedConflictsFromLastApplied(
  live: Readonly<KubeObject>,
  opts: LastAppliedOptions,
): FieldSet | undefined {
  const text = lastAppliedText(live);
  if (text === undefined) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(last) || last.apiVersion !== opts.apiVersion) return undefined;
  const lastView = trackedView(last, opts.scope);
  const liveView = trackedView(live, opts.scope);
  const changes = compareObjects(lastView, liveView, opts.schema);
  return difference(
    difference(difference(fieldsOf(lastView, opts.schema), changes.modified), changes.added),
    changes.removed,
  );
}

/**
 * The annotation text of an applied configuration: its JSON the way Go's encoder writes an
 * unstructured object (keys sorted, HTML characters escaped, a trailing newline), without
 * the annotation itself.
 *
 * @example
 * ```ts
 * import { lastAppliedConfiguration } from "./last_applied.ts";
 * lastAppliedConfiguration({ kind: "ConfigMap", apiVersion: "v1", data: { a: "<1>" } });
 * // '{"apiVersion":"v1","data":{"a":"\\u003c1\\u003e"},"kind":"ConfigMap"}\n'
 * ```
 */
export function lastAppliedConfiguration(applied: Readonly<KubeObject>): string {
  const annotations = applied.metadata?.annotations;
  let config = applied as Readonly<Record<string, unknown>>;
  if (annotations && Object.hasOwn(annotations, LAST_APPLIED_ANNOTATION)) {
    const { [LAST_APPLIED_ANNOTATION]: _, ...rest } = annotations;
    config = { ...applied, metadata: { ...applied.metadata, annotations: rest } };
  }
  return `${goJson(config as Json)}\n`;
}

/**
 * After a server-side apply by `kubectl`: when the object still carries a last-applied
 * annotation, it is rewritten to the configuration just applied, so a later client-side
 * `kubectl apply` computes its patch from it (kube-apiserver's `lastAppliedUpdater`). When
 * the annotations would exceed 256 KiB the annotation is dropped instead.
 *
 * @param object the object the apply produced
 * @param applied the applied configuration, as sent
 * @returns the object to store
 *
 * @example
 * ```ts
 * import { syncLastApplied } from "./last_applied.ts";
 * const key = "kubectl.kubernetes.io/last-applied-configuration";
 * const obj = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", annotations: { [key]: "{}" } } };
 * syncLastApplied(obj, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } })
 *   .metadata?.annotations?.[key]; // '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}\n'
 * ```
 */
export function syncLastApplied(object: KubeObject, applied: Readonly<KubeObject>): KubeObject {
  if (lastAppliedText(object) === undefined) return object;
  const annotations = { ...object.metadata?.annotations };
  annotations[LAST_APPLIED_ANNOTATION] = lastAppliedConfiguration(applied);
  const size = Object.entries(annotations).reduce(
    (n, [k, v]) => n + utf8Length(k) + utf8Length(v),
    0,
  );
  if (size > totalAnnotationSizeLimit) delete annotations[LAST_APPLIED_ANNOTATION];
  return { ...object, metadata: { ...object.metadata, annotations } };
}
