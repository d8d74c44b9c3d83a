/**
 * The CustomResourceDefinitions of the OAM kinds, generated from the schemas in `types.ts`.
 *
 * @module
 */
import {
  type apiextensionsv1,
  customResourceDefinition,
  type PrinterColumn,
  type Schema,
} from "../../mod.ts";
import {
  applicationSchema,
  componentSchema,
  exposeTraitSchema,
  monitoringTraitSchema,
  OAM_GROUP,
  OAM_VERSION,
  scalingTraitSchema,
} from "./types.ts";

const crd = (
  kind: string,
  shortNames: string[],
  schema: Schema<unknown>,
  printerColumns: PrinterColumn[],
  status = false,
): apiextensionsv1.CustomResourceDefinition =>
  customResourceDefinition({
    group: OAM_GROUP,
    kind,
    shortNames,
    categories: ["oam"],
    versions: [{ name: OAM_VERSION, schema, status, printerColumns }],
  });

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
export const oamCrds: readonly apiextensionsv1.CustomResourceDefinition[] = [
  crd("Component", ["comp"], componentSchema, [
    { name: "Image", type: "string", jsonPath: ".spec.workload.image" },
  ]),
  crd("ScalingTrait", ["scaling"], scalingTraitSchema, [
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Min", type: "integer", jsonPath: ".spec.autoscale.minReplicas" },
    { name: "Max", type: "integer", jsonPath: ".spec.autoscale.maxReplicas" },
  ]),
  crd("ExposeTrait", ["expose"], exposeTraitSchema, [
    { name: "Host", type: "string", jsonPath: ".spec.host" },
    { name: "Path", type: "string", jsonPath: ".spec.path" },
  ]),
  crd("MonitoringTrait", ["monitoring"], monitoringTraitSchema, [
    { name: "Port", type: "integer", jsonPath: ".spec.port" },
    { name: "Path", type: "string", jsonPath: ".spec.path" },
  ]),
  crd("Application", ["app"], applicationSchema, [
    { name: "Phase", type: "string", jsonPath: ".status.phase" },
    { name: "Components", type: "string", jsonPath: ".spec.components[*].name" },
    { name: "Ready", type: "string", jsonPath: '.status.conditions[?(@.type=="Ready")].message' },
  ], true),
];
