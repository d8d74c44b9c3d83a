/**
 * The Open Application Model kinds (`core.oam.kubefold.dev/v1alpha1`, in the style of
 * `core.oam.dev`), one per role: a developer's `Component` (a workload), an operator's traits
 * (`ScalingTrait`, `ExposeTrait`, `MonitoringTrait`), and the `Application` that joins them.
 * Schemas defined once with the schema builder; the types are derived from them.
 *
 * @module
 */
import { type Infer, type ObjectMeta, type Schema, t } from "../../mod.ts";

/** API group of the OAM kinds. */
export const OAM_GROUP = "core.oam.kubefold.dev";
/** API version of the OAM kinds. */
export const OAM_VERSION = "v1alpha1";
/** `apiVersion` of the OAM kinds. */
export const OAM_API_VERSION = `${OAM_GROUP}/${OAM_VERSION}`;
/** The trait kinds an Application may attach. */
export const TRAIT_KINDS = ["ScalingTrait", "ExposeTrait", "MonitoringTrait"] as const;
/** One of {@link TRAIT_KINDS}. */
export type TraitKind = typeof TRAIT_KINDS[number];

const NAME = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
const QUANTITY = "^[0-9]+(\\.[0-9]+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$";
const port = (description: string) =>
  t.optional(t.integer({ minimum: 1, maximum: 65535, description }));
const resourceList = t.optional(t.object({
  cpu: t.optional(t.string({ pattern: QUANTITY })),
  memory: t.optional(t.string({ pattern: QUANTITY })),
}));
const whole = <S extends Schema<unknown>>(spec: S, description: string) =>
  t.resource({
    spec,
  }, { description });

/** Schema of `Component.spec`: the workload a developer describes. */
export const componentSpecSchema = t.object({
  workload: t.object({
    image: t.string({ minLength: 1, description: "The container image." }),
    command: t.optional(t.array(t.string())),
    args: t.optional(t.array(t.string())),
    ports: t.optional(t.array(
      t.object({
        name: t.optional(t.string({ pattern: NAME, maxLength: 15 })),
        containerPort: t.integer({ minimum: 1, maximum: 65535 }),
      }),
      { listType: "map", listMapKeys: ["containerPort"] },
    )),
    env: t.optional(t.array(
      t.object({ name: t.string({ minLength: 1 }), value: t.optional(t.string()) }),
      { listType: "map", listMapKeys: ["name"] },
    )),
    resources: t.optional(t.object({ requests: resourceList, limits: resourceList })),
  }, { description: "A long-running, replicable server (rendered as a Deployment)." }),
});

/** Schema of `ScalingTrait.spec`: a fixed replica count, or an autoscaling range. */
export const scalingTraitSpecSchema = t.object({
  replicas: t.optional(t.integer({ minimum: 0, description: "A fixed number of replicas." })),
  autoscale: t.optional(t.object({
    minReplicas: t.integer({ minimum: 1 }),
    maxReplicas: t.integer({ minimum: 1 }),
    cpuUtilization: t.optional(t.integer({
      minimum: 1,
      maximum: 100,
      default: 80,
      description: "Target average CPU utilization, percent (default 80).",
    })),
  }, {
    description: "A HorizontalPodAutoscaler range.",
    extensions: {
      "x-kubernetes-validations": [{
        rule: "self.minReplicas <= self.maxReplicas",
        message: "minReplicas must not exceed maxReplicas",
      }],
    },
  })),
}, {
  extensions: {
    "x-kubernetes-validations": [{
      rule: "has(self.replicas) != has(self.autoscale)",
      message: "exactly one of replicas and autoscale must be set",
    }],
  },
});

/** Schema of `ExposeTrait.spec`: a Service port reachable through an Ingress rule. */
export const exposeTraitSpecSchema = t.object({
  host: t.string({ minLength: 1, description: "The host name the Ingress rule matches." }),
  path: t.optional(
    t.string({ pattern: "^/", default: "/", description: "Path prefix (default /)." }),
  ),
  port: port("The component's container port to expose (default: its first port)."),
  ingressClassName: t.optional(t.string()),
});

/** Schema of `MonitoringTrait.spec`: where Prometheus scrapes the component. */
export const monitoringTraitSpecSchema = t.object({
  port: port("The port to scrape (default: the component's first port)."),
  path: t.optional(t.string({ pattern: "^/", default: "/metrics" })),
  scheme: t.optional(t.enumOf(["http", "https"] as const, { default: "http" })),
});

