/**
 * `resolveEntry`: an Application's component entry joined with the Component and the traits
 * it names — or why it cannot be (a missing object, two traits of one kind, a port the
 * component does not have). Pure.
 *
 * @module
 */
import {
  type appsv1,
  type autoscalingv2,
  type corev1,
  type DeepReadonly,
  E,
  type Either,
  type networkingv1,
  objectKey,
  type World,
} from "../../mod.ts";
import type {
  Application,
  Component,
  ExposeTrait,
  MonitoringTrait,
  ScalingTrait,
} from "./types.ts";

/** What the Application reconciler reads from the cache. */
export interface OamWorld {
  /** The developers' Components. */
  readonly components: World<Component>;
  /** The operators' ScalingTraits. */
  readonly scalingTraits: World<ScalingTrait>;
  /** The operators' ExposeTraits. */
  readonly exposeTraits: World<ExposeTrait>;
  /** The operators' MonitoringTraits. */
  readonly monitoringTraits: World<MonitoringTrait>;
  /** Deployments (rendered; `ownedBy` the Application). */
  readonly deployments: World<appsv1.Deployment>;
  /** Services (rendered). */
  readonly services: World<corev1.Service>;
  /** Ingresses (rendered). */
  readonly ingresses: World<networkingv1.Ingress>;
  /** HorizontalPodAutoscalers (rendered). */
  readonly autoscalers: World<autoscalingv2.HorizontalPodAutoscaler>;
}

/** One entry of `Application.spec.components`. */
export type ComponentEntry = DeepReadonly<Application["spec"]["components"][number]>;

/** An entry with everything it names. */
export interface ResolvedEntry {
  /** The entry of `spec.components`. */
  readonly entry: ComponentEntry;
  /** The Component it names. */
  readonly component: DeepReadonly<Component>;
  /** Its ScalingTrait, if attached. */
  readonly scaling?: DeepReadonly<ScalingTrait>;
  /** Its ExposeTrait, if attached. */
  readonly expose?: DeepReadonly<ExposeTrait>;
  /** Its MonitoringTrait, if attached. */
  readonly monitoring?: DeepReadonly<MonitoringTrait>;
  /** The port Services, Ingress and scraping use by default: the component's first. */
  readonly firstPort?: number;
}

/**
 * Resolves one entry in the Application's namespace.
 *
 * @returns the entry with its Component and traits, or a message naming the missing object
 *   or the conflict (`Left`)
 *
 * @example
 * ```ts ignore
 * resolveEntry("default", { name: "web", componentName: "web" }, world);
 * // left("Component default/web not found")
 * ```
 */
export function resolveEntry(
  namespace: string | undefined,
  entry: ComponentEntry,
  world: OamWorld,
): Either<string, ResolvedEntry> {
  const component = world.components.get(objectKey(namespace, entry.componentName));
  if (!component) return E.left(`Component ${objectKey(namespace, entry.componentName)} not found`);
  const ports = (component.spec?.workload?.ports ?? []).map((p) => p.containerPort);
  const traits: {
    ScalingTrait?: DeepReadonly<ScalingTrait>;
    ExposeTrait?: DeepReadonly<ExposeTrait>;
    MonitoringTrait?: DeepReadonly<MonitoringTrait>;
  } = {};
  for (const ref of entry.traits ?? []) {
    const key = objectKey(namespace, ref.name);
    if (traits[ref.kind]) return E.left(`more than one ${ref.kind} (one of each kind at most)`);
    const trait = ref.kind === "ScalingTrait"
      ? (traits.ScalingTrait = world.scalingTraits.get(key))
      : ref.kind === "ExposeTrait"
      ? (traits.ExposeTrait = world.exposeTraits.get(key))
      : (traits.MonitoringTrait = world.monitoringTraits.get(key));
    if (!trait) return E.left(`${ref.kind} ${key} not found`);
    const port = "port" in trait.spec ? trait.spec.port : undefined;
    if (ref.kind === "ScalingTrait") continue;
    if (port !== undefined ? !ports.includes(port) : ports.length === 0) {
      const which = port !== undefined ? `port ${port}` : "a port";
      return E.left(`${ref.kind} ${ref.name} needs ${which} of Component ${entry.componentName}`);
    }
  }
  return E.right({
    entry,
    component,
    ...(traits.ScalingTrait ? { scaling: traits.ScalingTrait } : {}),
    ...(traits.ExposeTrait ? { expose: traits.ExposeTrait } : {}),
    ...(traits.MonitoringTrait ? { monitoring: traits.MonitoringTrait } : {}),
    ...(ports.length ? { firstPort: ports[0] } : {}),
  });
}
