/**
 * How the lists and maps of built-in kinds merge — the facts kubernetes-types does not carry
 * (its TypeScript has no struct tags): `x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key` for strategic merge patch, `x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys` and `x-kubernetes-map-type` for server-side apply, and the
 * key defaults apply needs (`protocol: TCP`). Written by hand for the fields that have them
 * in Kubernetes 1.30, with those of newer fields in `semantics_overlay_newer.ts`; the schema
 * generator stamps them into the generated component schemas (and fails on a name that does
 * not exist), and the strategic-merge and apply tables are derived from those schemas.
 *
 * @module
 */
import { newerSemantics } from "./semantics_overlay_newer.ts";

/** The merge facts of one field. */
export interface FieldSemantics {
  readonly patchStrategy?: "merge" | "retainKeys" | "merge,retainKeys" | "replace";
  readonly patchMergeKey?: string;
  readonly listType?: "atomic" | "set" | "map";
  readonly listMapKeys?: readonly string[];
  readonly mapType?: "atomic" | "granular";
  /** A default the server fills in (only where list-map keys need it). */
  readonly default?: string;
}

/** The merge facts of one type: atomic as a whole, and/or per field. */
export interface TypeSemantics {
  /** `x-kubernetes-map-type: atomic` on the type: replaced whole by apply. */
  readonly atomic?: boolean;
  readonly fields?: Readonly<Record<string, FieldSemantics>>;
}

/** Merged item by item on `key` (patch) and a list map keyed by `keys` (apply). */
const byKey = (key: string, keys: readonly string[] = [key]): FieldSemantics => ({
  patchStrategy: "merge",
  patchMergeKey: key,
  listType: "map",
  listMapKeys: keys,
});
/** Like {@link byKey}, and patches keep only the keys of the chosen union member. */
const byKeyRetaining = (key: string): FieldSemantics => ({
  ...byKey(key),
  patchStrategy: "merge,retainKeys",
});
const atomicList: FieldSemantics = { listType: "atomic" };
const set: FieldSemantics = { listType: "set" };
const mergedSet: FieldSemantics = { patchStrategy: "merge", listType: "set" };
const atomicMap: FieldSemantics = { mapType: "atomic" };
const conditions = byKey("type");
const listMap = (...keys: string[]): FieldSemantics => ({ listType: "map", listMapKeys: keys });
const atomicType: TypeSemantics = { atomic: true };
const lists = (names: readonly string[], s: FieldSemantics = atomicList) =>
  Object.fromEntries(names.map((n) => [n, s]));

const container: TypeSemantics = {
  fields: {
    ...lists(["command", "args", "envFrom", "resizePolicy"]),
    ports: byKey("containerPort", ["containerPort", "protocol"]),
    env: byKey("name"),
    volumeMounts: byKey("mountPath"),
    volumeDevices: byKey("devicePath"),
  },
};

