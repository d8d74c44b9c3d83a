/**
 * The PodSet CustomResourceDefinitions, generated from the schemas in `types.ts` and
 * `types_v1.ts`: v1alpha1 alone, and v1 (stored) beside v1alpha1.
 *
 * @module
 */
import { customResourceDefinition, type PrinterColumn } from "../../mod.ts";
import { PODSET_GROUP, PODSET_KIND, PODSET_VERSION, podSetSchema } from "./types.ts";
import { PODSET_V1, podSetV1Schema } from "./types_v1.ts";

const scaleAt = (specReplicasPath: string) => ({
  specReplicasPath,
  statusReplicasPath: ".status.replicas",
  labelSelectorPath: ".status.selector",
});
const columnsAt = (desired: string): PrinterColumn[] => [
  { name: "Desired", type: "integer", jsonPath: desired },
  { name: "Current", type: "integer", jsonPath: ".status.replicas" },
  { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
];
const v1alpha1 = {
  name: PODSET_VERSION,
  schema: podSetSchema,
  scale: scaleAt(".spec.replicas"),
  printerColumns: columnsAt(".spec.replicas"),
};

/**
 * The `apiextensions.k8s.io/v1` CRD of PodSet: namespaced, short name `ps`, status and scale
 * subresources, printer columns DESIRED, CURRENT, READY, AGE.
 *
 * @example
 * ```ts
 * import { podSetCrd } from "./crd.ts";
 * podSetCrd.metadata?.name; // "podsets.app.example.com"
 * ```
 */
export const podSetCrd = customResourceDefinition({
  group: PODSET_GROUP,
  kind: PODSET_KIND,
  shortNames: ["ps"],
  versions: [v1alpha1],
});

/**
 * The PodSet CRD once v1 exists: v1 (stored, `spec.size`) and v1alpha1 (still served),
 * converted by the PodSet conversion webhook. It carries no `spec.conversion`:
 * `withConversionWebhook()` (or `installWebhooks()`, or the generated manifests) adds the
 * stanza pointing at the webhook server — strategy None would serve v1alpha1 objects as v1
 * without renaming the field.
 *
 * @example
 * ```ts
 * import { podSetCrdV1 } from "./crd.ts";
 * podSetCrdV1.spec.versions.map((v) => `${v.name}${v.storage ? " (storage)" : ""}`);
 * // ["v1 (storage)", "v1alpha1"]
 * ```
 */
export const podSetCrdV1 = customResourceDefinition({
  group: PODSET_GROUP,
  kind: PODSET_KIND,
  shortNames: ["ps"],
  versions: [
    {
      name: PODSET_V1,
      schema: podSetV1Schema,
      storage: true,
      scale: scaleAt(".spec.size"),
      printerColumns: columnsAt(".spec.size"),
    },
    { ...v1alpha1, storage: false },
  ],
});
