/**
 * `requestAttributes()`: what an HTTP request asks, in the authorizer's terms — kube-apiserver's
 * `RequestInfoFactory`, which reads the path, never the set of served resources.
 *
 * @module
 */
import type { RequestAttributes, UserInfo } from "./types.ts";

const verbs: Readonly<Record<string, string>> = {
  POST: "create",
  GET: "get",
  HEAD: "get",
  PUT: "update",
  PATCH: "patch",
  DELETE: "delete",
};

/** `metadata.name=<x>` (or `==`) in a field selector, as `RequiresExactMatch` finds it. */
function exactName(fieldSelector: string | null): string {
  for (const term of (fieldSelector ?? "").split(",")) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m && m[1] && !m[1].includes("/") && m[1] !== "." && m[1] !== "..") return m[1];
  }
  return "";
}

/**
 * The attributes of a request by `user`: resource requests under `/api/v1` and
 * `/apis/<group>/<version>` (GET without a name is `list` or `watch`, DELETE without one
 * `deletecollection`; a `metadata.name` field selector names the object), everything else a
 * non-resource request with the lower-cased method as its verb.
 *
 * @example
 * ```ts
 * import { requestAttributes } from "./request_attributes.ts";
 * const user = { name: "u", groups: [] };
 * const a = requestAttributes(user, "GET", new URL("http://x/api/v1/namespaces/ns/pods?watch=true"));
 * a.type === "resource" && [a.verb, a.namespace, a.resource]; // ["watch", "ns", "pods"]
 * ```
 */
export function requestAttributes(user: UserInfo, method: string, url: URL): RequestAttributes {
  const parts = url.pathname.split("/").filter((p) => p !== "").map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const nonResource = (): RequestAttributes => ({
    type: "nonResource",
    user,
    verb: method.toLowerCase(),
    path: url.pathname,
  });
  let apiGroup: string, apiVersion: string, rest: string[];
  if (parts[0] === "api" && parts.length >= 3) {
    [apiGroup, apiVersion, rest] = ["", parts[1], parts.slice(2)];
  } else if (parts[0] === "apis" && parts.length >= 4) {
    [apiGroup, apiVersion, rest] = [parts[1], parts[2], parts.slice(3)];
  } else return nonResource();
  let verb = verbs[method.toUpperCase()] ?? method.toLowerCase();
  let namespace = "";
  if (rest[0] === "namespaces" && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && rest[2] !== "status" && rest[2] !== "finalize") rest = rest.slice(2);
  }
  const resource = rest[0] ?? "";
  let name = rest[1] ?? "";
  const subresource = rest[2] ?? "";
  if (name === "" && verb === "get") {
    const watch = url.searchParams.get("watch");
    verb = watch === "true" || watch === "1" ? "watch" : "list";
    name = exactName(url.searchParams.get("fieldSelector"));
  }
  if (name === "" && verb === "delete") verb = "deletecollection";
  return {
    type: "resource",
    user,
    verb,
    namespace,
    apiGroup,
    apiVersion,
    resource,
    subresource,
    name,
  };
}
