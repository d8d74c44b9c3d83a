/**
 * kube-apiserver's defaulting of every built-in kind, applied to each decoded object (create,
 * update, patch, apply) like the API server's generated defaulters: the `SetDefaults_*`
 * functions of kubernetes `pkg/apis/<group>/<version>/defaults.go` with the pod-spec
 * defaults of `pod_spec_defaults.ts` in every pod template. Allocations (Service IPs and node
 * ports) and create-only fields live in the kinds' hooks.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import {
  canonicalResourceList,
  defaultClaimSpec,
  defaultPodOnlySpec,
  defaultPodTemplate,
} from "./pod_spec_defaults.ts";
import { defaultServiceSpec } from "./service_defaults.ts";

import { type Defaulter, mapList, rec, withSpec } from "./_defaulter.ts";
import { groupKindDefaulters } from "./group_kind_defaults.ts";

type Obj = Record<string, unknown>;

const templateOf = (spec: Obj): Obj => {
  spec.template = defaultPodTemplate(spec.template);
  return spec;
};

/** apps/v1 (kubernetes `pkg/apis/apps/v1/defaults.go`). */
const apps: Record<string, Defaulter> = {
  Deployment: withSpec((spec) => {
    spec.replicas ??= 1;
    const strategy = rec(spec.strategy);
    strategy.type ||= "RollingUpdate";
    if (strategy.type === "RollingUpdate") {
      const ru = rec(strategy.rollingUpdate);
      ru.maxUnavailable ??= "25%";
      ru.maxSurge ??= "25%";
      strategy.rollingUpdate = ru;
    }
    spec.strategy = strategy;
    spec.revisionHistoryLimit ??= 10;
    spec.progressDeadlineSeconds ??= 600;
    return templateOf(spec);
  }),
  ReplicaSet: withSpec((spec) => {
    spec.replicas ??= 1;
    return templateOf(spec);
  }),
  StatefulSet: withSpec((spec) => {
    spec.podManagementPolicy ||= "OrderedReady";
    const strategy = rec(spec.updateStrategy);
    if (!strategy.type) {
      strategy.type = "RollingUpdate";
      strategy.rollingUpdate ??= {};
    }
    if (strategy.type === "RollingUpdate" && isPlainObject(strategy.rollingUpdate)) {
      strategy.rollingUpdate = {
        ...strategy.rollingUpdate,
        partition: strategy.rollingUpdate.partition ?? 0,
      };
    }
    spec.updateStrategy = strategy;
    const retention = rec(spec.persistentVolumeClaimRetentionPolicy);
    retention.whenDeleted ||= "Retain";
    retention.whenScaled ||= "Retain";
    spec.persistentVolumeClaimRetentionPolicy = retention;
    spec.replicas ??= 1;
    spec.revisionHistoryLimit ??= 10;
    if (spec.volumeClaimTemplates !== undefined) {
      spec.volumeClaimTemplates = mapList(spec.volumeClaimTemplates, (claim) => {
        claim.spec = defaultClaimSpec(claim.spec);
        const status = rec(claim.status);
        claim.status = { ...status, phase: status.phase || "Pending" };
        return claim;
      });
    }
    return templateOf(spec);
  }),
  DaemonSet: withSpec((spec) => {
    const strategy = rec(spec.updateStrategy);
    strategy.type ||= "RollingUpdate";
    if (strategy.type === "RollingUpdate") {
      const ru = rec(strategy.rollingUpdate);
      ru.maxUnavailable ??= 1;
      ru.maxSurge ??= 0;
      strategy.rollingUpdate = ru;
    }
    spec.updateStrategy = strategy;
    spec.revisionHistoryLimit ??= 10;
    return templateOf(spec);
  }),
};

/** batch/v1 (kubernetes `pkg/apis/batch/v1/defaults.go`). */
const batch: Record<string, Defaulter> = {
  Job: (obj) => {
    const spec = rec(obj.spec);
    if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
    spec.parallelism ??= 1;
    spec.backoffLimit ??= spec.backoffLimitPerIndex === undefined ? 6 : 2147483647;
    const labels = rec(rec(spec.template).metadata).labels;
    if (isPlainObject(labels) && Object.keys(obj.metadata?.labels ?? {}).length === 0) {
      obj.metadata = { ...obj.metadata, labels: { ...labels } as Record<string, string> };
    }
    spec.completionMode ??= "NonIndexed";
    spec.suspend ??= false;
    if (isPlainObject(spec.podFailurePolicy)) {
      const policy = { ...spec.podFailurePolicy };
      policy.rules = mapList(policy.rules, (rule) => {
        if (rule.onPodConditions !== undefined) {
          rule.onPodConditions = mapList(
            rule.onPodConditions,
            (c) => ({ ...c, status: c.status || "True" }),
          );
        }
        return rule;
      });
      spec.podFailurePolicy = policy;
    }
    spec.podReplacementPolicy ??= spec.podFailurePolicy ? "Failed" : "TerminatingOrFailed";
    obj.spec = templateOf(spec);
  },
  CronJob: withSpec((spec) => {
    spec.concurrencyPolicy ||= "Allow";
    spec.suspend ??= false;
    spec.successfulJobsHistoryLimit ??= 3;
    spec.failedJobsHistoryLimit ??= 1;
    const jobTemplate = rec(spec.jobTemplate);
    jobTemplate.spec = templateOf(rec(jobTemplate.spec));
    spec.jobTemplate = jobTemplate;
    return spec;
  }),
};

