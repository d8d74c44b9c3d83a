/**
 * The identities the embedded API server knows: the admin of the kubeconfig it writes, and
 * ServiceAccounts with kube-apiserver's usernames and groups.
 *
 * @module
 */
import type { UserInfo } from "../rbac/types.ts";
import { serviceAccountUsername } from "../rbac/applies_to.ts";

/** The issuer and audience of the tokens this server issues (kube-apiserver's default). */
export const API_AUDIENCE = "https://kubernetes.default.svc.cluster.local";

/** The admin: what the server's kubeconfig authenticates as; a `system:masters` member. */
export const ADMIN_USER: UserInfo = {
  name: "kubernetes-admin",
  groups: ["system:masters", "system:authenticated"],
};

/** The user of requests without credentials when the server requires a token. */
export const ANONYMOUS_USER: UserInfo = {
  name: "system:anonymous",
  groups: ["system:unauthenticated"],
};

/** The groups of every ServiceAccount of a namespace. */
export function serviceAccountGroups(namespace: string): string[] {
  return ["system:serviceaccounts", `system:serviceaccounts:${namespace}`];
}

/**
 * The user a ServiceAccount authenticates as.
 *
 * @example
 * ```ts
 * import { serviceAccountUser } from "./users.ts";
 * serviceAccountUser("ns", "op", "uid-1").groups;
 * // ["system:serviceaccounts", "system:serviceaccounts:ns", "system:authenticated"]
 * ```
 */
export function serviceAccountUser(
  namespace: string,
  name: string,
  uid: string,
  extra?: Readonly<Record<string, readonly string[]>>,
): UserInfo {
  return {
    name: serviceAccountUsername(namespace, name),
    uid,
    groups: [...serviceAccountGroups(namespace), "system:authenticated"],
    ...(extra ? { extra } : {}),
  };
}

/** The namespace and name of a ServiceAccount username, or undefined for other users. */
export function parseServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(username);
  return m ? { namespace: m[1], name: m[2] } : undefined;
}
