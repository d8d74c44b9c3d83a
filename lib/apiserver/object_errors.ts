/**
 * The Status failures of object lookups and stale writes (404 NotFound, 409 Conflict).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { failure } from "../core/status.ts";
import { ApiFailure } from "./http_util.ts";
import { qualifiedResource, type ResourceInfo } from "./resource_info.ts";
import { type ServerContext, storeKey } from "./context.ts";

/**
 * The 409 Conflict of a stale write.
 *
 * @example
 * ```ts ignore
 * throw conflict(info, "demo");
 * ```
 */
export function conflict(info: ResourceInfo, name: string, detail?: string): ApiFailure {
  return new ApiFailure(
    failure(
      "Conflict",
      `Operation cannot be fulfilled on ${qualifiedResource(info)} "${name}": ${
        detail ??
          "the object has been modified; please apply your changes to the latest version and try again"
      }`,
      { name, ...(info.group ? { group: info.group } : {}), kind: info.plural },
    ),
  );
}

/**
 * The 404 of a missing object.
 *
 * @example
 * ```ts ignore
 * throw notFound(info, "demo");
 * ```
 */
export function notFound(info: ResourceInfo, name: string): ApiFailure {
  return new ApiFailure(
    failure("NotFound", `${qualifiedResource(info)} "${name}" not found`, {
      name,
      ...(info.group ? { group: info.group } : {}),
      kind: info.plural,
    }),
  );
}

/**
 * The object stored at a target, or a 404.
 *
 * @example
 * ```ts ignore
 * const live = getStored(ctx, info, "default", "demo");
 * ```
 */
export function getStored(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
): KubeObject {
  const stored = ctx.storage.get(info.storageKey, storeKey(info, namespace, name));
  if (!stored) throw notFound(info, name);
  return stored.object;
}
