/**
 * `Op`: one write a reconciler asks for. A plan is a list of them.
 *
 * ## Why creates carry the whole object (and its name)
 * Every `create` names its child (no `generateName`). A reconciler picks names from a
 * deterministic source (see {@link childNames}), so two reconciles over the same stale cache
 * plan the *same* creates: the second one meets `AlreadyExists` instead of making a duplicate.
 * That is read-your-writes without trusting the cache, and it gives the applier and the
 * controller a key (`objectKey`, the one key format) to record expectations under before the
 * watch catches up. Deletes carry the uid as a precondition, so a delete planned against a
 * stale object can never remove its same-named successor.
 *
 * @module
 */
import type { Json, JsonObject, KubeObject } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { HasMetadata } from "../core/has_metadata.ts";

/** Which object an op addresses (namespace absent for cluster-scoped objects). */
export interface ObjectRef {
  /** `group/version` of the object. */
  readonly apiVersion: string;
  /** Its kind. */
  readonly kind: string;
  /** Its namespace (absent for cluster-scoped objects). */
  readonly namespace?: string;
  /** Its name. */
  readonly name: string;
}

/**
 * An event to record about an object (`events.k8s.io/v1` fields), as `kubectl events` shows it.
 *
 * @example
 * ```ts
 * import type { EventInput } from "../../mod.ts";
 * const e: EventInput = { type: "Normal", reason: "Scaled", action: "Scale", note: "3 replicas" };
 * ```
 */
export interface EventInput {
  /** `Normal` or `Warning`. */
  readonly type: "Normal" | "Warning";
  /** Why, in UpperCamelCase (`Created`, `ApplyFailed`); at most 128 characters. */
  readonly reason: string;
  /** What the controller did or failed to do (`Reconcile`, `Create`); at most 128 characters. */
  readonly action: string;
  /** Human-readable detail; truncated to 1 KiB (UTF-8). */
  readonly note: string;
}

/** The patch formats a `patch` op can carry (`Content-Type` chosen by the applier). */
export type PatchType = "merge" | "json" | "strategic";

/**
 * One write. Exhaustive by `type`:
 * - `create`: POST the object (named; `AlreadyExists` means an earlier create landed); the
 *   applier makes the primary its controller owner unless `owned` is `false` (an object that
 *   must outlive the primary, e.g. a final backup). With `apply: true` the object is created
 *   by server-side apply instead (without `force`; a conflict means the name is taken, like
 *   `AlreadyExists`), so the field manager's `Apply` entry owns exactly its fields and a
 *   later `apply` that omits one removes it; that needs the `patch` verb too (declare
 *   `create` and `apply` writes);
 * - `apply`: server-side apply of the desired state of a child (fields the reconciler owns);
 * - `patch`: a patch of an object the reconciler does not fully own (e.g. one annotation);
 * - `delete`: DELETE with a uid precondition;
 * - `status`: write the complete status of an object (the primary) through `/status`;
 * - `event`: record an event about the primary (or `regarding`) with the event recorder.
 *
 * @example
 * ```ts
 * import type { Op } from "../../mod.ts";
 * const op: Op = {
 *   type: "delete",
 *   ref: { apiVersion: "v1", kind: "Pod", namespace: "default", name: "web-x", uid: "u1" },
 * };
 * ```
 */
export type Op =
  | {
    readonly type: "create";
    readonly object: DeepReadonly<KubeObject>;
    /** `false`: no owner reference to the primary (default: owned). */
    readonly owned?: false;
    /** `true`: create by server-side apply, not POST (default: POST). */
    readonly apply?: true;
  }
  | { readonly type: "apply"; readonly object: DeepReadonly<KubeObject> }
  | {
    readonly type: "patch";
    readonly ref: ObjectRef;
    readonly patchType: PatchType;
    readonly patch: DeepReadonly<Json>;
  }
  | { readonly type: "delete"; readonly ref: ObjectRef & { readonly uid: string } }
  | { readonly type: "status"; readonly ref: ObjectRef; readonly status: DeepReadonly<JsonObject> }
  | {
    readonly type: "event";
    readonly event: EventInput;
    /** The object the event is about; default the primary. */
    readonly regarding?: ObjectRef & { readonly uid?: string };
  };

/**
 * The {@link ObjectRef} of an object (empty strings for missing TypeMeta or name).
 *
 * @example
 * ```ts
 * import { refOf } from "../../mod.ts";
 * refOf({ apiVersion: "v1", kind: "Pod", metadata: { namespace: "d", name: "p" } });
 * // { apiVersion: "v1", kind: "Pod", namespace: "d", name: "p" }
 * ```
 */
export function refOf(obj: HasMetadata): ObjectRef {
  const ns = obj.metadata?.namespace;
  return {
    apiVersion: obj.apiVersion ?? "",
    kind: obj.kind ?? "",
    ...(ns ? { namespace: ns } : {}),
    name: obj.metadata?.name ?? "",
  };
}

/**
 * A `delete` op for an observed object, with its uid as the precondition.
 *
 * @example
 * ```ts
 * import { deleteOp } from "../../mod.ts";
 * deleteOp({ apiVersion: "v1", kind: "Pod", metadata: { name: "p", uid: "u1" } }).ref.uid; // "u1"
 * ```
 */
export function deleteOp(obj: HasMetadata): Extract<Op, { type: "delete" }> {
  return { type: "delete", ref: { ...refOf(obj), uid: obj.metadata?.uid ?? "" } };
}

/**
 * A `status` op writing `status` to an observed object (the primary), from a typed status.
 *
 * Like building `{ type: "status", ref: refOf(obj), status }` by hand, but any status
 * interface (e.g. `PodSetStatus`) is accepted as the JSON object it serializes to.
 *
 * @param obj the object whose status is written
 * @param status its complete status
 * @returns the op
 * @example
 * ```ts
 * import { statusOp } from "../../mod.ts";
 * interface WidgetStatus { readonly ready: number }
 * const status: WidgetStatus = { ready: 2 };
 * statusOp({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } }, status).type; // "status"
 * ```
 */
export function statusOp(obj: HasMetadata, status: object): Extract<Op, { type: "status" }> {
  // A status interface has no index signature, but is the JSON object it serializes to.
  return { type: "status", ref: refOf(obj), status: status as DeepReadonly<JsonObject> };
}

/**
 * A `patch` op of `patchType` on the object at `ref`, from a typed patch body.
 *
 * Like building `{ type: "patch", ref, patchType, patch }` by hand, but the body may be built
 * from typed Kubernetes objects (interfaces without an index signature, optional fields): it is
 * accepted as the JSON it serializes to (`undefined` fields are left out on the wire).
 *
 * @param ref the object to patch
 * @param patchType `merge`, `json` or `strategic`
 * @param patch the patch body (an object, or the operations of a JSON patch)
 * @returns the op
 * @example
 * ```ts
 * import { patchOp } from "../../mod.ts";
 * const labels: { app?: string } = { app: "web" };
 * patchOp({ apiVersion: "v1", kind: "Service", namespace: "d", name: "s" }, "merge", {
 *   metadata: { labels },
 * }).patchType; // "merge"
 * ```
 */
export function patchOp(
  ref: ObjectRef,
  patchType: PatchType,
  patch: object,
): Extract<Op, { type: "patch" }> {
  // A typed body has no index signature (and may hold undefined), but is the JSON it serializes to.
  return { type: "patch", ref, patchType, patch: patch as DeepReadonly<Json> };
}
