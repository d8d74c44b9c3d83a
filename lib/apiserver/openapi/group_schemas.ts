/**
 * Described kinds of named built-in groups: apps/v1 Deployment, coordination.k8s.io/v1 Lease
 * and autoscaling/v1 Scale (the scale subresource's kind).
 *
 * @module
 */
import { s, type Schema } from "./schema_builder.ts";
import { kindObject } from "./kind_object.ts";
import { metaV1 } from "./meta_schemas.ts";

const apps = "io.k8s.api.apps.v1.";
const coordination = "io.k8s.api.coordination.v1.";
const autoscaling = "io.k8s.api.autoscaling.v1.";

/**
 * Component schemas of the described named-group kinds and their parts, by name.
 *
 * @example
 * ```ts
 * import { groupSchemas } from "./group_schemas.ts";
 * "io.k8s.api.apps.v1.Deployment" in groupSchemas; // true
 * ```
 */
export const groupSchemas: Readonly<Record<string, Schema>> = {
  [`${apps}Deployment`]: kindObject(
    { group: "apps", version: "v1", kind: "Deployment" },
    "Deployment declares updates for pods and replica sets.",
    {
      spec: s.use(`${apps}DeploymentSpec`, "The desired behaviour of the deployment."),
      status: s.use(`${apps}DeploymentStatus`, "The most recently observed status. Read-only."),
    },
  ),
  [`${apps}DeploymentSpec`]: s.obj(
    "The desired state of a deployment.",
    {
      replicas: s.int("Number of desired pods (default 1)."),
      selector: s.use(
        `${metaV1}LabelSelector`,
        "Selects the pods the deployment manages; must match the template's labels. " +
          "Immutable in apps/v1.",
      ),
      template: s.use(
        "io.k8s.api.core.v1.PodTemplateSpec",
        "The pods to create. Its restartPolicy may only be Always.",
      ),
      strategy: s.obj("How existing pods are replaced by new ones.", {
        type: s.str("Recreate or RollingUpdate (default)."),
      }),
      minReadySeconds: s.int("Seconds a new pod must be ready before it counts as available."),
      revisionHistoryLimit: s.int("Old replica sets kept for rollback (default 10)."),
      paused: s.bool("Whether the deployment is paused."),
    },
    { required: ["selector", "template"] },
  ),
  [`${apps}DeploymentStatus`]: s.obj("The observed state of a deployment.", {
    observedGeneration: s.int("The generation observed by the controller.", "int64"),
    replicas: s.int("Total pods targeted by the deployment."),
    updatedReplicas: s.int("Pods with the desired template."),
    readyReplicas: s.int("Pods that are ready."),
    availableReplicas: s.int("Pods available for at least minReadySeconds."),
    conditions: s.arr(
      "The latest observations of the deployment's state.",
      s.obj(undefined, {
        type: s.str("Available, Progressing or ReplicaFailure."),
        status: s.str("True, False or Unknown."),
        reason: s.str("The reason of the last transition."),
        message: s.str("Details of the last transition."),
      }),
    ),
  }),
  [`${coordination}Lease`]: kindObject(
    { group: "coordination.k8s.io", version: "v1", kind: "Lease" },
    "Lease is a time-bounded claim, used for leader election and node heartbeats.",
    { spec: s.use(`${coordination}LeaseSpec`, "The specification of the lease.") },
  ),
  [`${coordination}LeaseSpec`]: s.obj("The holder and timing of a lease.", {
    holderIdentity: s.str("The identity of the current holder."),
    leaseDurationSeconds: s.int("Seconds candidates wait before taking over the lease."),
    acquireTime: s.use(`${metaV1}MicroTime`, "When the current holder acquired the lease."),
    renewTime: s.use(`${metaV1}MicroTime`, "When the holder last renewed the lease."),
    leaseTransitions: s.int("How many times the holder changed."),
  }),
  [`${autoscaling}Scale`]: kindObject(
    { group: "autoscaling", version: "v1", kind: "Scale" },
    "Scale is the scale subresource of a resource.",
    {
      spec: s.obj("The desired scale.", { replicas: s.int("The desired number of replicas.") }),
      status: s.obj("The observed scale. Read-only.", {
        replicas: s.int("The observed number of replicas."),
        selector: s.str("The label selector of the pods, as a string."),
      }, { required: ["replicas"] }),
    },
  ),
};
