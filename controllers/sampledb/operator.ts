/**
 * The SampleDB operator as a project: what `kubefold manifests` turns into `config/` (the CRD,
 * least-privilege RBAC derived from the controller's `for` / `owns` / `watches` / `writes`, the
 * manager Deployment).
 *
 * @module
 */
import { defineOperator, type OperatorSpec } from "../../lib/operator/mod.ts";
import { sampleDbCrd } from "./crd.ts";
import { sampleDbController } from "./mod.ts";

/**
 * The SampleDB operator: its CRD, its controller, and the REST mapping of VolumeSnapshot (a CRD
 * of external-snapshotter, not the operator's own).
 *
 * @example
 * ```ts
 * import { sampleDbOperator } from "./operator.ts";
 * import { generateManifests } from "../../lib/operator/mod.ts";
 * generateManifests(sampleDbOperator); // right(Map { "config/crd/bases/db.example.com_sampledbs.yaml" => ..., ... })
 * ```
 */
export const sampleDbOperator: OperatorSpec = defineOperator({
  name: "sampledb-operator",
  image: "example.com/sampledb-operator:0.1.0",
  crds: [sampleDbCrd],
  controllers: [sampleDbController()],
  kinds: [{
    group: "snapshot.storage.k8s.io",
    kind: "VolumeSnapshot",
    plural: "volumesnapshots",
    namespaced: true,
  }],
});
