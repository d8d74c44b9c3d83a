/**
 * Server-side apply schemas of the built-in kinds kubefold serves, from the list markers of
 * `k8s.io/api` (`+listType`, `+listMapKey`, `+structType=atomic`, and `patchMergeKey`, which
 * kube's OpenAPI turns into list-map keys when no `listType` is given).
 *
 * @module
 */
import { atomic, listMap, listSet, struct, type StructApplySchema } from "./apply_schema.ts";

/** `metav1.ObjectMeta`: labels/annotations granular maps, finalizers a set, owners by uid. */
export const objectMetaApplySchema: StructApplySchema = struct({
  finalizers: listSet,
  ownerReferences: listMap(["uid"]),
});

const byType = listMap(["type"]);
const tcp = { protocol: "TCP" };

/** `core/v1.Container`. */
export const containerApplySchema: StructApplySchema = struct({
  ports: listMap(["containerPort", "protocol"], undefined, tcp),
  env: listMap(["name"]),
  volumeMounts: listMap(["mountPath"]),
  volumeDevices: listMap(["devicePath"]),
});

const containers = listMap(["name"], containerApplySchema);

/** `core/v1.PodSpec`. */
export const podSpecApplySchema: StructApplySchema = struct({
  containers,
  initContainers: containers,
  ephemeralContainers: containers,
  volumes: listMap(["name"]),
  imagePullSecrets: listMap(["name"]),
  hostAliases: listMap(["ip"]),
  topologySpreadConstraints: listMap(["topologyKey", "whenUnsatisfiable"]),
  resourceClaims: listMap(["name"]),
  schedulingGates: listMap(["name"]),
});

/** `core/v1.Pod`. */
export const podApplySchema: StructApplySchema = struct({
  metadata: objectMetaApplySchema,
  spec: podSpecApplySchema,
  status: struct({ conditions: byType, podIPs: listMap(["ip"]), hostIPs: listMap(["ip"]) }),
});

/** `core/v1.PodTemplateSpec`. */
export const podTemplateApplySchema: StructApplySchema = struct({
  metadata: objectMetaApplySchema,
  spec: podSpecApplySchema,
});

/** A workload with a pod template and a `LabelSelector` (atomic) selector. */
export const workloadApplySchema: StructApplySchema = struct({
  metadata: objectMetaApplySchema,
  spec: struct({ selector: atomic, template: podTemplateApplySchema }),
  status: struct({ conditions: byType }),
});

/** `batch/v1.Job` (its status conditions are atomic). */
export const jobApplySchema: StructApplySchema = struct({
  metadata: objectMetaApplySchema,
  spec: struct({ selector: atomic, template: podTemplateApplySchema }),
});

/** `core/v1.Service`: ports keyed by `port` + `protocol`. */
export const serviceApplySchema: StructApplySchema = struct({
  metadata: objectMetaApplySchema,
  spec: struct({ ports: listMap(["port", "protocol"], undefined, tcp) }),
  status: struct({ conditions: byType }),
});

/** `core/v1.Node`. */
export const nodeApplySchema: StructApplySchema = struct({
  metadata: objectMetaApplySchema,
  spec: struct({ podCIDRs: listSet }),
  status: struct({ conditions: byType, addresses: listMap(["type"]) }),
});

/** Any kind whose only non-default lists are ObjectMeta's (ConfigMap, Secret, Lease, ...). */
export const objectApplySchema: StructApplySchema = struct({ metadata: objectMetaApplySchema });

const withConditions = struct({
  metadata: objectMetaApplySchema,
  status: struct({ conditions: byType }),
});

const byKind = new Map<string, StructApplySchema>([
  ["v1/Pod", podApplySchema],
  ["v1/PodTemplate", struct({ metadata: objectMetaApplySchema, template: podTemplateApplySchema })],
  [
    "v1/ReplicationController",
    struct({
      metadata: objectMetaApplySchema,
      spec: struct({ template: podTemplateApplySchema }),
      status: struct({ conditions: byType }),
    }),
  ],
  ["v1/Service", serviceApplySchema],
  ["v1/Node", nodeApplySchema],
  ["v1/Namespace", withConditions],
  ["v1/ServiceAccount", struct({ metadata: objectMetaApplySchema, secrets: listMap(["name"]) })],
  ["v1/PersistentVolumeClaim", withConditions],
  ["apps/v1/Deployment", workloadApplySchema],
  ["apps/v1/ReplicaSet", workloadApplySchema],
  ["apps/v1/StatefulSet", workloadApplySchema],
  ["apps/v1/DaemonSet", workloadApplySchema],
  ["batch/v1/Job", jobApplySchema],
  [
    "batch/v1/CronJob",
    struct({
      metadata: objectMetaApplySchema,
      spec: struct({
        jobTemplate: struct({ metadata: objectMetaApplySchema, spec: jobApplySchema.fields!.spec }),
      }),
    }),
  ],
  [
    "policy/v1/PodDisruptionBudget",
    struct({
      metadata: objectMetaApplySchema,
      spec: struct({ selector: atomic }),
      status: struct({ conditions: byType }),
    }),
  ],
  [
    "networking.k8s.io/v1/NetworkPolicy",
    struct({
      metadata: objectMetaApplySchema,
      spec: struct({ podSelector: atomic }),
    }),
  ],
]);

/**
 * The apply schema of a built-in kind; kinds without list markers of their own (ConfigMap,
 * Secret, Lease, ...) and unknown kinds get {@link objectApplySchema}.
 *
 * @param apiVersion e.g. `apps/v1`
 * @param kind e.g. `Deployment`
 *
 * @example
 * ```ts
 * import { applySchemaFor } from "./builtin_apply_schemas.ts";
 * applySchemaFor("apps/v1", "Deployment").fields?.spec !== undefined; // true
 * ```
 */
export function applySchemaFor(apiVersion: string, kind: string): StructApplySchema {
  return byKind.get(`${apiVersion}/${kind}`) ?? objectApplySchema;
}
