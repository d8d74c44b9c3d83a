/**
 * Ready-made strategic-merge schemas for the built-in kinds kubefold serves, from the
 * `patchStrategy`/`patchMergeKey` tags of `k8s.io/api` (core/v1, apps/v1, batch/v1) and
 * `meta/v1`.
 *
 * @module
 */
import {
  atomicList,
  keyedList,
  type MergeSchema,
  setList,
  type StructSchema,
  structSchema,
} from "./merge_schema.ts";

/** `metav1.ObjectMeta`: `finalizers` merge as a set, `ownerReferences` by `uid`. */
export const objectMetaSchema: StructSchema = structSchema({
  finalizers: setList,
  ownerReferences: keyedList("uid"),
});

const conditionsByType = keyedList("type");

/** `core/v1.Container` (also used for init and ephemeral containers). */
export const containerSchema: StructSchema = structSchema({
  env: keyedList("name"),
  envFrom: atomicList,
  ports: keyedList("containerPort"),
  volumeMounts: keyedList("mountPath"),
  volumeDevices: keyedList("devicePath"),
});

/** `core/v1.PodSpec`. */
export const podSpecSchema: StructSchema = structSchema({
  containers: keyedList("name", containerSchema),
  initContainers: keyedList("name", containerSchema),
  ephemeralContainers: keyedList("name", containerSchema),
  volumes: keyedList("name", structSchema({}, { retainKeys: true })),
  imagePullSecrets: keyedList("name"),
  hostAliases: keyedList("ip"),
  topologySpreadConstraints: keyedList("topologyKey"),
  tolerations: atomicList,
  readinessGates: atomicList,
  resourceClaims: keyedList("name"),
  schedulingGates: keyedList("name"),
});

/** `core/v1.PodStatus`. */
export const podStatusSchema: StructSchema = structSchema({
  conditions: conditionsByType,
  podIPs: keyedList("ip"),
  hostIPs: keyedList("ip"),
  containerStatuses: atomicList,
  initContainerStatuses: atomicList,
  ephemeralContainerStatuses: atomicList,
});

/** `core/v1.Pod`. */
export const podSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: podSpecSchema,
  status: podStatusSchema,
});

/** `core/v1.PodTemplateSpec`. */
export const podTemplateSpecSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: podSpecSchema,
});

const statusWithConditions = structSchema({ conditions: conditionsByType });

/** `apps/v1.Deployment` (`spec.strategy` is `retainKeys`). */
export const deploymentSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: structSchema({
    template: podTemplateSpecSchema,
    strategy: structSchema({}, { retainKeys: true }),
  }),
  status: statusWithConditions,
});

/** A kind whose `spec.template` is a PodTemplateSpec (ReplicaSet, StatefulSet, DaemonSet, Job). */
export const podTemplateOwnerSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: structSchema({ template: podTemplateSpecSchema }),
  status: statusWithConditions,
});

/** `batch/v1.CronJob`. */
export const cronJobSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: structSchema({
    jobTemplate: structSchema({
      metadata: objectMetaSchema,
      spec: structSchema({ template: podTemplateSpecSchema }),
    }),
  }),
});

/** `core/v1.Service` (`spec.ports` by `port`). */
export const serviceSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: structSchema({ ports: keyedList("port") }),
  status: statusWithConditions,
});

/** `core/v1.Node` (`status.conditions` and `status.addresses` by `type`). */
export const nodeSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  spec: structSchema({ taints: atomicList }),
  status: structSchema({ conditions: conditionsByType, addresses: keyedList("type") }),
});

/** `core/v1.ServiceAccount` (`secrets` by `name`). */
export const serviceAccountSchema: StructSchema = structSchema({
  metadata: objectMetaSchema,
  secrets: keyedList("name"),
});

/** Any built-in kind without list strategies of its own: only ObjectMeta's. */
export const objectSchema: StructSchema = structSchema({ metadata: objectMetaSchema });

const byKind = new Map<string, StructSchema>([
  ["v1/Pod", podSchema],
  ["v1/PodTemplate", structSchema({ metadata: objectMetaSchema, template: podTemplateSpecSchema })],
  ["v1/ReplicationController", podTemplateOwnerSchema],
  ["v1/Service", serviceSchema],
  ["v1/Node", nodeSchema],
  ["v1/Namespace", structSchema({ metadata: objectMetaSchema, status: statusWithConditions })],
  ["v1/ServiceAccount", serviceAccountSchema],
  ...[
    "ConfigMap",
    "Secret",
    "Endpoints",
    "Event",
    "LimitRange",
    "ResourceQuota",
    "PersistentVolume",
    "PersistentVolumeClaim",
  ].map((k): [string, StructSchema] => [`v1/${k}`, objectSchema]),
  ["apps/v1/Deployment", deploymentSchema],
  ["apps/v1/ReplicaSet", podTemplateOwnerSchema],
  ["apps/v1/StatefulSet", podTemplateOwnerSchema],
  ["apps/v1/DaemonSet", podTemplateOwnerSchema],
  ["apps/v1/ControllerRevision", objectSchema],
  ["batch/v1/Job", podTemplateOwnerSchema],
  ["batch/v1/CronJob", cronJobSchema],
  ["coordination.k8s.io/v1/Lease", objectSchema],
  ["events.k8s.io/v1/Event", objectSchema],
  ["apiextensions.k8s.io/v1/CustomResourceDefinition", objectSchema],
  [
    "policy/v1/PodDisruptionBudget",
    structSchema({ metadata: objectMetaSchema, status: statusWithConditions }),
  ],
  ["networking.k8s.io/v1/Ingress", objectSchema],
  ["networking.k8s.io/v1/NetworkPolicy", objectSchema],
  ...["Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"].map((
    k,
  ): [string, StructSchema] => [`rbac.authorization.k8s.io/v1/${k}`, objectSchema]),
]);

/**
 * The strategic-merge schema of a built-in kind, or `undefined` when the kind has none
 * (custom resources: the server then answers 415 to `application/strategic-merge-patch+json`).
 *
 * @param apiVersion e.g. `v1`, `apps/v1`
 * @param kind e.g. `Pod`
 * @returns the kind's {@link MergeSchema}, or `undefined`
 *
 * @example
 * ```ts
 * import { strategicSchemaFor } from "./strategic_schemas.ts";
 * strategicSchemaFor("apps/v1", "Deployment") !== undefined; // true
 * strategicSchemaFor("example.com/v1", "Widget"); // undefined
 * ```
 */
export function strategicSchemaFor(apiVersion: string, kind: string): MergeSchema | undefined {
  return byKind.get(`${apiVersion}/${kind}`);
}
