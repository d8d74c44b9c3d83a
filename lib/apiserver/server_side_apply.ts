/**
 * Server-side apply (`application/apply-patch+yaml`): create when absent, otherwise merge the
 * applied configuration into the live object with field ownership (`managedFields`), removal
 * of fields the manager no longer applies, and 409 conflicts unless `force`.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { failure } from "../core/status.ts";
import { ApiFailure, fail } from "./http_util.ts";
import { groupVersion, type ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext, storeKey } from "./context.ts";
import {
  applySchemaOf,
  conflict,
  createObject,
  updateObject,
  type UpdateOptions,
  type WriteOptions,
  type WriteResult,
} from "./object_write.ts";
import { conflictStatus, fieldManagerApply } from "./apply/mod.ts";

/** Apply options. */
export interface ApplyOptions extends WriteOptions {
  readonly force: boolean;
  readonly subresource?: string;
}

/** What an apply amounts to: a create, or an update to a candidate object. */
export type ApplyPlan =
  | { readonly type: "create"; readonly body: KubeObject; readonly opts: WriteOptions }
  | { readonly type: "update"; readonly candidate: KubeObject; readonly opts: UpdateOptions };

/**
 * Plans an apply against the live object (`live`: the stored object as `info`'s version, or
 * undefined when there is none): the merged object with its managed fields, or the failure.
 *
 * @example
 * ```ts ignore
 * const plan = planServerSideApply(info, "default", "demo", config, opts, live);
 * ```
 */
export function planServerSideApply(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  patch: unknown,
  opts: ApplyOptions,
  live: KubeObject | undefined,
): ApplyPlan {
  if (!opts.fieldManager) {
    fail(
      "Invalid",
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      { causes: [{ reason: "FieldValueRequired", field: "fieldManager" }] },
    );
  }
  if (!isPlainObject(patch)) fail("BadRequest", "the apply configuration must be an object");
  const applied = patch as KubeObject;
  if (!applied.apiVersion || !applied.kind) {
    fail("BadRequest", "the apply configuration must set apiVersion and kind");
  }
  if (applied.metadata?.name !== undefined && applied.metadata.name !== name) {
    fail(
      "BadRequest",
      `the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`,
    );
  }
  const rv = applied.metadata?.resourceVersion;
  if (rv && live && rv !== live.metadata?.resourceVersion) throw conflict(info, name);
  const config: KubeObject = {
    ...applied,
    metadata: {
      ...applied.metadata,
      name,
      ...(info.namespaced && namespace ? { namespace } : {}),
    },
  };
  const sub = opts.subresource === "status" ? "status" : undefined;
  const r = fieldManagerApply(live, config, {
    manager: opts.fieldManager,
    force: opts.force,
    schema: applySchemaOf(info),
    now: ctx.now(),
    apiVersion: groupVersion(info),
    ...(sub ? { subresource: sub } : {}),
    hasStatusSubresource: info.hasStatus,
  });
  if (r._tag === "Left") {
    const f = r.left;
    if (f.type === "conflict") throw new ApiFailure(conflictStatus(f.conflicts));
    throw new ApiFailure(
      failure("Invalid", `${info.kind} "${name}" is invalid: ${f.field}: ${f.detail}`, {
        name,
        kind: info.kind,
        causes: [{ reason: "FieldValueInvalid", field: f.field, message: f.detail }],
      }),
    );
  }
  const { object, managedFields } = r.right;
  const withOpts = { ...opts, managedFields };
  if (!live) {
    const { resourceVersion: _rv, ...meta } = object.metadata ?? {};
    return { type: "create", body: { ...object, metadata: meta }, opts: withOpts };
  }
  return {
    type: "update",
    candidate: object,
    opts: { ...withOpts, unconditional: true, subresource: sub },
  };
}

/**
 * Applies a configuration for a field manager.
 *
 * @example
 * ```ts ignore
 * serverSideApply(ctx, info, "default", "demo", config, { fieldManager: "kubectl", force: false });
 * ```
 */
export function serverSideApply(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  patch: unknown,
  opts: ApplyOptions,
): WriteResult {
  const stored = ctx.storage.get(info.storageKey, storeKey(info, namespace, name));
  const live = stored ? present(info, stored.object) : undefined;
  const plan = planServerSideApply(ctx, info, namespace, name, patch, opts, live);
  return plan.type === "create"
    ? createObject(ctx, info, namespace, plan.body, plan.opts)
    : updateObject(ctx, info, namespace, name, plan.candidate, plan.opts);
}
