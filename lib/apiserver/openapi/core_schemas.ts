/**
 * A described subset of `core/v1`: Pod (with PodSpec, Container, ...), ConfigMap, Secret,
 * Namespace, Service and Event. Kinds left out still get a placeholder schema elsewhere.
 *
 * @module
 */
import { s, type Schema } from "./schema_builder.ts";
import { kindObject } from "./kind_object.ts";
import { intOrStringName, metaV1, quantityName } from "./meta_schemas.ts";

const core = "io.k8s.api.core.v1.";
const gvk = (kind: string) => ({ group: "", version: "v1", kind });
const time = (description: string) => s.use(`${metaV1}Time`, description);

/**
 * Component schemas of the described core/v1 kinds and their parts, by name.
 *
 * @example
 * ```ts
 * import { coreSchemas } from "./core_schemas.ts";
 * "io.k8s.api.core.v1.Pod" in coreSchemas; // true
 * ```
 */
export const coreSchemas: Readonly<Record<string, Schema>> = {
  [`${core}Pod`]: kindObject(
    gvk("Pod"),
    "Pod is a group of containers that run together on a host.",
    {
      spec: s.use(
        `${core}PodSpec`,
        "The desired behaviour of the pod: containers, restart policy, node.",
      ),
      status: s.use(`${core}PodStatus`, "The most recently observed state of the pod. Read-only."),
    },
  ),
  [`${core}PodSpec`]: s.obj(
    "PodSpec describes the containers of a pod and how they run.",
    {
      containers: s.arr(
        "The containers of the pod; at least one. Cannot be added or removed later.",
        s.ref(`${core}Container`),
      ),
      initContainers: s.arr(
        "Containers that run to completion, in order, before the main containers start.",
        s.ref(`${core}Container`),
      ),
      restartPolicy: s.str(
        "Restart policy of all containers: Always (default), OnFailure, Never.",
        {
          enum: ["Always", "Never", "OnFailure"],
        },
      ),
      nodeName: s.str("The node the pod is bound to; set by the scheduler when empty."),
      nodeSelector: s.map("Labels a node must carry for the pod to be scheduled there."),
      serviceAccountName: s.str("The service account the pod runs as."),
      terminationGracePeriodSeconds: s.int(
        "Seconds the pod may take to stop gracefully after deletion (default 30).",
        "int64",
      ),
      volumes: s.arr(
        "Volumes that containers of the pod can mount.",
        s.obj("A named volume.", {
          name: s.str("The volume name; unique within the pod."),
        }),
      ),
    },
    { required: ["containers"] },
  ),
  [`${core}Container`]: s.obj(
    "A single application container of a pod.",
    {
      name: s.str("The container name (DNS label), unique within the pod. Cannot be updated."),
      image: s.str("The container image to run."),
      command: s.arr("Entrypoint array; the image's ENTRYPOINT when empty.", s.str()),
      args: s.arr("Arguments to the entrypoint; the image's CMD when empty.", s.str()),
      ports: s.arr("Ports the container exposes (informational).", s.ref(`${core}ContainerPort`)),
      env: s.arr("Environment variables set in the container.", s.ref(`${core}EnvVar`)),
      resources: s.use(`${core}ResourceRequirements`, "Compute resources the container needs."),
      imagePullPolicy: s.str("Always, Never or IfNotPresent."),
      workingDir: s.str("The working directory of the container."),
    },
    { required: ["name"] },
  ),
  [`${core}ContainerPort`]: s.obj(
    "A network port of a container.",
    {
      name: s.str("An IANA_SVC_NAME, unique within the pod, that services can refer to."),
      containerPort: s.int("The port number on the pod's IP address (1-65535)."),
      protocol: s.str("UDP, TCP (default) or SCTP."),
      hostPort: s.int("The port number to expose on the host."),
    },
    { required: ["containerPort"] },
  ),
  [`${core}EnvVar`]: s.obj(
    "An environment variable of a container.",
    {
      name: s.str("The variable name."),
      value: s.str("The value; $(VAR) references to earlier variables are expanded."),
      valueFrom: s.obj("A source for the value (config map, secret, field).", {}),
    },
    { required: ["name"] },
  ),
  [`${core}ResourceRequirements`]: s.obj("Compute resource requests and limits.", {
    limits: s.map("The most of each resource the container may use.", s.ref(quantityName)),
    requests: s.map("The least of each resource the container needs.", s.ref(quantityName)),
  }),
  [`${core}PodStatus`]: s.obj("The observed state of a pod.", {
    phase: s.str(
      "Where the pod is in its lifecycle: Pending, Running, Succeeded, Failed, Unknown.",
      {
        enum: ["Failed", "Pending", "Running", "Succeeded", "Unknown"],
      },
    ),
    podIP: s.str("The IP address allocated to the pod."),
    hostIP: s.str("The IP address of the node the pod runs on."),
    startTime: time("When the kubelet acknowledged the pod."),
    conditions: s.arr("Current service state of the pod.", s.ref(`${core}PodCondition`)),
    message: s.str("Why the pod is in this condition."),
    reason: s.str("A brief CamelCase reason for the pod's condition."),
  }),
  [`${core}PodCondition`]: s.obj(
    "One aspect of the state of a pod.",
    {
      type: s.str("PodScheduled, Initialized, ContainersReady, Ready, ..."),
      status: s.str("True, False or Unknown."),
      lastTransitionTime: time("When the condition last changed status."),
      reason: s.str("A CamelCase reason for the last transition."),
      message: s.str("Details of the last transition."),
    },
    { required: ["type", "status"] },
  ),
  [`${core}PodTemplateSpec`]: s.obj("The template of the pods a controller creates.", {
    metadata: s.use(`${metaV1}ObjectMeta`, "Metadata of the created pods (labels, annotations)."),
    spec: s.use(`${core}PodSpec`, "The specification of the created pods."),
  }),
  [`${core}ConfigMap`]: kindObject(
    gvk("ConfigMap"),
    "ConfigMap holds configuration data for pods.",
    {
      data: s.map("UTF-8 configuration data; keys are letters, digits, '-', '_' or '.'."),
      binaryData: s.map(
        "Binary configuration data, base64-encoded; keys must not repeat those of data.",
        {
          type: "string",
          format: "byte",
        },
      ),
      immutable: s.bool("When true, data and binaryData can no longer be changed."),
    },
  ),
  [`${core}Secret`]: kindObject(gvk("Secret"), "Secret holds small amounts of sensitive data.", {
    data: s.map("Secret values, base64-encoded.", { type: "string", format: "byte" }),
    stringData: s.map("Write-only convenience: plain values merged into data on write."),
    type: s.str("Used to ease programmatic handling of secret data (default Opaque)."),
    immutable: s.bool("When true, data can no longer be changed."),
  }),
  [`${core}Namespace`]: kindObject(gvk("Namespace"), "Namespace provides a scope for names.", {
    spec: s.obj("The behaviour of the namespace.", {
      finalizers: s.arr("Must be empty before the namespace is removed.", s.str()),
    }),
    status: s.obj("The observed state of the namespace.", {
      phase: s.str("Active or Terminating.", { enum: ["Active", "Terminating"] }),
      conditions: s.arr("Current state of the namespace.", s.ref(`${metaV1}Condition`)),
    }),
  }),
  [`${core}Service`]: kindObject(
    gvk("Service"),
    "Service is a named abstraction of a set of pods.",
    {
      spec: s.use(`${core}ServiceSpec`, "The behaviour of the service."),
      status: s.obj("The observed state of the service.", {
        loadBalancer: s.obj("The load balancer, if any.", {}),
      }),
    },
  ),
  [`${core}ServiceSpec`]: s.obj("The attributes of a service.", {
    selector: s.map("Routes traffic to pods whose labels match these."),
    ports: s.arr("The ports the service exposes.", s.ref(`${core}ServicePort`)),
    type: s.str("ClusterIP (default), NodePort, LoadBalancer or ExternalName."),
    clusterIP: s.str("The IP address of the service; assigned when empty."),
  }),
  [`${core}ServicePort`]: s.obj(
    "A port of a service.",
    {
      name: s.str("Name of the port; required when there are several."),
      port: s.int("The port the service exposes."),
      targetPort: s.use(intOrStringName, "Number or name of the port on the pods."),
      protocol: s.str("TCP (default), UDP or SCTP."),
      nodePort: s.int("The port on each node (NodePort and LoadBalancer)."),
    },
    { required: ["port"] },
  ),
  [`${core}Event`]: kindObject(
    gvk("Event"),
    "Event reports something that happened to an object.",
    {
      involvedObject: s.use(`${core}ObjectReference`, "The object this event is about."),
      reason: s.str("A short CamelCase reason for the transition."),
      message: s.str("A human-readable description."),
      type: s.str("Normal or Warning."),
      count: s.int("How many times the event occurred."),
      firstTimestamp: time("When the event was first recorded."),
      lastTimestamp: time("When the event was last recorded."),
      source: s.obj("The component reporting the event.", {
        component: s.str("The reporting component."),
        host: s.str("The node name."),
      }),
    },
    { required: ["metadata", "involvedObject"] },
  ),
  [`${core}ObjectReference`]: s.obj("A reference to an object.", {
    apiVersion: s.str("API version of the referent."),
    kind: s.str("Kind of the referent."),
    namespace: s.str("Namespace of the referent."),
    name: s.str("Name of the referent."),
    uid: s.str("UID of the referent."),
    fieldPath: s.str("A field within the referent, e.g. spec.containers{name}."),
  }),
};
