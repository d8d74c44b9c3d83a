/**
 * `storePolicy()`: the RBAC objects of a server's storage as the authorizer's read view.
 *
 * @module
 */
import type { ServerContext } from "../context.ts";
import type { BindingObject, RbacPolicy, RoleObject } from "./types.ts";

const KEYS = {
  clusterRoles: "rbac.authorization.k8s.io/clusterroles",
  clusterRoleBindings: "rbac.authorization.k8s.io/clusterrolebindings",
  roles: "rbac.authorization.k8s.io/roles",
  roleBindings: "rbac.authorization.k8s.io/rolebindings",
} as const;

/**
 * Reads Roles, ClusterRoles and their bindings straight from storage (stored objects are
 * immutable, so nothing is copied).
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * import { storePolicy } from "./store_policy.ts";
 * const server = await startApiServer();
 * storePolicy(server.context).clusterRole("cluster-admin") !== undefined; // true
 * await server.close();
 * ```
 */
export function storePolicy(ctx: ServerContext): RbacPolicy {
  const objects = <T>(key: string, namespace?: string) =>
    ctx.storage.list(key, namespace).map((s) => s.object as unknown as T);
  return {
    clusterRoleBindings: () => objects<BindingObject>(KEYS.clusterRoleBindings),
    roleBindings: (ns) => objects<BindingObject>(KEYS.roleBindings, ns),
    clusterRole: (name) =>
      ctx.storage.get(KEYS.clusterRoles, name)?.object as unknown as RoleObject | undefined,
    role: (ns, name) =>
      ctx.storage.get(KEYS.roles, `${ns}/${name}`)?.object as unknown as RoleObject | undefined,
  };
}
