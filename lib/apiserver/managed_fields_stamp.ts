/**
 * `metadata.managedFields` of every write: server-side apply's result, or the writer's Update
 * entry (fields it changed), with the merge semantics of the resource.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { groupVersion, type ResourceInfo } from "./resource_info.ts";
import type { ServerContext } from "./context.ts";
import type { WriteOptions } from "./object_commit.ts";
import { type ApplySchema, applySchemaFor, recordUpdate } from "./apply/mod.ts";

const applySchemas = new WeakMap<ResourceInfo, ApplySchema>();

/**
 * The server-side apply merge semantics of a resource.
 *
 * @example
 * ```ts ignore
 * applySchemaOf(podsInfo); // containers keyed by name, ...
 * ```
 */
export function applySchemaOf(info: ResourceInfo): ApplySchema {
  if (info.applySchema) return info.applySchema;
  let s = applySchemas.get(info);
  if (!s) applySchemas.set(info, s = applySchemaFor(groupVersion(info), info.kind));
  return s;
}

/**
 * Sets `metadata.managedFields` after a write (apply's result, or the writer's Update entry).
 *
 * @example
 * ```ts ignore
 * stampManagedFields(ctx, info, old, next, { fieldManager: "kubectl" });
 * ```
 */
export function stampManagedFields(
  ctx: ServerContext,
  info: ResourceInfo,
  old: KubeObject | undefined,
  object: KubeObject,
  opts: WriteOptions,
  subresource?: string,
): void {
  const entries = opts.managedFields ?? recordUpdate(old, object, {
    manager: opts.fieldManager ?? opts.userAgentManager ?? "unknown",
    now: ctx.now(),
    apiVersion: groupVersion(info),
    ...(subresource ? { subresource } : {}),
    hasStatusSubresource: info.hasStatus,
    schema: applySchemaOf(info),
  });
  const meta = object.metadata!;
  if (entries.length) meta.managedFields = [...entries] as never;
  else delete meta.managedFields;
}