const core: Record<string, TypeSemantics> = {
  Container: container,
  EphemeralContainer: container,
  ContainerPort: { fields: { protocol: { default: "TCP" } } },
  ContainerStatus: { fields: { volumeMounts: byKey("mountPath") } },
  PodSpec: {
    fields: {
      volumes: byKeyRetaining("name"),
      initContainers: byKey("name"),
      containers: byKey("name"),
      ephemeralContainers: byKey("name"),
      nodeSelector: atomicMap,
      imagePullSecrets: byKey("name"),
      hostAliases: byKey("ip"),
      topologySpreadConstraints: byKey("topologyKey", ["topologyKey", "whenUnsatisfiable"]),
      schedulingGates: byKey("name"),
      resourceClaims: byKeyRetaining("name"),
      ...lists(["tolerations", "readinessGates"]),
    },
  },
  PodStatus: {
    fields: {
      conditions,
      podIPs: byKey("ip"),
      hostIPs: { patchStrategy: "merge", patchMergeKey: "ip", listType: "atomic" },
      resourceClaimStatuses: byKeyRetaining("name"),
      ...lists(["initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"]),
    },
  },
  PodSecurityContext: { fields: lists(["supplementalGroups", "sysctls"]) },
  PodDNSConfig: { fields: lists(["nameservers", "searches", "options"]) },
  HostAlias: { fields: lists(["hostnames"]) },
  TopologySpreadConstraint: { fields: lists(["matchLabelKeys"]) },
  NodeSelector: { atomic: true, fields: lists(["nodeSelectorTerms"]) },
  NodeSelectorTerm: { atomic: true, fields: lists(["matchExpressions", "matchFields"]) },
  NodeSelectorRequirement: { fields: lists(["values"]) },
  NodeAffinity: { fields: lists(["preferredDuringSchedulingIgnoredDuringExecution"]) },
  PodAffinity: {
    fields: lists([
      "requiredDuringSchedulingIgnoredDuringExecution",
      "preferredDuringSchedulingIgnoredDuringExecution",
    ]),
  },
  PodAntiAffinity: {
    fields: lists([
      "requiredDuringSchedulingIgnoredDuringExecution",
      "preferredDuringSchedulingIgnoredDuringExecution",
    ]),
  },
  PodAffinityTerm: { fields: lists(["namespaces", "matchLabelKeys", "mismatchLabelKeys"]) },
  ResourceRequirements: { fields: { claims: listMap("name") } },
  Capabilities: { fields: lists(["add", "drop"]) },
  ExecAction: { fields: lists(["command"]) },
  HTTPGetAction: { fields: lists(["httpHeaders"]) },
  ObjectFieldSelector: atomicType,
  ResourceFieldSelector: atomicType,
  ConfigMapKeySelector: atomicType,
  SecretKeySelector: atomicType,
  ObjectReference: atomicType,
  LocalObjectReference: atomicType,
  TypedLocalObjectReference: atomicType,
  SecretReference: atomicType,
  ConfigMapVolumeSource: { fields: lists(["items"]) },
  SecretVolumeSource: { fields: lists(["items"]) },
  DownwardAPIVolumeSource: { fields: lists(["items"]) },
  ProjectedVolumeSource: { fields: lists(["sources"]) },
  ConfigMapProjection: { fields: lists(["items"]) },
  SecretProjection: { fields: lists(["items"]) },
  DownwardAPIProjection: { fields: lists(["items"]) },
  ServiceSpec: {
    fields: {
      ports: byKey("port", ["port", "protocol"]),
      selector: atomicMap,
      ...lists(["clusterIPs", "externalIPs", "loadBalancerSourceRanges", "ipFamilies"]),
    },
  },
  ServicePort: { fields: { protocol: { default: "TCP" } } },
  ServiceStatus: { fields: { conditions } },
  LoadBalancerStatus: { fields: lists(["ingress"]) },
  LoadBalancerIngress: { fields: lists(["ports"]) },
  ServiceAccount: { fields: { secrets: byKey("name"), imagePullSecrets: atomicList } },
  Endpoints: { fields: lists(["subsets"]) },
  EndpointSubset: { fields: lists(["addresses", "notReadyAddresses", "ports"]) },
  EndpointAddress: atomicType,
  EndpointPort: atomicType,
  NodeSpec: { fields: { podCIDRs: mergedSet, taints: atomicList } },
  NodeStatus: {
    fields: {
      conditions,
      addresses: byKey("type"),
      ...lists(["images", "volumesInUse", "volumesAttached", "runtimeHandlers"]),
    },
  },
  NamespaceSpec: { fields: lists(["finalizers"]) },
  NamespaceStatus: { fields: { conditions } },
  PersistentVolumeSpec: {
    fields: { ...lists(["accessModes", "mountOptions"]), claimRef: { mapType: "granular" } },
  },
  PersistentVolumeClaimSpec: { fields: lists(["accessModes"]) },
  PersistentVolumeClaimStatus: { fields: { conditions, accessModes: atomicList } },
  ReplicationControllerSpec: { fields: { selector: atomicMap } },
  ReplicationControllerStatus: { fields: { conditions } },
  LimitRangeSpec: { fields: lists(["limits"]) },
  ResourceQuotaSpec: { fields: lists(["scopes"]) },
  ScopeSelector: { atomic: true, fields: lists(["matchExpressions"]) },
  ScopedResourceSelectorRequirement: { fields: lists(["values"]) },
  ComponentStatus: { fields: { conditions } },
};

const meta: Record<string, TypeSemantics> = {
  ObjectMeta: {
    fields: { ownerReferences: byKey("uid"), finalizers: mergedSet, managedFields: atomicList },
  },
  OwnerReference: atomicType,
  LabelSelector: { atomic: true, fields: lists(["matchExpressions"]) },
  LabelSelectorRequirement: { fields: lists(["values"]) },
};

