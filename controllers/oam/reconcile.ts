/**
 * `reconcileApplication`: the pure OAM composer. An Application joins developers' Components
 * with operators' traits; its reconciler renders them into Deployments, Services, Ingresses and
 * HorizontalPodAutoscalers owned by the Application — which the workload controllers take on
 * from there (Deployment -> ReplicaSet -> Pod) — and reports each component's health.
 *
 * ## Guarantees
 * - The rendered children are the complete desired set: drift is applied back; children the
 *   Application no longer asks for (a removed component, a detached trait, ports gone) are
 *   deleted, and fields it no longer renders (a detached MonitoringTrait's pod annotations)
 *   are removed by the next apply, read from the children's managed fields under
 *   `ctx.fieldManager` (see `planChildren`). Objects the Application does not control are
 *   never touched.
 * - A component entry whose Component or trait cannot be resolved keeps its existing children
 *   untouched (a reference that is briefly missing never tears a running workload down) and
 *   reports why; the other components go on.
 * - Status: one entry per component (healthy, replicas, ready, message, endpoint, traits
 *   applied), phase `Running` when all are healthy, `Degraded` when a reference does not
 *   resolve or a name is taken, else `Rendering`; conditions `Ready` and `Resolved`.
 *
 * @module
 */
import {
  deepEqual,
  type DeepReadonly,
  E,
  type Either,
  type KubeObject,
  objectKey,
  type Plan,
  planChildren,
  type ReconcileContext,
  type ReconcileError,
  setCondition,
  statusOp,
  terminal,
} from "../../mod.ts";
import { componentHealth } from "./component_health.ts";
import { COMPONENT_LABEL, renderEntry, workloadName } from "./render.ts";
import { type OamWorld, resolveEntry } from "./resolve.ts";
import { type Application, type ApplicationStatus, OAM_API_VERSION } from "./types.ts";

export type { OamWorld } from "./resolve.ts";

type Obj = DeepReadonly<KubeObject>;

/**
 * Reconciles one Application. See the module doc for the guarantees.
 *
 * @example
 * ```ts
 * import { reconcileApplication } from "./reconcile.ts";
 * import { worldFromObjects } from "../../mod.ts";
 * const none = worldFromObjects([]);
 * const plan = reconcileApplication({
 *   apiVersion: "core.oam.kubefold.dev/v1alpha1", kind: "Application",
 *   metadata: { namespace: "d", name: "shop", uid: "u1" },
 *   spec: { components: [{ name: "web", componentName: "web" }] },
 * }, { components: worldFromObjects([{ metadata: { namespace: "d", name: "web" },
 *   spec: { workload: { image: "nginx" } } }]), scalingTraits: none, exposeTraits: none,
 *   monitoringTraits: none, deployments: none, services: none, ingresses: none, autoscalers: none } as never,
 *   { now: 0 });
 * // right({ ops: [create Deployment d/shop-web, status] })
 * ```
 */
export function reconcileApplication(
  app: DeepReadonly<Application>,
  world: OamWorld,
  ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const uid = app.metadata?.uid;
  const name = app.metadata?.name ?? "";
  const ns = app.metadata?.namespace;
  if (!uid) {
    return E.left(terminal(`Cannot reconcile Application ${objectKey(ns, name)}: no metadata.uid`));
  }
  const entries = app.spec?.components ?? [];
  const resolved = entries.map((e) => resolveEntry(ns, e, world));
  const desired: Obj[] = resolved.flatMap((r) =>
    E.isRight(r) ? renderEntry(name, ns ?? "", r.right) : []
  );
  // Children of entries that do not resolve are kept as they are.
  const kept = new Set(entries.filter((_, i) => E.isLeft(resolved[i])).map((e) => e.name));
  const children = [world.deployments, world.services, world.ingresses, world.autoscalers];
  const owned = children.flatMap((w): readonly Obj[] => w.ownedBy(uid))
    .filter((o) => !kept.has(o.metadata?.labels?.[COMPONENT_LABEL] ?? ""));
  // Desired names held by someone else must be seen to be reported.
  const held = desired.flatMap((d) => {
    const w = d.kind === "Deployment"
      ? world.deployments
      : d.kind === "Service"
      ? world.services
      : d.kind === "Ingress"
      ? world.ingresses
      : world.autoscalers;
    const o: Obj | undefined = w.get(objectKey(ns, d.metadata?.name ?? ""));
    return o && !owned.includes(o) ? [o] : [];
  });
  const planned = planChildren(desired, [...owned, ...held], {
    ownerUid: uid,
    fieldManager: ctx.fieldManager,
  });
  const components = entries.map((entry, i) => {
    const prefix = `${objectKey(ns, workloadName(name, entry.name))}`;
    return componentHealth({
      app: name,
      ...(ns ? { namespace: ns } : {}),
      uid,
      entry,
      resolved: resolved[i],
      conflicts: planned.conflicts.filter((c) => c === prefix),
    }, world);
  });
  const unresolved = resolved.flatMap((r) => E.isLeft(r) ? [r.left] : []);
  const gen = app.metadata?.generation;
  const observedGeneration = gen === undefined ? {} : { observedGeneration: gen };
  const healthy = components.filter((c) => c.healthy).length;
  const degraded = unresolved.length > 0 || planned.conflicts.length > 0;
  let conditions = setCondition(app.status?.conditions ?? [], {
    type: "Resolved",
    status: unresolved.length ? "False" : "True",
    reason: unresolved.length ? "ReferenceNotFound" : "AllResolved",
    message: unresolved.join("; "),
    ...observedGeneration,
  }, ctx.now);
  conditions = setCondition(conditions, {
    type: "Ready",
    status: healthy === components.length ? "True" : "False",
    reason: healthy === components.length ? "AllComponentsHealthy" : "ComponentsNotHealthy",
    message: `${healthy} of ${components.length} components healthy`,
    ...observedGeneration,
  }, ctx.now);
  const status: ApplicationStatus = {
    phase: degraded ? "Degraded" : healthy === components.length ? "Running" : "Rendering",
    components,
    ...observedGeneration,
    conditions,
  };
  const ops = [...planned.ops];
  if (!deepEqual(status, app.status)) {
    const self = { ...app, apiVersion: OAM_API_VERSION, kind: "Application" };
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
