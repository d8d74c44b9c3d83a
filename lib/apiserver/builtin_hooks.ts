/**
 * Kind-specific behaviour of built-in resources (kube-apiserver's registry strategies):
 * namespace, pod, secret, service and apps/v1 workload defaults.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import type { KindHooks } from "./context.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { batchHooks } from "./batch_hooks.ts";
import { groupHooks } from "./group_hooks.ts";
import { bytesToBase64, configMapSizeErrors, secretSizeErrors } from "./data_size_limits.ts";
import { containerNameErrors } from "./container_names.ts";
import { webhookConfigurationHooks } from "./admission/webhook_configuration_hooks.ts";

/** The pod spec with the fields an update may change blanked out. */
function immutablePart(spec: unknown): unknown {
  if (!isPlainObject(spec)) return spec;
  const images = (list: unknown) =>
    Array.isArray(list)
      ? list.map((c) => (isPlainObject(c) ? { ...c, image: undefined } : c))
      : list;
  return {
    ...spec,
    containers: images(spec.containers),
    initContainers: images(spec.initContainers),
    activeDeadlineSeconds: undefined,
    tolerations: undefined,
    schedulingGates: undefined,
    // Binding sets the node once (pods/binding or an update from "" to a node).
    nodeName: undefined,
  };
}

/** kube-apiserver's rule: a pod's spec is immutable but for images, deadlines, tolerations. */
function podSpecChanges(obj: KubeObject, old: KubeObject): FieldError[] {
  const before = isPlainObject(old.spec) ? old.spec.nodeName : undefined;
  const after = isPlainObject(obj.spec) ? obj.spec.nodeName : undefined;
  const rebound = before !== undefined && before !== "" && after !== before;
  if (!rebound && deepEqual(immutablePart(old.spec), immutablePart(obj.spec))) return [];
  return [{
    type: "FieldValueForbidden",
    field: "spec",
    detail:
      "Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.schedulingGates`",
  }];
}

const namespaceHooks: KindHooks = {
  prepareCreate(obj) {
    obj.spec = { finalizers: ["kubernetes"] };
    obj.status = { phase: "Active" };
  },
};

function podQos(obj: KubeObject): string {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  const hasResources = containers.some((c) =>
    isPlainObject(c) && isPlainObject(c.resources) &&
    (isPlainObject(c.resources.requests) || isPlainObject(c.resources.limits))
  );
  return hasResources ? "Burstable" : "BestEffort";
}

/** `latest` (or no tag and no digest) pulls always, as kube-apiserver defaults it. */
function pullPolicyOf(image: unknown): string {
  if (typeof image !== "string" || image.includes("@")) return "IfNotPresent";
  const last = image.slice(image.lastIndexOf("/") + 1);
  const tag = last.includes(":") ? last.slice(last.lastIndexOf(":") + 1) : "";
  return tag === "" || tag === "latest" ? "Always" : "IfNotPresent";
}

/**
 * Container defaults: termination message, pull policy, port protocol, and `resources: {}`
 * (kube-apiserver always writes that struct; kubectl sends it back, e.g. on rollout undo).
 */
function defaultContainers(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((c) => {
    if (!isPlainObject(c)) return c;
    const out = { ...c };
    out.terminationMessagePath ??= "/dev/termination-log";
    out.terminationMessagePolicy ??= "File";
    out.imagePullPolicy ??= pullPolicyOf(c.image);
    out.resources ??= {};
    if (Array.isArray(c.ports)) {
      out.ports = c.ports.map((p) =>
        isPlainObject(p) ? { ...p, protocol: p.protocol ?? "TCP" } : p
      );
    }
    return out;
  });
}

/** The pod spec defaults this server fills (pods, and the pod templates of workloads). */
function defaultPodSpec(given: unknown): Record<string, unknown> {
  const spec = isPlainObject(given) ? { ...given } : {};
  if ("containers" in spec) spec.containers = defaultContainers(spec.containers);
  if ("initContainers" in spec) spec.initContainers = defaultContainers(spec.initContainers);
  spec.securityContext ??= {};
  spec.restartPolicy ??= "Always";
  spec.schedulerName ??= "default-scheduler";
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= "ClusterFirst";
  spec.enableServiceLinks ??= true;
  // v1 conversion: the deprecated serviceAccount mirrors serviceAccountName (and fills it).
  if (!spec.serviceAccountName && typeof spec.serviceAccount === "string" && spec.serviceAccount) {
    spec.serviceAccountName = spec.serviceAccount;
  }
  if (typeof spec.serviceAccountName === "string" && spec.serviceAccountName) {
    spec.serviceAccount = spec.serviceAccountName;
  }
  return spec;
}

const podHooks: KindHooks = {
  defaults(obj) {
    obj.spec = defaultPodSpec(obj.spec);
  },
  prepareCreate(obj) {
    obj.status = { phase: "Pending", qosClass: podQos(obj) };
  },
  validate(obj, old) {
    return [
      ...validatePodSpec(obj),
      ...containerNameErrors(obj.spec, "spec"),
      ...(old ? podSpecChanges(obj, old) : []),
    ];
  },
};

