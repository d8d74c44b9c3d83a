/**
 * Pure translation of a CustomResourceDefinition into the resources it serves, CEL rules
 * included (see `custom_resource_infos.ts` for the translation itself).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { requireCel } from "./cel/load_cel.ts";
import { type Crd, customResourceInfos } from "./custom_resource_infos.ts";

export type { Crd } from "./custom_resource_infos.ts";

/** Only called for a schema with rules: CEL was loaded when the CRD arrived (`loadCel`). */
const cel = (oldObject: KubeObject | undefined) =>
  requireCel().celValidator(oldObject ? { oldObject } : {});

/**
 * The resources a CRD serves: one per served version.
 *
 * @example
 * ```ts
 * import { crdResourceInfos } from "./crd_resources.ts";
 * const infos = crdResourceInfos({
 *   apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
 *   metadata: { name: "widgets.example.com" },
 *   spec: { group: "example.com", scope: "Namespaced",
 *     names: { plural: "widgets", kind: "Widget" },
 *     versions: [{ name: "v1", served: true, storage: true,
 *       schema: { openAPIV3Schema: { type: "object" } } }] },
 * });
 * infos[0].plural; // "widgets"
 * ```
 */
export function crdResourceInfos(crd: Crd): ResourceInfo[] {
  return customResourceInfos(crd, { cel });
}
