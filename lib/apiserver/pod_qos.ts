/**
 * A pod's QoS class as kube-apiserver records it in `status.qosClass` on create
 * (pkg/apis/core/helper/qos: `GetPodQOS`).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject, plainObjects } from "../core/object.ts";
import { addQuantity, compareQuantity, parseQuantity, type Quantity } from "./cel/_quantity.ts";

/** The QoS classes. */
export type QosClass = "Guaranteed" | "Burstable" | "BestEffort";

const COMPUTE = ["cpu", "memory"] as const;
const ZERO: Quantity = { n: 0n, scale: 0 };

/** The positive cpu and memory quantities of a requests or limits map. */
function positive(list: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (!isPlainObject(list)) return out;
  for (const name of COMPUTE) {
    const text = list[name];
    const q = typeof text === "string" || typeof text === "number"
      ? parseQuantity(String(text))
      : undefined;
    if (q !== undefined && compareQuantity(q, ZERO) > 0) out.set(name, q);
  }
  return out;
}

/**
 * The QoS class of `pod`, as kube computes it: BestEffort when no container or init container
 * requests or limits cpu or memory; Guaranteed when every one limits both and the summed
 * requests equal the summed limits; Burstable otherwise. A container's missing requests count
 * as its limits (the API's defaulting, which runs before the class is recorded).
 *
 * @example
 * ```ts
 * import { podQosClass } from "./pod_qos.ts";
 * const pod = (resources: object) => ({ spec: { containers: [{ name: "c", resources }] } });
 * podQosClass(pod({})); // "BestEffort"
 * podQosClass(pod({ limits: { cpu: "1", memory: "1Gi" } })); // "Guaranteed"
 * podQosClass(pod({ requests: { cpu: "100m" } })); // "Burstable"
 * ```
 */
export function podQosClass(pod: KubeObject): QosClass {
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  const add = (into: Map<string, Quantity>, from: Map<string, Quantity>) => {
    for (const [name, q] of from) {
      const had = into.get(name);
      into.set(name, had === undefined ? q : addQuantity(had, q));
    }
  };
  let guaranteed = true;
  for (const c of [...plainObjects(spec.containers), ...plainObjects(spec.initContainers)]) {
    const resources = isPlainObject(c.resources) ? c.resources : {};
    const own = positive(resources.limits);
    const asked = positive(
      isPlainObject(resources.requests) || isPlainObject(resources.limits)
        ? {
          ...(isPlainObject(resources.limits) ? resources.limits : {}),
          ...(isPlainObject(resources.requests) ? resources.requests : {}),
        }
        : undefined,
    );
    add(requests, asked);
    add(limits, own);
    if (!COMPUTE.every((name) => own.has(name))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return "BestEffort";
  if (guaranteed) {
    for (const [name, q] of requests) {
      const limit = limits.get(name);
      if (limit === undefined || compareQuantity(limit, q) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? "Guaranteed" : "Burstable";
}
