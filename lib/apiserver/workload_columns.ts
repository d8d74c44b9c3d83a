/**
 * kubectl's table columns (before Age) for the workload kinds the embedded cluster runs:
 * DaemonSets, Jobs, CronJobs, ReplicationControllers, Endpoints and EndpointSlices — the
 * same columns and cell formats as kube-apiserver's table printers.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { asRecord, plainObjects } from "../core/object.ts";
import { humanDuration } from "../core/time.ts";
import type { TableColumn } from "./resource_info.ts";
import { compareStrings } from "../core/compare_strings.ts";

const num = (v: unknown) => (typeof v === "number" ? v : 0);

const col = (
  name: string,
  cell: TableColumn["cell"],
  type: TableColumn["type"] = "string",
  priority = 0,
): TableColumn => ({ name, type, priority, description: name, cell });

/** `a,b,c + N more...` as the printers shorten lists (at most three entries). */
function shortList(items: readonly string[], empty: string): string {
  if (items.length === 0) return empty;
  const shown = items.slice(0, 3).join(",");
  return items.length > 3 ? `${shown} + ${items.length - 3} more...` : shown;
}

const hasTrue = (o: KubeObject, type: string) =>
  plainObjects(asRecord(o.status).conditions).some((c) => c.type === type && c.status === "True");

/** The Job STATUS cell: Complete, Failed, Terminating, Suspended, FailureTarget, Running. */
function jobStatus(o: KubeObject): string {
  if (hasTrue(o, "Complete")) return "Complete";
  if (hasTrue(o, "Failed")) return "Failed";
  if (o.metadata?.deletionTimestamp) return "Terminating";
  if (hasTrue(o, "Suspended")) return "Suspended";
  if (hasTrue(o, "FailureTarget")) return "FailureTarget";
  return "Running";
}

function jobCompletions(o: KubeObject): string {
  const spec = asRecord(o.spec), succeeded = num(asRecord(o.status).succeeded);
  if (typeof spec.completions === "number") return `${succeeded}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(o: KubeObject, now: number): string {
  const status = asRecord(o.status);
  const start = Date.parse(String(status.startTime ?? ""));
  if (Number.isNaN(start)) return "";
  const end = Date.parse(String(status.completionTime ?? ""));
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

const labelsText = (v: unknown) => {
  const entries = Object.entries(asRecord(v)).sort(([a], [b]) => compareStrings(a, b));
  return entries.length ? entries.map(([k, x]) => `${k}=${x}`).join(",") : "<none>";
};

/** `ip:port` pairs of an Endpoints object (core/v1). */
function endpointsCell(o: KubeObject): string {
  const pairs: string[] = [];
  for (const subset of plainObjects(o.subsets)) {
    const ports = plainObjects(subset.ports);
    for (const addr of plainObjects(subset.addresses)) {
      if (ports.length === 0) pairs.push(String(addr.ip));
      for (const p of ports) {
        const ip = String(addr.ip);
        pairs.push(`${ip.includes(":") ? `[${ip}]` : ip}:${p.port}`);
      }
    }
  }
  return shortList(pairs, "<none>");
}

/** The EXTERNAL-IP cell of a Service, by its type. */
function externalIp(o: KubeObject): string {
  const spec = asRecord(o.spec);
  const external = Array.isArray(spec.externalIPs) ? spec.externalIPs.map(String) : [];
  switch (spec.type) {
    case "ExternalName":
      return String(spec.externalName ?? "");
    case "LoadBalancer": {
      const ingress = plainObjects(asRecord(asRecord(o.status).loadBalancer).ingress)
        .map((i) => String(i.ip ?? i.hostname ?? "")).filter((x) => x);
      const all = [...ingress, ...external];
      return all.length ? all.join(",") : "<pending>";
    }
    default:
      return external.length ? external.join(",") : "<none>";
  }
}

/** The PORT(S) cell: `port[:nodePort]/protocol`, comma-separated. */
function servicePorts(o: KubeObject): string {
  const ports = plainObjects(asRecord(o.spec).ports).map((p) =>
    `${p.port}${typeof p.nodePort === "number" && p.nodePort > 0 ? `:${p.nodePort}` : ""}/${
      p.protocol ?? "TCP"
    }`
  );
  return ports.length ? ports.join(",") : "<none>";
}

/**
 * The columns by plural (`services`, `jobs`, `cronjobs`, `daemonsets`,
 * `replicationcontrollers`, `endpoints`, `endpointslices`).
 *
 * @example
 * ```ts
 * import { workloadKindColumns } from "./workload_columns.ts";
 * workloadKindColumns.jobs.map((c) => c.name); // ["Status", "Completions", "Duration"]
 * const job = { status: { succeeded: 1, conditions: [{ type: "Complete", status: "True" }] }, spec: { completions: 2 } };
 * workloadKindColumns.jobs[0].cell(job, 0); // "Complete"
 * ```
 */
export const workloadKindColumns: Readonly<Record<string, TableColumn[]>> = {
  services: [
    col("Type", (o) => String(asRecord(o.spec).type ?? "ClusterIP")),
    col("Cluster-IP", (o) => {
      const spec = asRecord(o.spec);
      const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
      return String(ips[0] ?? spec.clusterIP ?? "<none>");
    }),
    col("External-IP", externalIp),
    col("Port(s)", servicePorts),
  ],
  daemonsets: [
    col("Desired", (o) => num(asRecord(o.status).desiredNumberScheduled), "integer"),
    col("Current", (o) => num(asRecord(o.status).currentNumberScheduled), "integer"),
    col("Ready", (o) => num(asRecord(o.status).numberReady), "integer"),
    col("Up-to-date", (o) => num(asRecord(o.status).updatedNumberScheduled), "integer"),
    col("Available", (o) => num(asRecord(o.status).numberAvailable), "integer"),
    col(
      "Node Selector",
      (o) => labelsText(asRecord(asRecord(asRecord(o.spec).template).spec).nodeSelector),
    ),
  ],
  jobs: [
    col("Status", jobStatus),
    col("Completions", jobCompletions),
    col("Duration", jobDuration),
  ],
  cronjobs: [
    col("Schedule", (o) => String(asRecord(o.spec).schedule ?? "")),
    col("Timezone", (o) => String(asRecord(o.spec).timeZone ?? "<none>")),
    col("Suspend", (o) => String(asRecord(o.spec).suspend === true ? "True" : "False")),
    col("Active", (o) => plainObjects(asRecord(o.status).active).length, "integer"),
    col("Last Schedule", (o, now) => {
      const t = Date.parse(String(asRecord(o.status).lastScheduleTime ?? ""));
      return Number.isNaN(t) ? "<none>" : humanDuration(now - t);
    }),
  ],
  replicationcontrollers: [
    col("Desired", (o) => num(asRecord(o.spec).replicas), "integer"),
    col("Current", (o) => num(asRecord(o.status).replicas), "integer"),
    col("Ready", (o) => num(asRecord(o.status).readyReplicas), "integer"),
  ],
  endpoints: [col("Endpoints", endpointsCell)],
  endpointslices: [
    col("AddressType", (o) => String(o.addressType ?? "")),
    col("Ports", (o) =>
      shortList(
        plainObjects(o.ports).map((p) =>
          typeof p.port === "number" ? String(p.port) : typeof p.name === "string" ? p.name : "*"
        ),
        "<unset>",
      )),
    col("Endpoints", (o) =>
      shortList(
        plainObjects(o.endpoints).flatMap((
          e,
        ) => (Array.isArray(e.addresses) ? e.addresses.map(String) : [])),
        "<unset>",
      )),
  ],
};
