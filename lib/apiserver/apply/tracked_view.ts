/**
 * `trackedView`: the part of an object whose fields are owned: without `apiVersion`, `kind`,
 * the identity and server-set metadata, and limited to the fields the endpoint may write.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";

/** Metadata fields that are never owned. */
export const untrackedMetadata: readonly string[] = [
  "name",
  "namespace",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "managedFields",
  "selfLink",
];

/**
 * Which top-level fields a write may own: `all`; `exceptStatus` (the main endpoint of a kind
 * with a status subresource); `statusOnly` (the status subresource).
 */
export type WriteScope = "all" | "exceptStatus" | "statusOnly";

/**
 * The write scope of a request.
 *
 * @example
 * ```ts
 * import { writeScope } from "./tracked_view.ts";
 * writeScope({ subresource: "status" }); // "statusOnly"
 * writeScope({ hasStatusSubresource: true }); // "exceptStatus"
 * ```
 */
export function writeScope(
  opts: { readonly subresource?: string; readonly hasStatusSubresource?: boolean },
): WriteScope {
  if (opts.subresource === "status") return "statusOnly";
  return opts.hasStatusSubresource ? "exceptStatus" : "all";
}

/**
 * The owned part of an object (a shallow copy; nested values are shared).
 *
 * @example
 * ```ts
 * import { trackedView } from "./tracked_view.ts";
 * trackedView({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", labels: { x: "1" } } }, "all");
 * // { metadata: { labels: { x: "1" } } }
 * ```
 */
export function trackedView(
  obj: Readonly<Record<string, unknown>>,
  scope: WriteScope,
): Record<string, unknown> {
  if (scope === "statusOnly") return obj.status === undefined ? {} : { status: obj.status };
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj as Record<string, unknown>;
  if (scope === "exceptStatus") delete rest.status;
  if (isPlainObject(metadata)) {
    const meta: Record<string, unknown> = { ...metadata };
    for (const k of untrackedMetadata) delete meta[k];
    if (Object.keys(meta).length > 0) return { metadata: meta, ...rest };
  } else if (metadata !== undefined) return { metadata, ...rest };
  return rest;
}
