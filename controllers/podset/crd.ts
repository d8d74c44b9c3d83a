/**
 * The PodSet CustomResourceDefinition, generated from the schema in `types.ts`.
 *
 * @module
 */
import type { apiextensionsv1 as k8sApiextensions } from "../../mod.ts";
import { PODSET_GROUP, PODSET_KIND, PODSET_VERSION, podSetSchema } from "./types.ts";
import { PODSET_V1, podSetV1Schema } from "./types_v1.ts";

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
export const podSetCrd: k8sApiextensions.CustomResourceDefinition = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `podsets.${PODSET_GROUP}` },
  spec: {
    group: PODSET_GROUP,
    scope: "Namespaced",
    names: {
      kind: PODSET_KIND,
      listKind: `${PODSET_KIND}List`,
      plural: "podsets",
      singular: "podset",
      shortNames: ["ps"],
    },
    versions: [{
      name: PODSET_VERSION,
      served: true,
      storage: true,
      // The builder's schema carries x-kubernetes-* members kubernetes-types does not list.
      schema: { openAPIV3Schema: podSetSchema.json as k8sApiextensions.JSONSchemaProps },
      subresources: {
        status: {},
        scale: {
          specReplicasPath: ".spec.replicas",
          statusReplicasPath: ".status.replicas",
          labelSelectorPath: ".status.selector",
        },
      },
      additionalPrinterColumns: [
        { name: "Desired", type: "integer", jsonPath: ".spec.replicas" },
        { name: "Current", type: "integer", jsonPath: ".status.replicas" },
        { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
        { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
      ],
    }],
  },
};

type CrdVersion = k8sApiextensions.CustomResourceDefinitionVersion;
const [alpha] = podSetCrd.spec.versions;

/**
 * The PodSet CRD once v1 exists: v1 (stored) and v1alpha1 (still served), converted by the
 * PodSet conversion webhook. It carries no `spec.conversion`: `withConversionWebhook()` (or
 * `installWebhooks()`, or the generated manifests) adds the stanza pointing at the webhook
 * server, since strategy None would serve v1alpha1 objects as v1 without renaming a field.
 *
 * @example
 * ```ts
 * import { podSetCrdV1 } from "./crd.ts";
 * podSetCrdV1.spec.versions.map((v) => `${v.name}${v.storage ? " (storage)" : ""}`);
 * // ["v1 (storage)", "v1alpha1"]
 * ```
 */
export const podSetCrdV1: k8sApiextensions.CustomResourceDefinition = {
  ...podSetCrd,
  spec: {
    ...podSetCrd.spec,
    versions: [
      {
        ...alpha,
        name: PODSET_V1,
        storage: true,
        schema: { openAPIV3Schema: podSetV1Schema.json as k8sApiextensions.JSONSchemaProps },
        subresources: {
          ...alpha.subresources,
          scale: { ...alpha.subresources!.scale!, specReplicasPath: ".spec.size" },
        },
        additionalPrinterColumns: alpha.additionalPrinterColumns!.map((c) =>
          c.jsonPath === ".spec.replicas" ? { ...c, jsonPath: ".spec.size" } : c
        ),
      } satisfies CrdVersion,
      { ...alpha, storage: false },
    ],
  },
};
