/**
 * Server-side apply (`application/apply-patch+yaml`): create when absent, otherwise merge the
 * applied configuration into the live object.
 *
 * @module
 */
import type { Json, KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { fail } from "./http_util.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext, storeKey } from "./context.ts";
import { createObject, updateObject, type WriteOptions, type WriteResult } from "./object_write.ts";
import { applyMergePatch } from "./patch/mod.ts";

/** Apply options. */
export interface ApplyOptions extends WriteOptions {
  readonly force: boolean;
  readonly subresource?: string;
}

/** Applies a configuration for a field manager. */
export function serverSideApply(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  patch: unknown,
  opts: ApplyOptions,
): WriteResult {
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
  if (applied.metadata?.managedFields) {
    fail("BadRequest", "metadata.managedFields must be nil");
  }
  const stored = ctx.storage.get(info.storageKey, storeKey(info, namespace, name));
  if (!stored) {
    return createObject(ctx, info, namespace, {
      ...applied,
      metadata: { ...applied.metadata, name },
    }, opts);
  }
  const current = present(info, stored.object);
  const { resourceVersion: _rv, ...meta } = applied.metadata ?? {};
  const merged = applyMergePatch(
    current as Json,
    { ...applied, metadata: meta } as unknown as Json,
  );
  return updateObject(ctx, info, namespace, name, merged, {
    ...opts,
    unconditional: true,
    subresource: opts.subresource === "status" ? "status" : undefined,
  });
}
