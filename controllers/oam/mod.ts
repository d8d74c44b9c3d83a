/**
 * The Open Application Model composer: developers describe Components, operators attach
 * traits (scaling, exposure, monitoring), and an Application joins them; its controller
 * renders Deployments, Services, Ingresses and HorizontalPodAutoscalers — controllers layered
 * on controllers (Application -> Deployment -> ReplicaSet -> Pod).
 *
 * @example
 * ```ts ignore
 * import { applicationController, oamCrds } from "./mod.ts";
 * import { startCluster } from "../workloads/mod.ts";
 * const cluster = await startCluster({ crds: oamCrds, controllers: [applicationController()] });
 * ```
 *
 * @module
 */
import {
  type appsv1,
  type autoscalingv2,
  controller,
  type ControllerSpec,
  type corev1,
  type HasMetadata,
  kind,
  type networkingv1,
  objectKey,
  type StoreReader,
  watch,
} from "../../mod.ts";
import { type OamWorld, reconcileApplication } from "./reconcile.ts";
import {
  type Application,
  type Component,
  type ExposeTrait,
  type MonitoringTrait,
  OAM_API_VERSION,
  type ScalingTrait,
  type TraitKind,
} from "./types.ts";

export { oamCrds } from "./crds.ts";
export { reconcileApplication } from "./reconcile.ts";
export { type ComponentEntry, type OamWorld, type ResolvedEntry, resolveEntry } from "./resolve.ts";
export {
  APP_LABEL,
  COMPONENT_LABEL,
  renderEntry,
  scrapeAnnotations,
  workloadName,
} from "./render.ts";
export { componentHealth, type HealthInput } from "./component_health.ts";
export * from "./types.ts";

const oam = <T extends HasMetadata>(name: string) => kind<T>(OAM_API_VERSION, name);
const kinds = {
  applications: oam<Application & HasMetadata>("Application"),
  components: oam<Component & HasMetadata>("Component"),
  ScalingTrait: oam<ScalingTrait & HasMetadata>("ScalingTrait"),
  ExposeTrait: oam<ExposeTrait & HasMetadata>("ExposeTrait"),
  MonitoringTrait: oam<MonitoringTrait & HasMetadata>("MonitoringTrait"),
  deployments: kind<appsv1.Deployment>("apps/v1", "Deployment"),
  services: kind<corev1.Service>("v1", "Service"),
  ingresses: kind<networkingv1.Ingress>("networking.k8s.io/v1", "Ingress"),
  autoscalers: kind<autoscalingv2.HorizontalPodAutoscaler>(
    "autoscaling/v2",
    "HorizontalPodAutoscaler",
  ),
} as const;

/**
 * The Application controller spec: Applications are primary; Deployments, Services,
 * Ingresses and HorizontalPodAutoscalers are owned; a Component or trait wakes the
 * Applications that name it.
 *
 * Its `writes` (status of Applications; create, apply and delete of the four rendered kinds)
 * and its reads give `kubefold manifests` the least-privilege RBAC: Components and traits are
 * only read.
 *
 * @example
 * ```ts
 * import { applicationController } from "./mod.ts";
 * applicationController().owns?.map((k) => k.kind);
 * // ["Deployment", "Service", "Ingress", "HorizontalPodAutoscaler"]
 * ```
 */
export function applicationController(): ControllerSpec<Application & HasMetadata, OamWorld> {
  let apps: StoreReader<Application & HasMetadata> | undefined;
  // The Applications in the object's namespace that name it (as component or as trait).
  const naming =
    (field: "component" | TraitKind) => (o: { metadata?: { namespace?: string; name?: string } }) =>
      (apps?.list() ?? []).flatMap((app) => {
        if (app.metadata?.namespace !== o.metadata?.namespace) return [];
        const hit = (app.spec?.components ?? []).some((c) =>
          field === "component"
            ? c.componentName === o.metadata?.name
            : (c.traits ?? []).some((t) => t.kind === field && t.name === o.metadata?.name)
        );
        return hit ? [objectKey(app.metadata?.namespace, app.metadata?.name ?? "")] : [];
      });
  return controller<Application & HasMetadata, OamWorld>({
    name: "oam-application",
    for: kinds.applications,
    owns: [kinds.deployments, kinds.services, kinds.ingresses, kinds.autoscalers],
    writes: [
      { resource: kinds.applications, ops: ["status"] },
      { resource: kinds.deployments, ops: ["create", "apply", "delete"] },
      { resource: kinds.services, ops: ["create", "apply", "delete"] },
      { resource: kinds.ingresses, ops: ["create", "apply", "delete"] },
      { resource: kinds.autoscalers, ops: ["create", "apply", "delete"] },
    ],
    watches: [
      watch(kinds.components, naming("component")),
      watch(kinds.ScalingTrait, naming("ScalingTrait")),
      watch(kinds.ExposeTrait, naming("ExposeTrait")),
      watch(kinds.MonitoringTrait, naming("MonitoringTrait")),
    ],
    world: (cache) => {
      apps = cache.store(kinds.applications);
      return {
        components: cache.world(kinds.components),
        scalingTraits: cache.world(kinds.ScalingTrait),
        exposeTraits: cache.world(kinds.ExposeTrait),
        monitoringTraits: cache.world(kinds.MonitoringTrait),
        deployments: cache.world(kinds.deployments),
        services: cache.world(kinds.services),
        ingresses: cache.world(kinds.ingresses),
        autoscalers: cache.world(kinds.autoscalers),
      };
    },
    reconcile: (app, world, ctx) => reconcileApplication(app, world, ctx),
  });
}
