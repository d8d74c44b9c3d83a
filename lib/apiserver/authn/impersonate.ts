/**
 * Impersonation (`kubectl --as`, `--as-group`, `--as-uid`): the `Impersonate-*` headers turn
 * the requester into another user when RBAC lets the requester `impersonate` that user,
 * its groups, uid and extra values.
 *
 * @module
 */
import { failure, type Status } from "../../core/status.ts";
import type { Decision, RequestAttributes, UserInfo } from "../rbac/types.ts";
import { forbidden } from "../rbac/forbidden.ts";
import { parseServiceAccountUsername, serviceAccountGroups } from "./users.ts";

/** What the headers ask to become. */
export interface ImpersonationRequest {
  readonly user: string;
  readonly groups: readonly string[];
  readonly uid?: string;
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

/**
 * Reads the `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and
 * `Impersonate-Extra-<key>` headers: undefined when there are none, a 400 Status when groups,
 * uid or extra come without a user.
 *
 * @example
 * ```ts
 * import { impersonationRequest } from "./impersonate.ts";
 * const h = new Headers({ "impersonate-user": "alice", "impersonate-group": "dev" });
 * impersonationRequest(h); // { user: "alice", groups: ["dev"], extra: {} }
 * ```
 */
export function impersonationRequest(
  headers: Headers,
): ImpersonationRequest | Status | undefined {
  const user = headers.get("impersonate-user");
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const [name, value] of headers) {
    // Headers joins repeated values with ", "; a group name never contains that.
    if (name === "impersonate-group") groups.push(...value.split(", "));
    if (name.startsWith("impersonate-extra-")) {
      const key = decodeURIComponent(name.slice("impersonate-extra-".length));
      extra[key] = [...(extra[key] ?? []), ...value.split(", ")];
    }
  }
  const uid = headers.get("impersonate-uid") ?? undefined;
  if (user === null) {
    if (groups.length || uid !== undefined || Object.keys(extra).length) {
      return failure(
        "InternalError",
        `Internal error occurred: requested [${
          groups.map((g) => `{Group ${g}}`).join(" ")
        }] without impersonating a user`,
      );
    }
    return undefined;
  }
  return { user, groups, ...(uid !== undefined ? { uid } : {}), extra };
}

/**
 * The user a request acts as: the requester itself, or — after checking each part with
 * `decide` — the impersonated user (a ServiceAccount gets its groups when none are asked
 * for; everyone but `system:anonymous` gets `system:authenticated`). A refused part is the 403 Status naming it.
 *
 * @example
 * ```ts
 * import { impersonate } from "./impersonate.ts";
 * const admin = { name: "admin", groups: ["system:masters"] };
 * const r = impersonate(admin, { user: "system:serviceaccount:ns:op", groups: [], extra: {} }, () => ({ allowed: true, reason: "" }));
 * "name" in r && r.groups; // ["system:serviceaccounts", "system:serviceaccounts:ns", "system:authenticated"]
 * ```
 */
export function impersonate(
  requester: UserInfo,
  asked: ImpersonationRequest,
  decide: (attrs: RequestAttributes) => Decision,
): UserInfo | Status {
  const check = (
    resource: string,
    name: string,
    opts: { group?: string; namespace?: string; subresource?: string } = {},
  ): Status | undefined => {
    const attrs: RequestAttributes = {
      type: "resource",
      user: requester,
      verb: "impersonate",
      namespace: opts.namespace ?? "",
      apiGroup: opts.group ?? "",
      apiVersion: "",
      resource,
      subresource: opts.subresource ?? "",
      name,
    };
    const decision = decide(attrs);
    return decision.allowed ? undefined : forbidden(attrs, decision.reason);
  };
  const sa = parseServiceAccountUsername(asked.user);
  const denied =
    (sa
      ? check("serviceaccounts", sa.name, { namespace: sa.namespace })
      : check("users", asked.user)) ??
      asked.groups.map((g) => check("groups", g)).find((s) => s) ??
      (asked.uid !== undefined
        ? check("uids", asked.uid, { group: "authentication.k8s.io" })
        : undefined) ??
      Object.entries(asked.extra).flatMap(([k, vs]) =>
        vs.map((v) => check("userextras", v, { group: "authentication.k8s.io", subresource: k }))
      ).find((s) => s);
  if (denied) return denied;
  // As kube-apiserver: a ServiceAccount's own groups unless groups are asked for; then
  // system:authenticated (system:unauthenticated for the anonymous user) unless either is there.
  const groups = sa && asked.groups.length === 0
    ? serviceAccountGroups(sa.namespace)
    : [...asked.groups];
  const authenticated = groups.includes("system:authenticated") ||
    groups.includes("system:unauthenticated");
  if (!authenticated) {
    groups.push(
      asked.user === "system:anonymous" ? "system:unauthenticated" : "system:authenticated",
    );
  }
  return {
    name: asked.user,
    groups: [...new Set(groups)],
    ...(asked.uid !== undefined ? { uid: asked.uid } : {}),
    ...(Object.keys(asked.extra).length ? { extra: asked.extra } : {}),
  };
}