/** Schema of `Application.spec`: components with the traits attached to them. */
export const applicationSpecSchema = t.object({
  components: t.array(
    t.object({
      name: t.string({
        pattern: NAME,
        maxLength: 40,
        description: "This instance's name in the application.",
      }),
      componentName: t.string({ pattern: NAME, description: "The Component (same namespace)." }),
      traits: t.optional(t.array(
        t.object({ kind: t.enumOf(TRAIT_KINDS), name: t.string({ pattern: NAME }) }),
        { listType: "map", listMapKeys: ["kind", "name"] },
      )),
    }),
    { listType: "map", listMapKeys: ["name"] },
  ),
});

const condition = t.object({
  type: t.string(),
  status: t.enumOf(["True", "False", "Unknown"] as const),
  reason: t.string(),
  message: t.string(),
  lastTransitionTime: t.string({ format: "date-time" }),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
});

/** Schema of `Application.status`: health per component, from its children. */
export const applicationStatusSchema = t.object({
  phase: t.enumOf(["Rendering", "Running", "Degraded"] as const),
  components: t.array(
    t.object({
      name: t.string(),
      healthy: t.boolean(),
      replicas: t.integer({ minimum: 0 }),
      readyReplicas: t.integer({ minimum: 0 }),
      message: t.string(),
      endpoint: t.optional(t.string({ description: "host + path, with an ExposeTrait." })),
      traits: t.array(t.object({ kind: t.string(), name: t.string(), applied: t.boolean() })),
    }),
    { listType: "map", listMapKeys: ["name"] },
  ),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
  conditions: t.optional(t.array(condition, { listType: "map", listMapKeys: ["type"] })),
});

/** Schemas of whole objects (the CRDs' `openAPIV3Schema`). */
export const componentSchema = whole(componentSpecSchema, "A developer's workload.");
/** See {@link componentSchema}. */
export const scalingTraitSchema = whole(scalingTraitSpecSchema, "An operator's scaling policy.");
/** See {@link componentSchema}. */
export const exposeTraitSchema = whole(exposeTraitSpecSchema, "An operator's exposure rule.");
/** See {@link componentSchema}. */
export const monitoringTraitSchema = whole(
  monitoringTraitSpecSchema,
  "An operator's scrape settings.",
);
/** The Application schema (with status). */
export const applicationSchema = t.resource({
  spec: applicationSpecSchema,
  status: t.optional(applicationStatusSchema),
}, { description: "Components joined with their traits." });

/** `Component.spec`. */
export type ComponentSpec = Infer<typeof componentSpecSchema>;
/** `ScalingTrait.spec`. */
export type ScalingTraitSpec = Infer<typeof scalingTraitSpecSchema>;
/** `ExposeTrait.spec`. */
export type ExposeTraitSpec = Infer<typeof exposeTraitSpecSchema>;
/** `MonitoringTrait.spec`. */
export type MonitoringTraitSpec = Infer<typeof monitoringTraitSpecSchema>;
/** `Application.spec`. */
export type ApplicationSpec = Infer<typeof applicationSpecSchema>;
/** `Application.status`. */
export type ApplicationStatus = Infer<typeof applicationStatusSchema>;
/** One entry of `Application.status.components`. */
export type ComponentHealth = ApplicationStatus["components"][number];

/** An object of one of the OAM kinds. */
export interface OamObject<S> {
  /** `apiVersion` (set by the server on reads). */
  apiVersion?: string;
  /** `kind`. */
  kind?: string;
  /** Standard object metadata. */
  metadata?: ObjectMeta;
  /** What is wanted. */
  spec: S;
}

/**
 * A Component.
 *
 * @example
 * ```ts
 * import type { Component } from "./types.ts";
 * const web: Component = {
 *   apiVersion: "core.oam.kubefold.dev/v1alpha1", kind: "Component",
 *   metadata: { namespace: "default", name: "web" },
 *   spec: { workload: { image: "nginx:1.27", ports: [{ name: "http", containerPort: 80 }] } },
 * };
 * ```
 */
export type Component = OamObject<ComponentSpec>;
/** A ScalingTrait. */
export type ScalingTrait = OamObject<ScalingTraitSpec>;
/** An ExposeTrait. */
export type ExposeTrait = OamObject<ExposeTraitSpec>;
/** A MonitoringTrait. */
export type MonitoringTrait = OamObject<MonitoringTraitSpec>;
/** An Application. */
export interface Application extends OamObject<ApplicationSpec> {
  /** Health per component, as the composer observed it. */
  status?: ApplicationStatus;
}
