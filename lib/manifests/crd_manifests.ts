/**
 * `config/crd/`: one file per CRD (`bases/<group>_<plural>.yaml`, kubebuilder's layout) and
 * its kustomization.
 *
 * @module
 */
import { E } from "../deps.ts";
import { toJsonObject } from "../core/to_json.ts";
import { kustomization, type ManifestModule } from "./manifest_module.ts";

/**
 * The CRD module.
 *
 * @example
 * ```ts
 * import { crdManifests } from "../operator/mod.ts";
 * crdManifests.name; // "crd"
 * ```
 */
export const crdManifests: ManifestModule = {
  name: "crd",
  files: (op) => {
    if (op.crds.length === 0) return E.right([]);
    const files = [...op.crds]
      .sort((a, b) => (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? ""))
      .map((crd) => ({
        path: `config/crd/bases/${crd.spec.group}_${crd.spec.names.plural}.yaml`,
        documents: [toJsonObject({
          ...crd,
          metadata: { ...crd.metadata, labels: { ...op.labels, ...crd.metadata?.labels } },
        })],
      }));
    return E.right([
      ...files,
      {
        path: "config/crd/kustomization.yaml",
        documents: [kustomization(files.map((f) => f.path.slice("config/crd/".length)))],
      },
    ]);
  },
};
