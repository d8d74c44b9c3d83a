/**
 * The merge facts of fields and types Kubernetes added after 1.30, which the schema generator
 * takes from `@kubernetes/client-node` (kubernetes-types 1.30 lacks them): list types and
 * merge keys as the Kubernetes 1.36 Go types declare them. `semantics_overlay.ts` merges them
 * into the overlay of the 1.30 fields.
 *
 * @module
 */
import type { FieldSemantics, TypeSemantics } from "./semantics_overlay.ts";

const atomicList: FieldSemantics = { listType: "atomic" };
const set: FieldSemantics = { listType: "set" };
const byKey = (key: string): FieldSemantics => ({
  patchStrategy: "merge",
  patchMergeKey: key,
  listType: "map",
  listMapKeys: [key],
});
const restartPolicyRules: TypeSemantics = { fields: { restartPolicyRules: atomicList } };

/**
 * The merge facts of the newer fields, by component schema name.
 *
 * @example
 * ```ts
 * import { newerSemantics } from "./semantics_overlay_newer.ts";
 * newerSemantics["io.k8s.api.core.v1.ResourceStatus"].fields?.resources?.listMapKeys; // ["resourceID"]
 * ```
 */
export const newerSemantics: Readonly<Record<string, TypeSemantics>> = {
  "io.k8s.api.core.v1.Container": restartPolicyRules,
  "io.k8s.api.core.v1.EphemeralContainer": restartPolicyRules,
  "io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes": { fields: { values: set } },
  "io.k8s.api.core.v1.ContainerStatus": { fields: { allocatedResourcesStatus: byKey("name") } },
  "io.k8s.api.core.v1.ResourceStatus": {
    fields: { resources: { listType: "map", listMapKeys: ["resourceID"] } },
  },
  "io.k8s.api.core.v1.LinuxContainerUser": { fields: { supplementalGroups: atomicList } },
  "io.k8s.api.core.v1.FileKeySelector": { atomic: true },
  "io.k8s.api.core.v1.NodeStatus": { fields: { declaredFeatures: atomicList } },
  "io.k8s.api.core.v1.PodStatus": {
    fields: { nodeAllocatableResourceClaimStatuses: byKey("resourceClaimName") },
  },
  "io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus": { fields: { containers: set } },
  "io.k8s.api.core.v1.PodExtendedResourceClaimStatus": { fields: { requestMappings: atomicList } },
  "io.k8s.api.discovery.v1.EndpointHints": { fields: { forNodes: atomicList } },
  "io.k8s.api.authorization.v1.LabelSelectorAttributes": { fields: { requirements: atomicList } },
  "io.k8s.api.authorization.v1.FieldSelectorAttributes": { fields: { requirements: atomicList } },
  "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement": {
    fields: { values: atomicList },
  },
};
