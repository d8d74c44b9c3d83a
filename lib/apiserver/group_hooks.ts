/**
 * Create defaults of the volume, networking, policy, autoscaling and scheduling kinds
 * (kube-apiserver's defaulting functions and registry strategies), plus the admission plugins
 * that fills an Ingress's class from the default one (DefaultIngressClass; DefaultStorageClass
 * is in `admission/default_storage_class.ts`).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject, plainObjects } from "../core/object.ts";
import { formatTime } from "../core/time.ts";
import type { KindHooks, ServerContext } from "./context.ts";
import { DEFAULT_INGRESS_CLASS_ANNOTATION } from "./group_resources.ts";
import { compareStrings } from "../core/compare_strings.ts";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});

/**
 * The default class among cluster-scoped class objects: the newest one annotated as default
 * (as the admission plugins pick when several are marked), or undefined.
 */
export function defaultClassOf(
  ctx: ServerContext,
  storageKey: string,
  annotation: string,
): string | undefined {
  const marked = ctx.storage.list(storageKey).map((s) => s.object)
    .filter((o) =>
      o.metadata?.annotations?.[annotation] === "true" && !o.metadata.deletionTimestamp
    )
    .sort((a, b) =>
      compareStrings(
        String(b.metadata?.creationTimestamp ?? ""),
        String(a.metadata?.creationTimestamp ?? ""),
      ) || compareStrings(String(a.metadata?.name), String(b.metadata?.name))
    );
  return marked[0]?.metadata?.name;
}

const pvHooks: KindHooks = {
  defaults(obj) {
    const spec = rec(obj.spec);
    spec.persistentVolumeReclaimPolicy ??= "Retain";
    spec.volumeMode ??= "Filesystem";
    obj.spec = spec;
  },
  prepareCreate(obj, ctx) {
    obj.status = { phase: "Pending", lastPhaseTransitionTime: formatTime(ctx.now()) };
  },
};

const pvcHooks: KindHooks = {
  defaults(obj) {
    const spec = rec(obj.spec);
    spec.volumeMode ??= "Filesystem";
    obj.spec = spec;
  },
  // DefaultStorageClass is a built-in mutating admission plugin (admission/mod.ts).
  prepareCreate(obj) {
    obj.status = { phase: "Pending" };
  },
};

const storageClassHooks: KindHooks = {
  defaults(obj) {
    obj.reclaimPolicy ??= "Delete";
    obj.volumeBindingMode ??= "Immediate";
  },
};

const ingressHooks: KindHooks = {
  prepareCreate(obj, ctx) {
    const spec = rec(obj.spec);
    if (spec.ingressClassName === undefined || spec.ingressClassName === null) {
      const ann = obj.metadata?.annotations?.["kubernetes.io/ingress.class"];
      const name = ann === undefined
        ? defaultClassOf(ctx, "networking.k8s.io/ingressclasses", DEFAULT_INGRESS_CLASS_ANNOTATION)
        : undefined;
      if (name !== undefined) spec.ingressClassName = name;
    }
    obj.spec = spec;
    obj.status = { loadBalancer: {} };
  },
};

const withProtocol = (ports: unknown) =>
  plainObjects(ports).map((p) => ({ ...p, protocol: p.protocol ?? "TCP" }));

const networkPolicyHooks: KindHooks = {
  defaults(obj) {
    const spec = rec(obj.spec);
    spec.podSelector ??= {};
    for (const dir of ["ingress", "egress"] as const) {
      if (Array.isArray(spec[dir])) {
        spec[dir] = plainObjects(spec[dir]).map((r) =>
          Array.isArray(r.ports) ? { ...r, ports: withProtocol(r.ports) } : r
        );
      }
    }
    if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
      spec.policyTypes = Array.isArray(spec.egress) ? ["Ingress", "Egress"] : ["Ingress"];
    }
    obj.spec = spec;
  },
};

const pdbHooks: KindHooks = {
  prepareCreate(obj) {
    obj.status = { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
  },
};

const scaleUpDefault = {
  stabilizationWindowSeconds: 0,
  selectPolicy: "Max",
  policies: [
    { type: "Pods", value: 4, periodSeconds: 15 },
    { type: "Percent", value: 100, periodSeconds: 15 },
  ],
};
const scaleDownDefault = {
  stabilizationWindowSeconds: 300,
  selectPolicy: "Max",
  policies: [{ type: "Percent", value: 100, periodSeconds: 15 }],
};

/** Fills the unset parts of one scaling direction from its default rules. */
function scalingRules(given: unknown, fallback: Obj): Obj {
  if (!isPlainObject(given)) return fallback;
  return {
    stabilizationWindowSeconds: given.stabilizationWindowSeconds ??
      fallback.stabilizationWindowSeconds,
    selectPolicy: given.selectPolicy ?? fallback.selectPolicy,
    policies: given.policies ?? fallback.policies,
    ...(given.tolerance !== undefined ? { tolerance: given.tolerance } : {}),
  };
}

/** autoscaling/v2 defaults (the stored version): minReplicas, CPU 80%, behavior. */
const hpaHooks: KindHooks = {
  defaults(obj) {
    const spec = rec(obj.spec);
    spec.minReplicas ??= 1;
    if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
      spec.metrics = [{
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
      }];
    }
    if (isPlainObject(spec.behavior)) {
      spec.behavior = {
        scaleUp: scalingRules(spec.behavior.scaleUp, scaleUpDefault),
        scaleDown: scalingRules(spec.behavior.scaleDown, scaleDownDefault),
      };
    }
    obj.spec = spec;
  },
  prepareCreate(obj) {
    // An empty v2 status as Go writes it: currentReplicas is omitempty in v2 (not in v1,
    // whose view fills it).
    obj.status = { desiredReplicas: 0 };
  },
};

const priorityClassHooks: KindHooks = {
  defaults(obj) {
    obj.preemptionPolicy ??= "PreemptLowerPriority";
  },
};

const apiServiceHooks: KindHooks = {
  prepareCreate(obj: KubeObject) {
    obj.status ??= {};
  },
};

/**
 * The hooks by storage key.
 *
 * @example
 * ```ts
 * import { groupHooks } from "./group_hooks.ts";
 * const sc = { metadata: { name: "fast" }, provisioner: "x" };
 * new Map(groupHooks()).get("storage.k8s.io/storageclasses")?.defaults?.(sc);
 * (sc as { volumeBindingMode?: string }).volumeBindingMode; // "Immediate"
 * ```
 */
export function groupHooks(): [string, KindHooks][] {
  return [
    ["/persistentvolumes", pvHooks],
    ["/persistentvolumeclaims", pvcHooks],
    ["storage.k8s.io/storageclasses", storageClassHooks],
    ["networking.k8s.io/ingresses", ingressHooks],
    ["networking.k8s.io/networkpolicies", networkPolicyHooks],
    ["policy/poddisruptionbudgets", pdbHooks],
    ["autoscaling/horizontalpodautoscalers", hpaHooks],
    ["scheduling.k8s.io/priorityclasses", priorityClassHooks],
    ["apiregistration.k8s.io/apiservices", apiServiceHooks],
  ];
}
