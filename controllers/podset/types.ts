/**
 * The PodSet custom resource (`app.example.com/v1alpha1`): its schema, defined once with the
 * schema builder, and the TypeScript types derived from it.
 *
 * @module
 */
import { type corev1 as k8sCore, type Infer, type ObjectMeta, t } from "../../mod.ts";

/** API group of PodSet. */
export const PODSET_GROUP = "app.example.com";
/** API version of PodSet. */
export const PODSET_VERSION = "v1alpha1";
/** `apiVersion` of PodSet. */
export const PODSET_API_VERSION = `${PODSET_GROUP}/${PODSET_VERSION}`;
/** Kind of PodSet. */
export const PODSET_KIND = "PodSet";

const stringMap = () => t.optional(t.record(t.string()));

/** Schema of `spec.selector`. */
export const podSetSelectorSchema = t.object({
  matchLabels: stringMap(),
  matchExpressions: t.optional(t.array(
    t.object({
      key: t.string(),
      operator: t.enumOf(["In", "NotIn", "Exists", "DoesNotExist"] as const),
      values: t.optional(t.array(t.string())),
    }),
  )),
}, { description: "Which pods belong to the set; must match the template's labels." });

/** Schema of one entry of `status.conditions`. */
export const podSetConditionSchema = t.object({
  type: t.string(),
  status: t.enumOf(["True", "False", "Unknown"] as const),
  reason: t.string(),
  message: t.string(),
  lastTransitionTime: t.string({ format: "date-time" }),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
});

/** Schema of `spec.template`. */
export const podSetTemplateSchema = t.object({
  metadata: t.optional(t.object({ labels: stringMap(), annotations: stringMap() })),
  spec: t.preserveUnknown<k8sCore.PodSpec>({ description: "The pod spec (kept as given)." }),
}, { description: "The pods to create." });

/** Schema of `spec`. */
export const podSetSpecSchema = t.object({
  replicas: t.optional(t.integer({
    minimum: 0,
    default: 1,
    description: "How many active pods to keep (default 1).",
  })),
  selector: podSetSelectorSchema,
  template: podSetTemplateSchema,
});

/** Schema of `status`. */
export const podSetStatusSchema = t.object({
  replicas: t.integer({ minimum: 0, description: "Active pods owned by the set." }),
  readyReplicas: t.integer({ minimum: 0, description: "Of those, how many are Ready." }),
  podNames: t.array(t.string(), { description: "Names of the active pods, sorted." }),
  selector: t.optional(t.string({ description: "The selector in string form (for scale)." })),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
  conditions: t.optional(
    t.array(podSetConditionSchema, { listType: "map", listMapKeys: ["type"] }),
  ),
});

/** Schema of a whole PodSet object (the CRD's `openAPIV3Schema`). */
export const podSetSchema = t.resource({
  spec: podSetSpecSchema,
  status: t.optional(podSetStatusSchema),
});

/** `PodSet.spec`. */
export type PodSetSpec = Infer<typeof podSetSpecSchema>;
/** `PodSet.status`. */
export type PodSetStatus = Infer<typeof podSetStatusSchema>;

/**
 * A PodSet: keeps `spec.replicas` pods from `spec.template` running.
 *
 * @example
 * ```ts
 * import type { PodSet } from "./types.ts";
 * const ps: PodSet = {
 *   apiVersion: "app.example.com/v1alpha1",
 *   kind: "PodSet",
 *   metadata: { namespace: "default", name: "web" },
 *   spec: {
 *     replicas: 2,
 *     selector: { matchLabels: { app: "web" } },
 *     template: {
 *       metadata: { labels: { app: "web" } },
 *       spec: { containers: [{ name: "web", image: "nginx" }] },
 *     },
 *   },
 * };
 * ```
 */
export interface PodSet {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: PodSetSpec;
  status?: PodSetStatus;
}

/** A Pod (kubernetes-types `core/v1`). */
export type Pod = k8sCore.Pod;
