/**
 * `ApiResource`: a resolved API resource (group, version, plural, scope, kind) and its URLs.
 *
 * @module
 */
import type { RequestTarget } from "./api_error.ts";

/**
 * A resource as discovery describes it.
 *
 * @example
 * ```ts
 * import type { ApiResource } from "../../mod.ts";
 * const pods: ApiResource = { group: "", version: "v1", plural: "pods", kind: "Pod", namespaced: true };
 * ```
 */
export interface ApiResource {
  /** API group; `""` for the core group. */
  readonly group: string;
  /** API version, e.g. `v1`. */
  readonly version: string;
  /** Plural resource name in URLs, e.g. `deployments`. */
  readonly plural: string;
  /** The kind of its objects, e.g. `Deployment`. */
  readonly kind: string;
  /** Whether its objects live in namespaces. */
  readonly namespaced: boolean;
}

/** Where a request goes inside a resource: namespace, object name and subresource. */
export interface PathOptions {
  /** The namespace (ignored for cluster-scoped resources). */
  readonly namespace?: string;
  /** The object's name (absent: the collection). */
  readonly name?: string;
  /** A subresource of the object, e.g. `status` or `scale`. */
  readonly subresource?: string;
}

/**
 * The `apiVersion` of a resource: `v1` or `<group>/<version>`.
 *
 * @example
 * ```ts
 * import { apiVersionOf } from "../../mod.ts";
 * apiVersionOf({ group: "apps", version: "v1" }); // "apps/v1"
 * ```
 */
export function apiVersionOf(ref: Pick<ApiResource, "group" | "version">): string {
  return ref.group ? `${ref.group}/${ref.version}` : ref.version;
}

/**
 * The URL path of a collection, an object or a subresource. A namespaced resource without a
 * namespace addresses all namespaces (list and watch only).
 *
 * Like client-go's `Request.Namespace().Resource().Name().SubResource()` chain, but one pure
 * function; names are URL-encoded.
 *
 * @example
 * ```ts
 * import { resourcePath } from "../../mod.ts";
 * const pods = { group: "", version: "v1", plural: "pods", kind: "Pod", namespaced: true };
 * resourcePath(pods, { namespace: "default", name: "web", subresource: "status" });
 * // "/api/v1/namespaces/default/pods/web/status"
 * ```
 */
export function resourcePath(ref: ApiResource, options: PathOptions = {}): string {
  const root = ref.group ? `/apis/${ref.group}/${ref.version}` : `/api/${ref.version}`;
  const ns = ref.namespaced && options.namespace
    ? `/namespaces/${encodeURIComponent(options.namespace)}`
    : "";
  const name = options.name !== undefined ? `/${encodeURIComponent(options.name)}` : "";
  const sub = options.subresource && options.name !== undefined ? `/${options.subresource}` : "";
  return `${root}${ns}/${ref.plural}${name}${sub}`;
}

/**
 * The {@link RequestTarget} for messages: `deployments.apps`, namespace, name.
 *
 * @example
 * ```ts
 * import { requestTargetOf } from "./api_resource.ts";
 * const deploy = { group: "apps", version: "v1", plural: "deployments", kind: "Deployment", namespaced: true };
 * requestTargetOf(deploy, { namespace: "a", name: "web" }).resource; // "deployments.apps"
 * ```
 */
export function requestTargetOf(ref: ApiResource, options: PathOptions = {}): RequestTarget {
  return {
    resource: ref.group ? `${ref.plural}.${ref.group}` : ref.plural,
    ...(ref.namespaced && options.namespace ? { namespace: options.namespace } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
  };
}
