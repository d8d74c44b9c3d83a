/**
 * `forbidden()`: kube-apiserver's 403 Status for a denied request, worded exactly as
 * `responsewriters.ForbiddenStatusError` words it.
 *
 * @module
 */
import { failure, type Status } from "../../core/status.ts";
import type { RequestAttributes } from "./types.ts";

/**
 * `User "u" cannot list resource "pods" in API group "" in the namespace "ns"` (or `at the
 * cluster scope`, or `cannot get path "/x"` for non-resource requests).
 */
export function forbiddenMessage(attrs: RequestAttributes): string {
  const user = attrs.user.name;
  if (attrs.type === "nonResource") {
    return `User "${user}" cannot ${attrs.verb} path "${attrs.path}"`;
  }
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const scope = attrs.namespace ? `in the namespace "${attrs.namespace}"` : "at the cluster scope";
  return `User "${user}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" ${scope}`;
}

/**
 * The 403 Forbidden Status: `pods is forbidden: User ...`, `pods "web" is forbidden: ...`, or
 * `forbidden: User ... cannot get path ...`; a non-empty authorizer reason is appended.
 *
 * @example
 * ```ts
 * import { forbidden } from "./forbidden.ts";
 * forbidden({ type: "resource", user: { name: "system:serviceaccount:ns:sa", groups: [] }, verb: "list",
 *   namespace: "ns", apiGroup: "", apiVersion: "v1", resource: "pods", subresource: "", name: "" }, "").message;
 * // 'pods is forbidden: User "system:serviceaccount:ns:sa" cannot list resource "pods" in API group "" in the namespace "ns"'
 * ```
 */
export function forbidden(attrs: RequestAttributes, reason: string): Status {
  const detail = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
  if (attrs.type === "nonResource") return failure("Forbidden", `forbidden: ${detail}`, {});
  const qualified = attrs.apiGroup ? `${attrs.resource}.${attrs.apiGroup}` : attrs.resource;
  const message = attrs.name
    ? `${qualified} "${attrs.name}" is forbidden: ${detail}`
    : `${qualified} is forbidden: ${detail}`;
  return failure("Forbidden", message, {
    ...(attrs.name ? { name: attrs.name } : {}),
    ...(attrs.apiGroup ? { group: attrs.apiGroup } : {}),
    kind: attrs.resource,
  });
}
