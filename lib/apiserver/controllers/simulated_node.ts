/**
 * The Node objects of the simulated cluster (KWOK-style fake nodes).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";

/** Name of simulated node `index` (1-based). */
export function simulatedNodeName(index: number): string {
  return `kubefold-node-${index}`;
}

/** InternalIP of simulated node `index` (1-based): `10.0.0.<10 + index>` (wraps past 245). */
export function simulatedNodeIp(index: number): string {
  const n = 10 + index;
  return `10.0.${Math.floor(n / 256)}.${n % 256}`;
}

/**
 * Simulated node `index` (1-based) without status, as created.
 *
 * @example
 * ```ts
 * import { simulatedNode } from "./simulated_node.ts";
 * simulatedNode(1).metadata?.name; // "kubefold-node-1"
 * ```
 */
export function simulatedNode(index: number): KubeObject {
  const name = simulatedNodeName(index);
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "beta.kubernetes.io/arch": "amd64",
        type: "kwok",
      },
      annotations: { "node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake" },
    },
    spec: { podCIDR: `10.244.${index % 256}.0/24`, podCIDRs: [`10.244.${index % 256}.0/24`] },
  };
}

/** A node condition with heartbeat and transition times. */
export interface NodeCondition {
  readonly type: string;
  readonly status: "True" | "False" | "Unknown";
  readonly reason: string;
  readonly message: string;
  readonly lastHeartbeatTime: string;
  readonly lastTransitionTime: string;
}

const pressure: [string, string, string][] = [
  ["MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"],
  ["DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"],
  ["PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"],
  ["NetworkUnavailable", "RouteCreated", "route created"],
];

/**
 * The status of simulated node `index` at `nowMs`: Ready (or, when `ready` is false,
 * `Unknown` as after lost heartbeats), with addresses, capacity and nodeInfo.
 *
 * @example
 * ```ts
 * import { simulatedNodeStatus } from "./simulated_node.ts";
 * simulatedNodeStatus(2, 0, true).addresses; // [{type:"InternalIP",address:"10.0.0.12"},{type:"Hostname",address:"kubefold-node-2"}]
 * ```
 */
export function simulatedNodeStatus(index: number, nowMs: number, ready: boolean) {
  const now = formatTime(nowMs);
  const cond = (
    type: string,
    status: NodeCondition["status"],
    reason: string,
    message: string,
  ) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  });
  const resources = { cpu: "32", memory: "256Gi", pods: "110", "ephemeral-storage": "1Ti" };
  return {
    capacity: resources,
    allocatable: resources,
    phase: "Running",
    conditions: [
      ...pressure.map(([t, r, m]) =>
        ready
          ? cond(t, "False", r, m)
          : cond(t, "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.")
      ),
      ready
        ? cond("Ready", "True", "KubeletReady", "kubelet is posting ready status")
        : cond("Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."),
    ],
    addresses: [
      { type: "InternalIP", address: simulatedNodeIp(index) },
      { type: "Hostname", address: simulatedNodeName(index) },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: `kubefold-machine-${index}`,
      systemUUID: `kubefold-system-${index}`,
      bootID: `kubefold-boot-${index}`,
      kernelVersion: "6.1.0",
      osImage: "kubefold simulated node",
      containerRuntimeVersion: "containerd://1.7.0",
      kubeletVersion: "v1.32.0",
      kubeProxyVersion: "v1.32.0",
      operatingSystem: "linux",
      architecture: "amd64",
    },
  };
}
