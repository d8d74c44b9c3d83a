/**
 * The built-in resources beyond core workloads that a typical operator bundle or chart
 * applies: volumes, RBAC, networking, policy, autoscaling, scheduling, storage classes,
 * APIServices, and the review kinds (`kubectl auth can-i`, TokenReview) that are computed per
 * request and never stored.
 *
 * @module
 */
import type { ResourceSpec } from "./resource_spec.ts";
import { createdAtColumns, defaultClassName, groupKindColumns as c } from "./group_columns.ts";
import { hpaFromStored, hpaToStored } from "./hpa_conversion.ts";

/** Annotation that marks the default StorageClass. */
export const DEFAULT_STORAGE_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
/** Annotation that marks the default IngressClass. */
export const DEFAULT_INGRESS_CLASS_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";

/** A create-only kind computed per request (the access and token reviews). */
const review = (gv: string, plural: string, kind: string, namespaced = false): ResourceSpec => ({
  gv,
  plural,
  kind,
  namespaced,
  verbs: ["create"],
});

const rbac = "rbac.authorization.k8s.io/v1";
const hpa = {
  plural: "horizontalpodautoscalers",
  kind: "HorizontalPodAutoscaler",
  shortNames: ["hpa"],
  categories: ["all"],
  status: true,
  generation: true,
  columns: c.horizontalpodautoscalers,
};

/**
 * The specs, in discovery order (groups appear in `/apis` in this order).
 *
 * @example
 * ```ts
 * import { groupResourceSpecs } from "./group_resources.ts";
 * groupResourceSpecs.some((s) => s.plural === "poddisruptionbudgets"); // true
 * ```
 */
export const groupResourceSpecs: readonly ResourceSpec[] = [
  {
    gv: "v1",
    plural: "persistentvolumes",
    kind: "PersistentVolume",
    namespaced: false,
    shortNames: ["pv"],
    status: true,
    columns: c.persistentvolumes,
    wide: c.persistentvolumesWide,
  },
  {
    gv: "v1",
    plural: "resourcequotas",
    kind: "ResourceQuota",
    shortNames: ["quota"],
    status: true,
    ownColumns: c.resourcequotas,
  },
  { gv: "v1", plural: "limitranges", kind: "LimitRange", shortNames: ["limits"] },
  { gv: "v1", plural: "podtemplates", kind: "PodTemplate" },
  review("authentication.k8s.io/v1", "selfsubjectreviews", "SelfSubjectReview"),
  review("authentication.k8s.io/v1", "tokenreviews", "TokenReview"),
  review(
    "authorization.k8s.io/v1",
    "localsubjectaccessreviews",
    "LocalSubjectAccessReview",
    true,
  ),
  review("authorization.k8s.io/v1", "selfsubjectaccessreviews", "SelfSubjectAccessReview"),
  review("authorization.k8s.io/v1", "selfsubjectrulesreviews", "SelfSubjectRulesReview"),
  review("authorization.k8s.io/v1", "subjectaccessreviews", "SubjectAccessReview"),
  { gv: "autoscaling/v2", ...hpa },
  {
    gv: "autoscaling/v1",
    ...hpa,
    storedAs: "autoscaling/horizontalpodautoscalers",
    convert: { toStored: hpaToStored, fromStored: hpaFromStored },
  },
  {
    gv: "networking.k8s.io/v1",
    plural: "ingressclasses",
    kind: "IngressClass",
    namespaced: false,
    nameCell: defaultClassName(DEFAULT_INGRESS_CLASS_ANNOTATION),
    columns: c.ingressclasses,
  },
  {
    gv: "networking.k8s.io/v1",
    plural: "ingresses",
    kind: "Ingress",
    shortNames: ["ing"],
    status: true,
    generation: true,
    columns: c.ingresses,
  },
  {
    gv: "networking.k8s.io/v1",
    plural: "networkpolicies",
    kind: "NetworkPolicy",
    shortNames: ["netpol"],
    generation: true,
    columns: c.networkpolicies,
  },
  {
    gv: "policy/v1",
    plural: "poddisruptionbudgets",
    kind: "PodDisruptionBudget",
    shortNames: ["pdb"],
    status: true,
    generation: true,
    columns: c.poddisruptionbudgets,
  },
  {
    gv: rbac,
    plural: "clusterrolebindings",
    kind: "ClusterRoleBinding",
    nameRule: "path",
    namespaced: false,
    columns: c.bindings.slice(0, 1),
    wide: c.bindings.slice(2),
  },
  {
    gv: rbac,
    plural: "clusterroles",
    kind: "ClusterRole",
    nameRule: "path",
    namespaced: false,
    ownColumns: createdAtColumns,
  },
  {
    gv: rbac,
    plural: "rolebindings",
    kind: "RoleBinding",
    nameRule: "path",
    columns: c.bindings.slice(0, 1),
    wide: c.bindings.slice(2),
  },
  { gv: rbac, plural: "roles", kind: "Role", nameRule: "path", ownColumns: createdAtColumns },
  {
    gv: "storage.k8s.io/v1",
    plural: "csidrivers",
    kind: "CSIDriver",
    namespaced: false,
  },
  {
    gv: "storage.k8s.io/v1",
    plural: "storageclasses",
    kind: "StorageClass",
    namespaced: false,
    shortNames: ["sc"],
    nameCell: defaultClassName(DEFAULT_STORAGE_CLASS_ANNOTATION),
    columns: c.storageclasses,
  },
  {
    gv: "scheduling.k8s.io/v1",
    plural: "priorityclasses",
    kind: "PriorityClass",
    namespaced: false,
    shortNames: ["pc"],
    columns: c.priorityclasses,
    wide: c.priorityclassesAfterAge,
  },
  {
    gv: "apiregistration.k8s.io/v1",
    plural: "apiservices",
    kind: "APIService",
    nameRule: "path",
    namespaced: false,
    status: true,
    columns: c.apiservices,
    unconditionalUpdate: false,
  },
];
