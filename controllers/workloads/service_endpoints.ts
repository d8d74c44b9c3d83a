/**
 * `serviceEndpoints`: the addresses and ports a Service selects — its pods with an IP, ready
 * or not, each service port resolved against the pod (a named `targetPort` is looked up in
 * the pod's container ports).
 *
 * @module
 */
import type { k8sCore } from "../../lib/deps.ts";
import { matchesLabels } from "../../lib/core/label_selector.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { isPodReady, type Pod } from "./pod_facts.ts";

/** A v1 Service. */
export type Service = k8sCore.Service;

/** One resolved port of an endpoint. */
export interface ResolvedPort {
  readonly name?: string;
  readonly port: number;
  readonly protocol: string;
  readonly appProtocol?: string;
}

/** One pod behind a Service. */
export interface ServiceEndpoint {
  readonly pod: DeepReadonly<Pod>;
  readonly ip: string;
  /** Ready condition True (and Running). */
  readonly ready: boolean;
  /** Being deleted. */
  readonly terminating: boolean;
  /** The service's ports this pod serves, in the service's order. */
  readonly ports: readonly ResolvedPort[];
}

type SvcPort = NonNullable<NonNullable<Service["spec"]>["ports"]>[number];

/** The pod port a service port maps to, or undefined when a named port is missing. */
function resolve(sp: DeepReadonly<SvcPort>, pod: DeepReadonly<Pod>): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === "number") return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? "TCP") === (sp.protocol ?? "TCP")) {
        return p.containerPort;
      }
    }
  }
  return undefined;
}

/**
 * The endpoints of a Service with a selector (undefined for a Service without one, which the
 * endpoints controllers leave alone): pods in its namespace matching the selector, with an
 * IP, not finished; sorted by pod name.
 *
 * @example
 * ```ts
 * import { serviceEndpoints } from "./service_endpoints.ts";
 * const svc = { metadata: { namespace: "d", name: "web" },
 *   spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http" }] } };
 * const pod = { metadata: { namespace: "d", name: "web-1", labels: { app: "web" } },
 *   spec: { containers: [{ name: "c", ports: [{ name: "http", containerPort: 8080 }] }] },
 *   status: { phase: "Running", podIP: "10.244.1.2", conditions: [{ type: "Ready", status: "True" }] } };
 * serviceEndpoints(svc, [pod])?.[0].ports[0].port; // 8080
 * ```
 */
export function serviceEndpoints(
  svc: DeepReadonly<Service>,
  pods: readonly DeepReadonly<Pod>[],
): ServiceEndpoint[] | undefined {
  const selector = svc.spec?.selector;
  if (!selector || Object.keys(selector).length === 0) return undefined;
  if (svc.spec?.type === "ExternalName") return undefined;
  const wanted = Object.entries(selector).map(([key, value]) => ({
    type: "equals" as const,
    key,
    value,
  }));
  const out: ServiceEndpoint[] = [];
  for (const pod of pods) {
    if (pod.metadata?.namespace !== svc.metadata?.namespace) continue;
    if (!matchesLabels(wanted, pod.metadata?.labels)) continue;
    const phase = pod.status?.phase;
    const ip = pod.status?.podIP;
    if (!ip || phase === "Succeeded" || phase === "Failed") continue;
    const ports: ResolvedPort[] = [];
    for (const sp of svc.spec?.ports ?? []) {
      const port = resolve(sp, pod);
      if (port === undefined) continue;
      ports.push({
        ...(sp.name ? { name: sp.name } : {}),
        port,
        protocol: sp.protocol ?? "TCP",
        ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    out.push({
      pod,
      ip,
      ready: phase === "Running" && isPodReady(pod),
      terminating: !!pod.metadata?.deletionTimestamp,
      ports,
    });
  }
  return out.sort((a, b) => (a.pod.metadata?.name ?? "") < (b.pod.metadata?.name ?? "") ? -1 : 1);
}