const apps: Record<string, TypeSemantics> = {
  DeploymentSpec: { fields: { strategy: { patchStrategy: "retainKeys" } } },
  DeploymentStatus: { fields: { conditions } },
  ReplicaSetStatus: { fields: { conditions } },
  StatefulSetSpec: { fields: lists(["volumeClaimTemplates"]) },
  StatefulSetStatus: { fields: { conditions } },
  DaemonSetStatus: { fields: { conditions } },
};

const batch: Record<string, TypeSemantics> = {
  // Merged by type in patches, yet atomic for apply: the Job controller owns the list.
  JobStatus: {
    fields: { conditions: { patchStrategy: "merge", patchMergeKey: "type", listType: "atomic" } },
  },
  CronJobStatus: { fields: lists(["active"]) },
  PodFailurePolicy: { fields: lists(["rules"]) },
  PodFailurePolicyRule: { fields: lists(["onPodConditions"]) },
  PodFailurePolicyOnExitCodesRequirement: { fields: { values: set } },
  SuccessPolicy: { fields: lists(["rules"]) },
  UncountedTerminatedPods: { fields: lists(["succeeded", "failed"], set) },
};

const networking: Record<string, TypeSemantics> = {
  NetworkPolicySpec: { fields: lists(["ingress", "egress", "policyTypes"]) },
  NetworkPolicyIngressRule: { fields: lists(["ports", "from"]) },
  NetworkPolicyEgressRule: { fields: lists(["ports", "to"]) },
  IPBlock: { fields: lists(["except"]) },
  IngressSpec: { fields: lists(["tls", "rules"]) },
  IngressTLS: { fields: lists(["hosts"]) },
  IngressLoadBalancerStatus: { fields: lists(["ingress"]) },
  IngressLoadBalancerIngress: { fields: lists(["ports"]) },
  HTTPIngressRuleValue: { fields: lists(["paths"]) },
};

const rbac: Record<string, TypeSemantics> = {
  PolicyRule: {
    fields: lists(["verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"]),
  },
  Subject: atomicType,
  RoleRef: atomicType,
  Role: { fields: lists(["rules"]) },
  ClusterRole: { fields: lists(["rules"]) },
  AggregationRule: { fields: lists(["clusterRoleSelectors"]) },
  RoleBinding: { fields: lists(["subjects"]) },
  ClusterRoleBinding: { fields: lists(["subjects"]) },
};

const webhook: TypeSemantics = {
  fields: { ...lists(["rules", "admissionReviewVersions"]), matchConditions: byKey("name") },
};
const ruleLists = lists(["apiGroups", "apiVersions", "resources", "operations"]);

const admissionregistration: Record<string, TypeSemantics> = {
  MutatingWebhookConfiguration: { fields: { webhooks: byKey("name") } },
  ValidatingWebhookConfiguration: { fields: { webhooks: byKey("name") } },
  MutatingWebhook: webhook,
  ValidatingWebhook: webhook,
  RuleWithOperations: { fields: ruleLists },
  NamedRuleWithOperations: { atomic: true, fields: { ...ruleLists, resourceNames: atomicList } },
  ValidatingAdmissionPolicySpec: {
    fields: {
      ...lists(["validations", "auditAnnotations"]),
      matchConditions: byKey("name"),
      variables: byKey("name"),
    },
  },
  ValidatingAdmissionPolicyStatus: { fields: { conditions: listMap("type") } },
  ValidatingAdmissionPolicyBindingSpec: { fields: { validationActions: set } },
  TypeChecking: { fields: lists(["expressionWarnings"]) },
  MatchResources: { atomic: true, fields: lists(["resourceRules", "excludeResourceRules"]) },
  ParamKind: atomicType,
  ParamRef: atomicType,
  Variable: atomicType,
};

