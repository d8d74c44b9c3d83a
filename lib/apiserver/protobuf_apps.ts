/**
 * Protobuf message tables for `kubectl create deployment|job|cronjob|service` and
 * `kubectl expose` (apps/v1 Deployment, batch/v1 Job and CronJob, each with a pod template;
 * v1 Service). Strict: Go zero values are left out, and a field these tables do not know that
 * carries a value is an error naming the message — the client is told to send JSON instead of
 * having part of its object dropped. Field numbers are those of k8s.io/api's generated.proto.
 *
 * @module
 */
import { type Field, objectMeta, type Spec, strictMessage } from "./_protobuf_spec.ts";

const str = (name: string): Field => ({ name, kind: "string" });
const strs = (name: string): Field => ({ name, kind: "string", repeated: true });
const int = (name: string, keepZero = false): Field => ({ name, kind: "int", keepZero });
const bool = (name: string): Field => ({ name, kind: "bool" });
const msg = (name: string, spec: Spec, repeated = false): Field => ({
  name,
  kind: "message",
  spec,
  repeated,
});

const strictMeta = strictMessage("ObjectMeta", { ...objectMeta });
const metadata = msg("metadata", strictMeta);

const labelSelector = strictMessage("LabelSelector", {
  1: { name: "matchLabels", kind: "map" },
  2: msg(
    "matchExpressions",
    strictMessage("LabelSelectorRequirement", {
      1: str("key"),
      2: str("operator"),
      3: strs("values"),
    }),
    true,
  ),
});

const container = strictMessage("Container", {
  1: str("name"),
  2: str("image"),
  3: strs("command"),
  4: strs("args"),
  5: str("workingDir"),
  6: msg(
    "ports",
    strictMessage("ContainerPort", {
      1: str("name"),
      2: int("hostPort"),
      3: int("containerPort"),
      4: str("protocol"),
      5: str("hostIP"),
    }),
    true,
  ),
  7: msg("env", strictMessage("EnvVar", { 1: str("name"), 2: str("value") }), true),
  8: msg(
    "resources",
    strictMessage("ResourceRequirements", {
      1: { name: "limits", kind: "map", quantityValue: true },
      2: { name: "requests", kind: "map", quantityValue: true },
    }),
  ),
  13: str("terminationMessagePath"),
  14: str("imagePullPolicy"),
  16: bool("stdin"),
  17: bool("stdinOnce"),
  18: bool("tty"),
  20: str("terminationMessagePolicy"),
});

const podSpec = strictMessage("PodSpec", {
  2: msg("containers", container, true),
  3: str("restartPolicy"),
  4: int("terminationGracePeriodSeconds", true),
  5: int("activeDeadlineSeconds", true),
  6: str("dnsPolicy"),
  7: { name: "nodeSelector", kind: "map" },
  8: str("serviceAccountName"),
  9: str("serviceAccount"),
  10: str("nodeName"),
  11: bool("hostNetwork"),
  12: bool("hostPID"),
  13: bool("hostIPC"),
  16: str("hostname"),
  17: str("subdomain"),
  19: str("schedulerName"),
  20: msg("initContainers", container, true),
  14: msg(
    "securityContext",
    strictMessage("PodSecurityContext", {
      2: int("runAsUser", true),
      3: bool("runAsNonRoot"),
      5: int("fsGroup", true),
      6: int("runAsGroup", true),
    }),
  ),
  24: str("priorityClassName"),
  30: bool("enableServiceLinks"),
});

const intOrString: Field = { name: "", kind: "intOrString" };

const podTemplate = strictMessage("PodTemplateSpec", { 1: metadata, 2: msg("spec", podSpec) });

const deploymentSpec = strictMessage("DeploymentSpec", {
  1: int("replicas", true),
  2: msg("selector", labelSelector),
  3: msg("template", podTemplate),
  4: msg(
    "strategy",
    strictMessage("DeploymentStrategy", {
      1: str("type"),
      2: msg(
        "rollingUpdate",
        strictMessage("RollingUpdateDeployment", {
          1: { ...intOrString, name: "maxUnavailable" },
          2: { ...intOrString, name: "maxSurge" },
        }),
      ),
    }),
  ),
  5: int("minReadySeconds"),
  6: int("revisionHistoryLimit", true),
  7: bool("paused"),
  9: int("progressDeadlineSeconds", true),
});

