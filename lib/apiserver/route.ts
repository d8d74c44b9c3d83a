/**
 * Resolves a resource URL path to the resource, namespace, name and subresource it names.
 *
 * @module
 */
import type { ResourceInfo } from "./resource_info.ts";
import type { ResourceRegistry } from "./registry.ts";

/** What a resource path addresses. */
export type Target =
  | {
    readonly type: "collection";
    readonly info: ResourceInfo;
    /** Undefined for cluster-scoped resources and all-namespaces requests. */
    readonly namespace?: string;
  }
  | {
    readonly type: "object";
    readonly info: ResourceInfo;
    readonly namespace?: string;
    readonly name: string;
    readonly subresource?: string;
  };

/**
 * Resolves `/api/v1/...` or `/apis/<g>/<v>/...`; undefined when nothing is served there.
 *
 * @example
 * ```ts
 * import { resolveTarget } from "./route.ts";
 * import { ResourceRegistry } from "./registry.ts";
 * const t = resolveTarget(new ResourceRegistry(), "/api/v1/namespaces/default/pods/web");
 * t?.type; // "object"
 * ```
 */
export function resolveTarget(registry: ResourceRegistry, path: string): Target | undefined {
  const parts = path.split("/").filter((p) => p !== "").map(decodeURIComponent);
  let group: string, version: string, rest: string[];
  if (parts[0] === "api" && parts.length >= 3) {
    [group, version, rest] = ["", parts[1], parts.slice(2)];
  } else if (parts[0] === "apis" && parts.length >= 4) {
    [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  } else return undefined;

  if (rest[0] === "namespaces" && rest.length >= 3) {
    const nested = registry.lookup(group, version, rest[2]);
    if (nested?.namespaced) return build(nested, rest[1], rest.slice(3));
    if (rest.length > 3 || nested) return undefined;
  }
  const info = registry.lookup(group, version, rest[0]);
  if (!info) return undefined;
  return build(info, undefined, rest.slice(1));
}

function build(info: ResourceInfo, namespace: string | undefined, rest: string[]) {
  if (rest.length === 0) return { type: "collection" as const, info, namespace };
  if (rest.length > 2) return undefined;
  if (info.namespaced && namespace === undefined) return undefined;
  return {
    type: "object" as const,
    info,
    namespace,
    name: rest[0],
    subresource: rest[1],
  };
}
