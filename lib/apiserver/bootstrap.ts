/**
 * The objects kube-apiserver's post-start hooks create on a fresh cluster: the system
 * namespaces, the system PriorityClasses and the RBAC bootstrap policy. Existing (restored)
 * objects are left alone.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ServerContext } from "./context.ts";
import { createObject } from "./object_write.ts";
import { bootstrapPolicy } from "./rbac/bootstrap_policy.ts";

/** The namespaces every cluster starts with. */
export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

/** The PriorityClasses the scheduling post-start hook creates. */
export const SYSTEM_PRIORITY_CLASSES: readonly KubeObject[] = [
  [
    "system-node-critical",
    2000001000,
    "Used for system critical pods that must not be moved from their current node.",
  ],
  [
    "system-cluster-critical",
    2000000000,
    "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
  ],
].map(([name, value, description]) => ({
  apiVersion: "scheduling.k8s.io/v1",
  kind: "PriorityClass",
  metadata: { name: name as string },
  value,
  description,
}));

/** The bootstrap objects, by group/version/plural of the resource they belong to. */
function bootstrapObjects(): [string, string, string, KubeObject][] {
  return [
    ...SYSTEM_NAMESPACES.map((name): [string, string, string, KubeObject] => [
      "",
      "v1",
      "namespaces",
      { apiVersion: "v1", kind: "Namespace", metadata: { name } },
    ]),
    ...SYSTEM_PRIORITY_CLASSES.map((o): [string, string, string, KubeObject] => [
      "scheduling.k8s.io",
      "v1",
      "priorityclasses",
      o,
    ]),
    ...bootstrapPolicy().map((o): [string, string, string, KubeObject] => [
      "rbac.authorization.k8s.io",
      "v1",
      o.kind === "ClusterRole" ? "clusterroles" : "clusterrolebindings",
      o,
    ]),
  ];
}

/**
 * Creates the bootstrap objects that do not exist yet.
 *
 * @example
 * ```ts
 * import { startApiServer } from "./server.ts";
 * const server = await startApiServer(); // runs createBootstrapObjects
 * server.context.storage.get("scheduling.k8s.io/priorityclasses", "system-node-critical") !== undefined; // true
 * await server.close();
 * ```
 */
export function createBootstrapObjects(ctx: ServerContext): void {
  for (const [group, version, plural, obj] of bootstrapObjects()) {
    const info = ctx.registry.lookup(group, version, plural)!;
    const name = obj.metadata!.name!;
    const key = info.namespaced ? `${obj.metadata?.namespace}/${name}` : name;
    if (ctx.storage.get(info.storageKey, key)) continue;
    createObject(ctx, info, obj.metadata?.namespace, obj, { fieldManager: "kube-apiserver" });
  }
}
