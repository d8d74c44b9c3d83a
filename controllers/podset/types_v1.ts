/**
 * PodSet `app.example.com/v1`: v1alpha1 with `spec.replicas` renamed `spec.size`, and a
 * selector that may be left out (the defaulting webhook derives it from the template's
 * labels). Stored as v1; v1alpha1 is still served, converted by the conversion webhook.
 *
 * @module
 */
import { type Infer, type ObjectMeta, t } from "../../mod.ts";
import {
  PODSET_GROUP,
  podSetSelectorSchema,
  podSetStatusSchema,
  podSetTemplateSchema,
} from "./types.ts";

/** The version name of PodSet v1. */
export const PODSET_V1 = "v1";
/** API version of PodSet v1. */
export const PODSET_V1_API_VERSION = `${PODSET_GROUP}/${PODSET_V1}`;

/** Schema of v1's `spec`. */
export const podSetV1SpecSchema = t.object({
  size: t.optional(t.integer({
    minimum: 0,
    default: 1,
    description: "How many active pods to keep (default 1); `replicas` in v1alpha1.",
  })),
  selector: t.optional(podSetSelectorSchema),
  template: podSetTemplateSchema,
});

/** Schema of a whole PodSet v1 object. */
export const podSetV1Schema = t.resource({
  spec: podSetV1SpecSchema,
  status: t.optional(podSetStatusSchema),
});

/** `PodSet.spec` in v1. */
export type PodSetV1Spec = Infer<typeof podSetV1SpecSchema>;

/**
 * A PodSet as `app.example.com/v1`.
 *
 * @example
 * ```ts
 * import type { PodSetV1 } from "./types_v1.ts";
 * const ps: PodSetV1 = {
 *   apiVersion: "app.example.com/v1",
 *   kind: "PodSet",
 *   metadata: { name: "web" },
 *   spec: { size: 2, template: { spec: { containers: [{ name: "web", image: "nginx" }] } } },
 * };
 * ```
 */
export interface PodSetV1 {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: PodSetV1Spec;
  status?: Infer<typeof podSetStatusSchema>;
}
