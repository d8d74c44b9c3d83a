/**
 * The Priority admission plugin for pods: `spec.priority` (and `preemptionPolicy`) from the
 * named PriorityClass, the global default one, or 0; a missing class is refused.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { forbid } from "./forbid.ts";

const KEY = "scheduling.k8s.io/priorityclasses";

/**
 * Admits a pod being created (mutating `pod`), as kube-apiserver's Priority plugin.
 *
 * @example
 * ```ts ignore
 * admitPriority(ctx, pod); // pod.spec.priority === 0 without classes
 * ```
 */
export function admitPriority(ctx: ServerContext, pod: KubeObject): void {
  const spec = isPlainObject(pod.spec) ? { ...pod.spec } : {};
  let value = 0;
  let policy = "PreemptLowerPriority";
  const name = typeof spec.priorityClassName === "string" ? spec.priorityClassName : "";
  if (name) {
    const pc = ctx.storage.get(KEY, name)?.object;
    if (!pc) {
      forbid("pods", pod, `no PriorityClass with name ${name} was found`);
    }
    value = Number(pc.value ?? 0);
    policy = String(pc.preemptionPolicy ?? policy);
  } else {
    const global = ctx.storage.list(KEY).map((s) => s.object).find((pc) =>
      pc.globalDefault === true
    );
    if (global) {
      spec.priorityClassName = global.metadata!.name;
      value = Number(global.value ?? 0);
      policy = String(global.preemptionPolicy ?? policy);
    }
  }
  if (typeof spec.priority === "number" && spec.priority !== value) {
    forbid(
      "pods",
      pod,
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`,
    );
  }
  spec.priority = value;
  spec.preemptionPolicy ??= policy;
  pod.spec = spec;
}

/**
 * On update, a pod without `priority` / `preemptionPolicy` keeps the old ones (as the Priority
 * plugin preserves what it set on create), so a PUT of the original manifest is no change.
 *
 * @example
 * ```ts
 * import { keepPriority } from "./priority_admission.ts";
 * const pod = { spec: { containers: [] } };
 * keepPriority(pod, { spec: { priority: 0, preemptionPolicy: "PreemptLowerPriority" } });
 * (pod.spec as { priority?: number }).priority; // 0
 * ```
 */
export function keepPriority(pod: KubeObject, old: KubeObject): void {
  if (!isPlainObject(pod.spec) || !isPlainObject(old.spec)) return;
  const spec = { ...pod.spec };
  if (spec.priority == null && old.spec.priority != null) {
    spec.priority = old.spec.priority;
  }
  if (spec.preemptionPolicy == null && old.spec.preemptionPolicy != null) {
    spec.preemptionPolicy = old.spec.preemptionPolicy;
  }
  pod.spec = spec;
}
