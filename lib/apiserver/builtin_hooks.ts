/**
 * Kind-specific behaviour of built-in resources (kube-apiserver's registry strategies):
 * what namespaces, pods, secrets, services, jobs and cron jobs set on create and check on
 * update, composed with every kind's defaults and validation rules.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import type { KindHooks, ServerContext } from "./context.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { batchHooks } from "./batch_hooks.ts";
import { groupHooks } from "./group_hooks.ts";
import { bytesToBase64, configMapSizeErrors, secretSizeErrors } from "./data_size_limits.ts";
import { containerNameErrors } from "./container_names.ts";
import { builtinResources } from "./builtin_resources.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { withKindRules } from "./builtin_rules.ts";
import { podQosClass } from "./pod_qos.ts";
import {
  prepareServiceCreate,
  prepareServiceUpdate,
  serviceAllocations,
} from "./defaults/service_defaults.ts";
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

const podHooks: KindHooks = {
  prepareCreate(obj) {
    obj.status = { phase: "Pending", qosClass: podQosClass(obj) };
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

const servicesOf = (ctx: ServerContext, except?: KubeObject) =>
  serviceAllocations(
    ctx.storage.list("/services").map((s) => s.object).filter((o) =>
      o.metadata?.uid !== except?.metadata?.uid
    ),
  );

const configMapHooks: KindHooks = { validate: configMapSizeErrors };

const serviceHooks: KindHooks = {
  prepareCreate(obj, ctx) {
    prepareServiceCreate(obj, servicesOf(ctx));
    obj.status ??= { loadBalancer: {} };
  },
  prepareUpdate(obj, old, ctx) {
    prepareServiceUpdate(obj, old, servicesOf(ctx, old));
  },
};

/**
 * Hooks of the built-in kinds, by storage key: each kind's own behaviour with
 * kube-apiserver's defaults and validation rules (`builtin_rules.ts`) composed on.
 *
 * @param resources the served built-in resources (default: the catalog)
 *
 * @example
 * ```ts
 * import { builtinHooks } from "./builtin_hooks.ts";
 * builtinHooks().has("/pods"); // true
 * ```
 */
export function builtinHooks(
  resources: readonly ResourceInfo[] = builtinResources(),
): Map<string, KindHooks> {
  const templateNames: KindHooks = {
    validate: (obj) =>
      containerNameErrors(
        isPlainObject(obj.spec) && isPlainObject(obj.spec.template)
          ? obj.spec.template.spec
          : undefined,
        "spec.template.spec",
      ),
  };
  const own = new Map<string, KindHooks>([
    ["/namespaces", namespaceHooks],
    ["apps/deployments", templateNames],
    ["apps/replicasets", templateNames],
    ["apps/statefulsets", templateNames],
    ["apps/daemonsets", templateNames],
    ["/pods", podHooks],
    ["/secrets", secretHooks],
    ["/configmaps", configMapHooks],
    ["/services", serviceHooks],
    ...batchHooks(),
    ...webhookConfigurationHooks(),
    ...groupHooks(),
  ]);
  const hooks = new Map<string, KindHooks>();
  for (const info of resources) {
    // A version stored as another kind's (events.k8s.io) is admitted as that kind.
    if (info.convert || hooks.has(info.storageKey)) continue;
    const composed = withKindRules(info.group, info.kind, own.get(info.storageKey));
    if (composed) hooks.set(info.storageKey, composed);
  }
  for (const [key, h] of own) if (!hooks.has(key)) hooks.set(key, h);
  return hooks;
}
