/**
 * The PodSet CustomResourceDefinition, generated from the schema in `types.ts`.
 *
 * @module
 */
import type { apiextensionsv1 as k8sApiextensions } from "../../mod.ts";
import { PODSET_GROUP, PODSET_KIND, PODSET_VERSION, podSetSchema } from "./types.ts";

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
