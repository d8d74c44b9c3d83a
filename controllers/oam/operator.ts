/**
 * The OAM composer as a project: what `kubefold manifests` turns into `config/` (the five
 * CRDs, least-privilege RBAC derived from the controller spec, the manager Deployment).
 *
 * @module
 */
import { defineOperator, type OperatorSpec } from "../../lib/operator/mod.ts";
import { oamCrds } from "./crds.ts";
import { applicationController } from "./mod.ts";

/**
 * The OAM operator: the Component, trait and Application CRDs and the Application controller.
 *
 * @example
 * ```ts
 * import { oamOperator } from "./operator.ts";
 * import { generateManifests } from "../../lib/operator/mod.ts";
 * generateManifests(oamOperator); // right(Map { "config/crd/bases/core.oam.kubefold.dev_applications.yaml" => ..., ... })
 * ```
 */
export const oamOperator: OperatorSpec = defineOperator({
  name: "oam-operator",
  image: "example.com/oam-operator:0.1.0",
  crds: oamCrds,
  controllers: [applicationController()],
});
