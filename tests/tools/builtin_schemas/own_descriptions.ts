/**
 * Our own descriptions of the newer fields whose client-node model has none: openapi-generator
 * drops the description of a property that refers to another type, so every such field added
 * after Kubernetes 1.30 needs one here (the generator fails on a missing or unused entry).
 * Written for kubefold from the Kubernetes API documentation.
 *
 * @module
 */

/**
 * Descriptions by `file.Type.field` (`core/v1.Volume.image`).
 *
 * @example
 * ```ts ignore
 * ownDescriptions["core/v1.Volume.image"]; // "An OCI image or artifact mounted ..."
 * ```
 */
export const ownDescriptions: Readonly<Record<string, string>> = {
  "authorization/v1.ResourceAttributes.fieldSelector":
    "Narrows the access being checked to objects matching a field selector, as a list or " +
    "watch with fieldSelector would.",
  "authorization/v1.ResourceAttributes.labelSelector":
    "Narrows the access being checked to objects matching a label selector, as a list or " +
    "watch with labelSelector would.",
  "core/v1.ContainerStatus.user":
    "The identity (uid, gid, supplemental groups) the container's first process runs as, as " +
    "the container runtime reports it.",
  "core/v1.ContainerUser.linux": "The Linux identity: uid, gid and supplemental groups.",
  "core/v1.ContainerRestartRule.exitCodes":
    "The exit codes the rule matches: an operator (In or NotIn) and a set of codes.",
  "core/v1.EnvVarSource.fileKeyRef":
    "Reads the value from a key of an env file in one of the pod's volumes.",
  "core/v1.NodeStatus.features":
    "Features the node's container runtime implements, such as supplementalGroupsPolicy.",
  "core/v1.NodeSystemInfo.swap": "The swap memory of the node.",
  "core/v1.PodSpec.resources":
    "Pod-level compute resource requests and limits, shared by all containers of the pod; " +
    "only cpu, memory and hugepages may be set.",
  "core/v1.PodSpec.schedulingGroup":
    "The scheduling group (such as a pod group) this pod belongs to, for scheduling a " +
    "workload's pods together.",
  "core/v1.PodStatus.extendedResourceClaimStatus":
    "The ResourceClaim the scheduler created for extended resources backed by dynamic " +
    "resource allocation, and which container requests it serves.",
  "core/v1.PodStatus.resources":
    "The pod-level resource requests and limits the kubelet applied, when spec.resources is " +
    "set.",
  "core/v1.Volume.image":
    "An OCI image or artifact mounted read-only as a volume; the kubelet pulls it as it " +
    "pulls container images.",
  "core/v1.VolumeMountStatus.volumeStatus":
    "Status of the mounted volume that depends on its type (an image volume reports the " +
    "image it mounted).",
  "core/v1.VolumeProjection.podCertificate":
    "Projects a private key and an X.509 certificate chain issued for the pod by a signer.",
  "core/v1.VolumeStatus.image": "Status of an image volume: the digest of the mounted image.",
  "meta/v1.ListMeta.shardInfo":
    "Present when the list was filtered to one shard: the shard selector that was applied.",
};
