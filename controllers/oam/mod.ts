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
  controller,
  type ControllerSpec,
  type HasMetadata,
  type Kind,
  type KubeObject,
  objectKey,
  type StoreReader,
  type World,
  worldFromStore,
} from "../../mod.ts";
import { type OamWorld, reconcileApplication } from "./reconcile.ts";
import { type Application, OAM_API_VERSION, type TraitKind } from "./types.ts";

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

const oam = (kind: string): Kind => ({ apiVersion: OAM_API_VERSION, kind });
const kinds = {
  applications: oam("Application"),
  components: oam("Component"),
  ScalingTrait: oam("ScalingTrait"),
  ExposeTrait: oam("ExposeTrait"),
  MonitoringTrait: oam("MonitoringTrait"),
  deployments: { apiVersion: "apps/v1", kind: "Deployment" },
  services: { apiVersion: "v1", kind: "Service" },
  ingresses: { apiVersion: "networking.k8s.io/v1", kind: "Ingress" },
  autoscalers: { apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler" },
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
  let apps: StoreReader<KubeObject> | undefined;
  // The Applications in the object's namespace that name it (as component or as trait).
  const naming =
    (field: "component" | TraitKind) => (o: { metadata?: { namespace?: string; name?: string } }) =>
      (apps?.list() ?? []).flatMap((a) => {
        const app = a as unknown as Application;
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
      { resource: kinds.components, keys: naming("component") },
      { resource: kinds.ScalingTrait, keys: naming("ScalingTrait") },
      { resource: kinds.ExposeTrait, keys: naming("ExposeTrait") },
      { resource: kinds.MonitoringTrait, keys: naming("MonitoringTrait") },
    ],
    world: (cache) => {
      apps = cache.store(kinds.applications);
      const w = <T>(k: Kind) => worldFromStore(cache.store(k)) as unknown as World<T>;
      return {
        components: w(kinds.components),
        scalingTraits: w(kinds.ScalingTrait),
        exposeTraits: w(kinds.ExposeTrait),
        monitoringTraits: w(kinds.MonitoringTrait),
        deployments: w(kinds.deployments),
        services: w(kinds.services),
        ingresses: w(kinds.ingresses),
        autoscalers: w(kinds.autoscalers),
      };
    },
    reconcile: (app, world, ctx) => reconcileApplication(app, world, ctx),
  });
}