const semanticsByPackage: Record<string, Record<string, TypeSemantics>> = {
  "io.k8s.api.core.v1": core,
  "io.k8s.apimachinery.pkg.apis.meta.v1": meta,
  "io.k8s.api.apps.v1": apps,
  "io.k8s.api.batch.v1": batch,
  "io.k8s.api.networking.v1": networking,
  "io.k8s.api.rbac.v1": rbac,
  "io.k8s.api.policy.v1": {
    PodDisruptionBudgetSpec: { fields: { selector: { patchStrategy: "replace" } } },
    PodDisruptionBudgetStatus: { fields: { conditions } },
  },
  "io.k8s.api.autoscaling.v1": { CrossVersionObjectReference: atomicType },
  "io.k8s.api.autoscaling.v2": {
    HorizontalPodAutoscalerSpec: { fields: lists(["metrics"]) },
    HorizontalPodAutoscalerStatus: { fields: { conditions, currentMetrics: atomicList } },
    HPAScalingRules: { fields: lists(["policies"]) },
  },
  "io.k8s.api.discovery.v1": {
    EndpointSlice: { fields: lists(["endpoints", "ports"]) },
    Endpoint: { fields: { addresses: set } },
    EndpointHints: { fields: lists(["forZones"]) },
    EndpointPort: atomicType,
  },
  "io.k8s.api.storage.v1": {
    StorageClass: { fields: lists(["mountOptions", "allowedTopologies"]) },
    CSIDriverSpec: { fields: { volumeLifecycleModes: set, tokenRequests: atomicList } },
    CSINodeSpec: { fields: { drivers: byKey("name") } },
    CSINodeDriver: { fields: lists(["topologyKeys"]) },
  },
  "io.k8s.api.node.v1": {
    Scheduling: { fields: { nodeSelector: atomicMap, tolerations: atomicList } },
  },
  "io.k8s.api.certificates.v1": {
    CertificateSigningRequestSpec: { fields: lists(["usages", "groups"]) },
    CertificateSigningRequestStatus: { fields: { conditions: listMap("type") } },
  },
  "io.k8s.api.admissionregistration.v1": admissionregistration,
  "io.k8s.api.flowcontrol.v1": {
    FlowSchemaSpec: { fields: lists(["rules"]) },
    PolicyRulesWithSubjects: { fields: lists(["subjects", "resourceRules", "nonResourceRules"]) },
    ResourcePolicyRule: { fields: lists(["verbs", "apiGroups", "resources", "namespaces"], set) },
    NonResourcePolicyRule: { fields: lists(["verbs", "nonResourceURLs"], set) },
    FlowSchemaStatus: { fields: { conditions } },
    PriorityLevelConfigurationStatus: { fields: { conditions } },
  },
  "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1": {
    APIServiceStatus: { fields: { conditions } },
  },
  "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1": {
    CustomResourceDefinitionSpec: { fields: lists(["versions"]) },
    CustomResourceDefinitionVersion: {
      fields: lists(["additionalPrinterColumns", "selectableFields"]),
    },
    CustomResourceDefinitionNames: { fields: lists(["shortNames", "categories"]) },
    CustomResourceDefinitionStatus: {
      fields: { conditions: listMap("type"), storedVersions: atomicList },
    },
    WebhookConversion: { fields: lists(["conversionReviewVersions"]) },
    JSONSchemaProps: {
      fields: {
        ...lists(["enum", "required", "allOf", "oneOf", "anyOf", "x-kubernetes-list-map-keys"]),
        "x-kubernetes-validations": byKey("rule"),
      },
    },
  },
};

/** One type's facts from both overlays; a field named by both is a mistake. */
function mergeSemantics(name: string, a: TypeSemantics, b: TypeSemantics): TypeSemantics {
  const twice = Object.keys(a.fields ?? {}).filter((f) => b.fields?.[f]);
  if (twice.length) throw new Error(`Both overlays describe ${name}.${twice.join(", .")}`);
  const fields = { ...a.fields, ...b.fields };
  return a.atomic || b.atomic ? { atomic: true, fields } : { fields };
}

const byName: Record<string, TypeSemantics> = Object.fromEntries(
  Object.entries(semanticsByPackage).flatMap(([pkg, types]) =>
    Object.entries(types).map(([name, s]) => [`${pkg}.${name}`, s])
  ),
);
for (const [name, s] of Object.entries(newerSemantics)) {
  byName[name] = byName[name] ? mergeSemantics(name, byName[name], s) : s;
}

/**
 * The hand-written merge facts of built-in types, by component schema name
 * (`io.k8s.api.core.v1.PodSpec`), newer fields included.
 *
 * @example
 * ```ts
 * import { semanticsOverlay } from "./semantics_overlay.ts";
 * semanticsOverlay["io.k8s.api.core.v1.PodSpec"].fields?.containers?.patchMergeKey; // "name"
 * ```
 */
export const semanticsOverlay: Readonly<Record<string, TypeSemantics>> = byName;