/**
 * The apps/v1 kinds `decodeKubeProtobuf` accepts, by `apiVersion/kind`.
 *
 * @example
 * ```ts
 * import { appsKinds } from "./protobuf_apps.ts";
 * Object.keys(appsKinds); // ["apps/v1/Deployment"]
 * ```
 */
export const appsKinds: Readonly<Record<string, Spec>> = {
  "apps/v1/Deployment": strictMessage("Deployment", {
    1: metadata,
    2: msg("spec", deploymentSpec),
    3: msg("status", {}), // read-only: ignored on create, as the server ignores it in JSON
  }),
};

const jobSpec = strictMessage("JobSpec", {
  1: int("parallelism", true),
  2: int("completions", true),
  3: int("activeDeadlineSeconds", true),
  4: msg("selector", labelSelector),
  5: bool("manualSelector"),
  6: msg("template", podTemplate),
  7: int("backoffLimit", true),
  8: int("ttlSecondsAfterFinished", true),
  9: str("completionMode"),
  10: bool("suspend"),
  12: int("backoffLimitPerIndex", true),
  13: int("maxFailedIndexes", true),
  14: str("podReplacementPolicy"),
  16: str("managedBy"),
});

const cronJobSpec = strictMessage("CronJobSpec", {
  1: str("schedule"),
  2: int("startingDeadlineSeconds", true),
  3: str("concurrencyPolicy"),
  4: bool("suspend"),
  5: msg("jobTemplate", strictMessage("JobTemplateSpec", { 1: metadata, 2: msg("spec", jobSpec) })),
  6: int("successfulJobsHistoryLimit", true),
  7: int("failedJobsHistoryLimit", true),
  8: str("timeZone"),
});

/**
 * The batch/v1 kinds `decodeKubeProtobuf` accepts (`kubectl create job|cronjob`), by
 * `apiVersion/kind`.
 *
 * @example
 * ```ts
 * import { batchKinds } from "./protobuf_apps.ts";
 * Object.keys(batchKinds); // ["batch/v1/Job", "batch/v1/CronJob"]
 * ```
 */
export const batchKinds: Readonly<Record<string, Spec>> = {
  "batch/v1/Job": strictMessage("Job", {
    1: metadata,
    2: msg("spec", jobSpec),
    3: msg("status", {}),
  }),
  "batch/v1/CronJob": strictMessage("CronJob", {
    1: metadata,
    2: msg("spec", cronJobSpec),
    3: msg("status", {}),
  }),
};

const serviceSpec = strictMessage("ServiceSpec", {
  1: msg(
    "ports",
    strictMessage("ServicePort", {
      1: str("name"),
      2: str("protocol"),
      3: int("port"),
      4: { ...intOrString, name: "targetPort" },
      5: int("nodePort"),
      6: str("appProtocol"),
    }),
    true,
  ),
  2: { name: "selector", kind: "map" },
  3: str("clusterIP"),
  4: str("type"),
  5: strs("externalIPs"),
  7: str("sessionAffinity"),
  8: str("loadBalancerIP"),
  9: strs("loadBalancerSourceRanges"),
  10: str("externalName"),
  11: str("externalTrafficPolicy"),
  12: int("healthCheckNodePort"),
  13: bool("publishNotReadyAddresses"),
  17: str("ipFamilyPolicy"),
  18: strs("clusterIPs"),
  19: strs("ipFamilies"),
  20: bool("allocateLoadBalancerNodePorts"),
  21: str("loadBalancerClass"),
  22: str("internalTrafficPolicy"),
});

/**
 * The v1 Service `decodeKubeProtobuf` accepts (`kubectl create service`, `kubectl expose`).
 *
 * @example
 * ```ts
 * import { serviceKinds } from "./protobuf_apps.ts";
 * Object.keys(serviceKinds); // ["v1/Service"]
 * ```
 */
export const serviceKinds: Readonly<Record<string, Spec>> = {
  "v1/Service": strictMessage("Service", {
    1: metadata,
    2: msg("spec", serviceSpec),
    3: msg("status", {}),
  }),
};
