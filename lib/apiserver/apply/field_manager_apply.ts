/**
 * `fieldManagerApply`: server-side apply with the layers kube-apiserver's default field
 * manager puts around the structured merge (apimachinery
 * `pkg/util/managedfields/internal/fieldmanager.go`, `NewDefaultFieldManager`):
 * `before-first-apply`, the client-side apply upgrade, and the last-applied annotation.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";
import { apply, type ApplyFailure, type ApplyOptions, type ApplyResult } from "./apply.ts";
import { hasPath } from "./field_set.ts";
import { allowedConflictsFromLastApplied, syncLastApplied } from "./last_applied.ts";
import { decodeManagedFields } from "./managed_fields.ts";
import { recordUpdate } from "./record_update.ts";
import { writeScope } from "./tracked_view.ts";

/** The manager kube-apiserver records the fields of an object that had none when first applied. */
export const BEFORE_FIRST_APPLY_MANAGER = "before-first-apply";

/** The field manager of `kubectl apply --server-side`, the only one upgraded from client-side apply. */
export const KUBECTL_APPLY_MANAGER = "kubectl";

function withFirstApplyOwner(live: KubeObject, opts: ApplyOptions): KubeObject {
  const decoded = decodeManagedFields(live.metadata?.managedFields);
  if (decoded._tag === "Right" && decoded.right.length > 0) return live;
  const { managedFields: _, ...meta } = live.metadata ?? {};
  const bare = { ...live, metadata: meta };
  const managedFields = recordUpdate(undefined, bare, {
    manager: BEFORE_FIRST_APPLY_MANAGER,
    now: opts.now,
    apiVersion: opts.apiVersion,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
    ...(opts.hasStatusSubresource ? { hasStatusSubresource: true } : {}),
    ...(opts.schema ? { schema: opts.schema } : {}),
  });
  return { ...live, metadata: { ...meta, managedFields } } as KubeObject;
}

/**
 * Applies a configuration like kube-apiserver does, {@link apply} wrapped in its field
 * manager's layers, innermost first:
 * - **before-first-apply**: a live object with no managed fields gets an `Update` entry of
 *   manager `before-first-apply` owning all its fields, so the first apply conflicts on the
 *   values it would change instead of silently taking them;
 * - **client-side apply upgrade**: when manager `kubectl` (`kubectl apply --server-side`)
 *   conflicts only on fields the live object's `last-applied-configuration` annotation
 *   still sets to their current value, the apply is forced (the fields were the user's own
 *   client-side apply); other conflicts are reported without those;
 * - **last-applied sync**: after an apply by `kubectl`, an annotation the object still has
 *   is rewritten to the configuration applied.
 *
 * @param live the stored object, `undefined` for create-on-apply
 * @param applied the applied configuration
 * @param opts see {@link ApplyOptions}
 * @returns what {@link apply} returns
 *
 * @example
 * ```ts
 * import { fieldManagerApply } from "./field_manager_apply.ts";
 * import { recordUpdate } from "./record_update.ts";
 * const key = "kubectl.kubernetes.io/last-applied-configuration";
 * const last = '{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"name":"c"}}\n';
 * const created = { apiVersion: "v1", kind: "ConfigMap",
 *   metadata: { name: "c", annotations: { [key]: last } }, data: { a: "1" } };
 * const live = { ...created, metadata: { ...created.metadata, managedFields: recordUpdate(
 *   undefined, created, { manager: "kubectl-client-side-apply", now: 0, apiVersion: "v1" }) } };
 * const config = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, data: { a: "2" } };
 * const r = fieldManagerApply(live, config, { manager: "kubectl", now: 1000, apiVersion: "v1" });
 * r._tag; // "Right": no conflict with kubectl-client-side-apply on .data.a
 * ```
 */
export function fieldManagerApply(
  live: KubeObject | undefined,
  applied: KubeObject,
  opts: ApplyOptions,
): Either<ApplyFailure, ApplyResult> {
  const base = live ? withFirstApplyOwner(live, opts) : undefined;
  let r = apply(base, applied, opts);
  if (opts.manager !== KUBECTL_APPLY_MANAGER) return r;
  if (r._tag === "Left" && r.left.type === "conflict" && base) {
    const allowed = allowedConflictsFromLastApplied(base, {
      apiVersion: opts.apiVersion,
      scope: writeScope(opts),
      ...(opts.schema ? { schema: opts.schema } : {}),
    });
    if (allowed) {
      const left = r.left.conflicts.filter((c) => !hasPath(allowed, c.path));
      r = left.length
        ? E.left({ type: "conflict", conflicts: left })
        : apply(base, applied, { ...opts, force: true });
    }
  }
  if (r._tag === "Left") return r;
  const object = syncLastApplied(r.right.object, applied);
  return object === r.right.object ? r : E.right({ ...r.right, object });
}
