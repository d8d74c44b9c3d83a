/**
 * The CustomResourceDefinitions of the OAM kinds, generated from the schemas in `types.ts`.
 *
 * @module
 */
import type { apiextensionsv1, JsonSchema } from "../../mod.ts";
import {
  applicationSchema,
  componentSchema,
  exposeTraitSchema,
  monitoringTraitSchema,
  OAM_GROUP,
  OAM_VERSION,
  scalingTraitSchema,
} from "./types.ts";

type Crd = apiextensionsv1.CustomResourceDefinition;
type Column = apiextensionsv1.CustomResourceColumnDefinition;

const crd = (
  kind: string,
  shortNames: string[],
  schema: JsonSchema,
  columns: Column[],
  status = false,
): Crd => {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${OAM_GROUP}` },
    spec: {
      group: OAM_GROUP,
      scope: "Namespaced",
      names: {
        kind,
        listKind: `${kind}List`,
        plural,
        singular: kind.toLowerCase(),
        shortNames,
        categories: ["oam"],
      },
      versions: [{
        name: OAM_VERSION,
        served: true,
        storage: true,
        // The builder's schema carries x-kubernetes-* members kubernetes-types does not list.
        schema: { openAPIV3Schema: schema as apiextensionsv1.JSONSchemaProps },
        ...(status ? { subresources: { status: {} } } : {}),
        additionalPrinterColumns: [
          ...columns,
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
      }],
    },
  };
};

/**
 * The five OAM CRDs (category `oam`, so `kubectl get oam` lists them all): Component
 * (`comp`), ScalingTrait (`scaling`), ExposeTrait (`expose`), MonitoringTrait (`monitoring`)
 * and Application (`app`, with a status subresource and PHASE, COMPONENTS, READY columns).
 *
 * @example
 * ```ts
 * import { oamCrds } from "./crds.ts";
 * oamCrds.map((c) => c.spec.names.kind);
 * // ["Component", "ScalingTrait", "ExposeTrait", "MonitoringTrait", "Application"]
 * ```
 */
export const oamCrds: readonly Crd[] = [
  crd("Component", ["comp"], componentSchema.json, [
    { name: "Image", type: "string", jsonPath: ".spec.workload.image" },
  ]),
  crd("ScalingTrait", ["scaling"], scalingTraitSchema.json, [
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Min", type: "integer", jsonPath: ".spec.autoscale.minReplicas" },
    { name: "Max", type: "integer", jsonPath: ".spec.autoscale.maxReplicas" },
  ]),
  crd("ExposeTrait", ["expose"], exposeTraitSchema.json, [
    { name: "Host", type: "string", jsonPath: ".spec.host" },
    { name: "Path", type: "string", jsonPath: ".spec.path" },
  ]),
  crd("MonitoringTrait", ["monitoring"], monitoringTraitSchema.json, [
    { name: "Port", type: "integer", jsonPath: ".spec.port" },
    { name: "Path", type: "string", jsonPath: ".spec.path" },
  ]),
  crd("Application", ["app"], applicationSchema.json, [
    { name: "Phase", type: "string", jsonPath: ".status.phase" },
    { name: "Components", type: "string", jsonPath: ".spec.components[*].name" },
    { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].message' },
  ], true),
];