function validatePodSpec(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj.spec;
  if (!isPlainObject(spec)) {
    return [{ type: "FieldValueRequired", field: "spec", detail: "Required value" }];
  }
  const containers = spec.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    errs.push({ type: "FieldValueRequired", field: "spec.containers", detail: "Required value" });
  } else {
    containers.forEach((c, i) => {
      if (!isPlainObject(c) || typeof c.name !== "string" || !c.name) {
        errs.push({
          type: "FieldValueRequired",
          field: `spec.containers[${i}].name`,
          detail: "Required value",
        });
      }
      if (!isPlainObject(c) || typeof c.image !== "string" || !c.image) {
        errs.push({
          type: "FieldValueRequired",
          field: `spec.containers[${i}].image`,
          detail: "Required value",
        });
      }
    });
  }
  return errs;
}

const secretHooks: KindHooks = {
  prepareCreate(obj) {
    obj.type ??= "Opaque";
  },
  validate(obj) {
    // stringData is write-only: fold it into data (base64) on every write.
    if (isPlainObject(obj.stringData)) {
      const data = isPlainObject(obj.data) ? { ...obj.data } : {};
      for (const [k, v] of Object.entries(obj.stringData)) {
        data[k] = bytesToBase64(new TextEncoder().encode(String(v)));
      }
      obj.data = data;
    }
    delete obj.stringData;
    return secretSizeErrors(obj);
  },
};

const configMapHooks: KindHooks = { validate: configMapSizeErrors };

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});

/** StatefulSet defaults of kube-apiserver 1.32 (`SetDefaults_StatefulSet`, claim templates). */
function defaultStatefulSet(spec: Obj): void {
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
  spec.revisionHistoryLimit ??= 10;
  if (Array.isArray(spec.volumeClaimTemplates)) {
    spec.volumeClaimTemplates = spec.volumeClaimTemplates.map((t) => {
      if (!isPlainObject(t)) return t;
      const claimSpec = rec(t.spec);
      claimSpec.volumeMode ??= "Filesystem";
      return {
        ...t,
        spec: claimSpec,
        status: { ...rec(t.status), phase: rec(t.status).phase || "Pending" },
      };
    });
  }
}

/** DaemonSet defaults of kube-apiserver 1.32 (`SetDefaults_DaemonSet`). */
function defaultDaemonSet(spec: Obj): void {
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
}

/**
 * apps/v1 defaults (replicas, the pod template's spec, each kind's update strategy and history
 * limit, as kube-apiserver's `SetDefaults_*` fill them on every write), and the container names
 * of the pod template.
 */
function workloadHooks(kind: "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet"): KindHooks {
  return {
    defaults(obj) {
      const spec = rec(obj.spec);
      if (kind !== "DaemonSet") spec.replicas ??= 1;
      const template = rec(spec.template);
      template.spec = defaultPodSpec(template.spec);
      spec.template = template;
      if (kind === "Deployment") {
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
      }
      if (kind === "StatefulSet") defaultStatefulSet(spec);
      if (kind === "DaemonSet") defaultDaemonSet(spec);
      obj.spec = spec;
    },
    validate(obj) {
      return containerNameErrors(rec(rec(obj.spec).template).spec, "spec.template.spec");
    },
  };
}

let nextClusterIp = 1;

const serviceHooks: KindHooks = {
  prepareCreate(obj) {
    const spec = isPlainObject(obj.spec) ? { ...obj.spec } : {};
    spec.type ??= "ClusterIP";
    if (spec.clusterIP !== "None" && !spec.clusterIP) {
      const n = nextClusterIp++;
      spec.clusterIP = `10.96.${(n >> 8) & 255}.${n & 255}`;
      spec.clusterIPs = [spec.clusterIP];
    }
    if (Array.isArray(spec.ports)) {
      spec.ports = spec.ports.map((p) =>
        isPlainObject(p) ? { protocol: "TCP", targetPort: p.port, ...p } : p
      );
    }
    obj.spec = spec;
    obj.status ??= { loadBalancer: {} };
  },
};

/**
 * Hooks of the built-in kinds, by storage key.
 *
 * @example
 * ```ts
 * import { builtinHooks } from "./builtin_hooks.ts";
 * builtinHooks().has("/pods"); // true
 * ```
 */
export function builtinHooks(): Map<string, KindHooks> {
  return new Map([
    ["/namespaces", namespaceHooks],
    ["/pods", podHooks],
    ["/secrets", secretHooks],
    ["/configmaps", configMapHooks],
    ["/services", serviceHooks],
    ["apps/deployments", workloadHooks("Deployment")],
    ["apps/replicasets", workloadHooks("ReplicaSet")],
    ["apps/statefulsets", workloadHooks("StatefulSet")],
    ["apps/daemonsets", workloadHooks("DaemonSet")],
    ...batchHooks(defaultPodSpec),
    ...webhookConfigurationHooks(),
    ...groupHooks(),
  ]);
}
