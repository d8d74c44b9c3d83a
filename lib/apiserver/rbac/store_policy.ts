/**
 * `storePolicy()`: the RBAC objects of a server's storage as the authorizer's read view.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import type { BindingObject, RbacPolicy, RoleObject } from "./types.ts";

const KEYS = {
  clusterRoles: "rbac.authorization.k8s.io/clusterroles",
  clusterRoleBindings: "rbac.authorization.k8s.io/clusterrolebindings",
  roles: "rbac.authorization.k8s.io/roles",
  roleBindings: "rbac.authorization.k8s.io/rolebindings",
} as const;

const optionalArray = (v: unknown) => v === undefined || v === null || Array.isArray(v);

function named(o: unknown): o is Record<string, unknown> & { metadata: { name: string } } {
  return isPlainObject(o) && isPlainObject(o.metadata) && typeof o.metadata.name === "string";
}

/** Whether a stored object is a Role or ClusterRole (shallow: the server validated it). */
function isRole(o: KubeObject | undefined): o is KubeObject & RoleObject {
  return named(o) && optionalArray(o.rules);
}

/** Whether a stored object is a RoleBinding or ClusterRoleBinding (shallow, as {@link isRole}). */
function isBinding(o: KubeObject): o is KubeObject & BindingObject {
  return named(o) && isPlainObject(o.roleRef) && typeof o.roleRef.kind === "string" &&
    typeof o.roleRef.name === "string" && optionalArray(o.subjects);
}

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
  const bindings = (key: string, namespace?: string) => {
    const out: BindingObject[] = [];
    for (const { object } of ctx.storage.list(key, namespace)) {
      if (isBinding(object)) out.push(object);
    }
    return out;
  };
  const role = (key: string, name: string) => {
    const o = ctx.storage.get(key, name)?.object;
    return isRole(o) ? o : undefined;
  };
  return {
    clusterRoleBindings: () => bindings(KEYS.clusterRoleBindings),
    roleBindings: (ns) => bindings(KEYS.roleBindings, ns),
    clusterRole: (name) => role(KEYS.clusterRoles, name),
    role: (ns, name) => role(KEYS.roles, `${ns}/${name}`),
  };
}
