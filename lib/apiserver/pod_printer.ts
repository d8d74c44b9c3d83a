/**
 * kube-apiserver's Pod table columns and Pod field selectors.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { TableColumn } from "./resource_info.ts";

type ContainerStatus = {
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; terminated?: { reason?: string } };
};

const spec = (o: KubeObject) => (o.spec ?? {}) as Record<string, unknown>;
const status = (o: KubeObject) => (o.status ?? {}) as Record<string, unknown>;
const statuses = (o: KubeObject): ContainerStatus[] => {
  const cs = status(o).containerStatuses;
  return Array.isArray(cs) ? cs as ContainerStatus[] : [];
};

/** The STATUS column: Terminating, a container's waiting reason, the pod reason, or the phase. */
export function podStatusReason(o: KubeObject): string {
  if (o.metadata?.deletionTimestamp) return "Terminating";
  const reason = status(o).reason;
  if (typeof reason === "string" && reason) return reason;
  for (const c of statuses(o)) {
    const r = c.state?.waiting?.reason ?? c.state?.terminated?.reason;
    if (r) return r;
  }
  const phase = status(o).phase;
  return typeof phase === "string" ? phase : "Pending";
}

const col = (
  name: string,
  cell: TableColumn["cell"],
  priority = 0,
  type: TableColumn["type"] = "string",
): TableColumn => ({ name, type, priority, description: name, cell });

/** READY STATUS RESTARTS (then AGE), and IP NODE NOMINATED NODE READINESS GATES for `-o wide`. */
export const podColumns: TableColumn[] = [
  col("Ready", (o) => {
    const containers = Array.isArray(spec(o).containers) ? (spec(o).containers as unknown[]) : [];
    return `${statuses(o).filter((c) => c.ready).length}/${containers.length}`;
  }),
  col("Status", podStatusReason),
  col("Restarts", (o) => String(statuses(o).reduce((n, c) => n + (c.restartCount ?? 0), 0))),
];

/** Columns that kube-apiserver lists after AGE for pods (priority 1: `-o wide`). */
export const podWideColumns: TableColumn[] = [
  col("IP", (o) => status(o).podIP ?? "<none>", 1),
  col("Node", (o) => spec(o).nodeName ?? "<none>", 1),
  col("Nominated Node", (o) => status(o).nominatedNodeName ?? "<none>", 1),
  col("Readiness Gates", (o) => {
    const gates = spec(o).readinessGates;
    return Array.isArray(gates) && gates.length ? `0/${gates.length}` : "<none>";
  }, 1),
];

const s = (v: unknown) => v === undefined || v === null ? undefined : String(v);

/** Field selectors pods support beyond metadata.name/namespace. */
export const podFieldSelectors: Record<string, (o: KubeObject) => string | undefined> = {
  "spec.nodeName": (o) => s(spec(o).nodeName) ?? "",
  "spec.restartPolicy": (o) => s(spec(o).restartPolicy) ?? "",
  "spec.schedulerName": (o) => s(spec(o).schedulerName) ?? "",
  "spec.serviceAccountName": (o) => s(spec(o).serviceAccountName) ?? "",
  "spec.hostNetwork": (o) => String(spec(o).hostNetwork ?? false),
  "status.phase": (o) => s(status(o).phase) ?? "",
  "status.podIP": (o) => s(status(o).podIP) ?? "",
  "status.nominatedNodeName": (o) => s(status(o).nominatedNodeName) ?? "",
};
