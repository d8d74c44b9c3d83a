/**
 * The PodSet CustomResourceDefinition, generated from the schema in `types.ts`.
 *
 * @module
 */
import { customResourceDefinition } from "../../mod.ts";
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
export const podSetCrd = customResourceDefinition({
  group: PODSET_GROUP,
  kind: PODSET_KIND,
  shortNames: ["ps"],
  versions: [{
    name: PODSET_VERSION,
    schema: podSetSchema,
    scale: {
      specReplicasPath: ".spec.replicas",
      statusReplicasPath: ".status.replicas",
      labelSelectorPath: ".status.selector",
    },
    printerColumns: [
      { name: "Desired", type: "integer", jsonPath: ".spec.replicas" },
      { name: "Current", type: "integer", jsonPath: ".status.replicas" },
      { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
    ],
  }],
});
