/**
 * The in-server ClusterRole aggregation: every ClusterRole with an `aggregationRule` carries
 * the rules of the ClusterRoles its selectors match, kept up to date as they change.
 *
 * @module
 */
import { deepEqual } from "../../core/deep_equal.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import { aggregateRules } from "../rbac/aggregate_rules.ts";

/**
 * Starts the aggregation on a server context; returns the function that stops it.
 *
 * Like kube-controller-manager's clusterrole-aggregation controller, but synchronous: rules
 * are recomputed in a microtask after any ClusterRole changes.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer();
 * await new Promise((r) => setTimeout(r, 0));
 * const admin = server.context.storage.get("rbac.authorization.k8s.io/clusterroles", "admin")?.object;
 * Array.isArray(admin?.rules); // true
 * await server.close();
 * ```
 */
export function installClusterRoleAggregation(ctx: ServerContext): () => void {
  const info = ctx.registry.lookup("rbac.authorization.k8s.io", "v1", "clusterroles")!;
  let scheduled = false, closed = false;

  function sync(): void {
    scheduled = false;
    if (closed) return;
    const all = ctx.storage.list(info.storageKey).map((s) => s.object);
    for (const role of all) {
      const rules = aggregateRules(role, all);
      if (!rules || deepEqual(role.rules ?? [], rules)) continue;
      try {
        updateObject(ctx, info, undefined, role.metadata!.name!, { ...role, rules }, {
          unconditional: true,
          fieldManager: "clusterrole-aggregation-controller",
        });
      } catch { /* changed meanwhile: its event schedules another sync */ }
    }
  }

  const schedule = () => {
    if (scheduled || closed) return;
    scheduled = true;
    queueMicrotask(sync);
  };
  const unsubscribe = ctx.storage.hub.subscribeAll({
    deliver: (e) => {
      if (e.storageKey === info.storageKey) schedule();
    },
  });
  sync();
  return () => {
    closed = true;
    unsubscribe();
  };
}