/** core/v1 (kubernetes `pkg/apis/core/v1/defaults.go`). */
const core: Record<string, Defaulter> = {
  Pod: withSpec((spec) => defaultPodOnlySpec(spec)),
  PodTemplate: (obj) => {
    const o = obj as Obj;
    o.template = defaultPodTemplate(o.template);
  },
  ReplicationController: (obj) => {
    const spec = rec(obj.spec);
    const labels = rec(rec(spec.template).metadata).labels;
    if (isPlainObject(labels)) {
      if (Object.keys(rec(spec.selector)).length === 0) spec.selector = { ...labels };
      if (Object.keys(obj.metadata?.labels ?? {}).length === 0) {
        obj.metadata = { ...obj.metadata, labels: { ...labels } as Record<string, string> };
      }
    }
    spec.replicas ??= 1;
    if (spec.template !== undefined) templateOf(spec);
    obj.spec = spec;
  },
  Service: withSpec((spec) => defaultServiceSpec(spec)),
  Secret: (obj) => {
    const o = obj as Obj;
    o.type ||= "Opaque";
  },
  Namespace: (obj) => {
    const name = obj.metadata?.name;
    if (name) {
      obj.metadata = {
        ...obj.metadata,
        labels: { ...obj.metadata?.labels, "kubernetes.io/metadata.name": name },
      };
    }
    obj.status = { ...rec(obj.status), phase: rec(obj.status).phase || "Active" };
  },
  PersistentVolumeClaim: (obj) => {
    obj.spec = defaultClaimSpec(obj.spec);
    obj.status = { ...rec(obj.status), phase: rec(obj.status).phase || "Pending" };
  },
  PersistentVolume: (obj) => {
    const spec = rec(obj.spec);
    spec.persistentVolumeReclaimPolicy ||= "Retain";
    spec.volumeMode ??= "Filesystem";
    if (isPlainObject(spec.hostPath)) {
      spec.hostPath = { ...spec.hostPath, type: spec.hostPath.type ?? "" };
    }
    obj.spec = spec;
    obj.status = { ...rec(obj.status), phase: rec(obj.status).phase || "Pending" };
  },
  Endpoints: (obj) => {
    const o = obj as Obj;
    if (o.subsets === undefined) return;
    o.subsets = mapList(o.subsets, (s) => {
      if (s.ports !== undefined) {
        s.ports = mapList(s.ports, (p) => ({ ...p, protocol: p.protocol || "TCP" }));
      }
      return s;
    });
  },
  Node: (obj) => {
    if (obj.status === undefined) return;
    const status = rec(obj.status);
    if (status.allocatable === undefined && isPlainObject(status.capacity)) {
      status.allocatable = { ...status.capacity };
    }
    for (const k of ["capacity", "allocatable"]) {
      if (status[k] !== undefined) status[k] = canonicalResourceList(status[k]);
    }
    obj.status = status;
  },
  ResourceQuota: (obj) => {
    const spec = rec(obj.spec);
    if (spec.hard !== undefined) spec.hard = canonicalResourceList(spec.hard);
    if (obj.spec !== undefined) obj.spec = spec;
  },
  LimitRange: withSpec((spec) => {
    if (spec.limits !== undefined) {
      spec.limits = mapList(spec.limits, (item) => {
        if (item.type !== "Container") return item;
        const list = (v: unknown) => rec(canonicalResourceList(v));
        const max = list(item.max), min = list(item.min);
        const def = { ...max, ...list(item.default) };
        item.default = def;
        item.defaultRequest = { ...min, ...def, ...list(item.defaultRequest) };
        return item;
      });
    }
    return spec;
  }),
};

const byKind: Readonly<Record<string, Defaulter>> = {
  ...Object.fromEntries(Object.entries(core).map(([k, f]) => [`/${k}`, f])),
  ...Object.fromEntries(Object.entries(apps).map(([k, f]) => [`apps/${k}`, f])),
  ...Object.fromEntries(Object.entries(batch).map(([k, f]) => [`batch/${k}`, f])),
  ...groupKindDefaulters,
};

/**
 * The defaulter of a built-in kind (changes the object in place; idempotent), or
 * `undefined` when kube-apiserver sets no defaults on it.
 *
 * @param group the API group (`""` for core)
 * @param kind the kind
 *
 * @example
 * ```ts
 * import { kindDefaults } from "./kind_defaults.ts";
 * const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p" },
 *   spec: { containers: [{ name: "c", image: "nginx",
 *     env: [{ name: "NODE", valueFrom: { fieldRef: { fieldPath: "spec.nodeName" } } }] }] } };
 * kindDefaults("", "Pod")!(pod);
 * pod.spec.containers[0].env[0].valueFrom.fieldRef; // { fieldPath: "spec.nodeName", apiVersion: "v1" }
 * ```
 */
export function kindDefaults(group: string, kind: string): Defaulter | undefined {
  return byKind[`${group}/${kind}`];
}
