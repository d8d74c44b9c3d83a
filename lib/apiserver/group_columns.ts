/**
 * kubectl's table columns (as kube-apiserver's printers and kube-aggregator compute them) for
 * the kinds a typical operator bundle applies: volumes and storage classes, RBAC, networking,
 * policy, autoscaling, scheduling, quotas and APIServices.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { asRecord, isPlainObject, plainObjects } from "../core/object.ts";
import { formatTime } from "../core/time.ts";
import { formatLabelSelector, fromLabelSelectorObject } from "../core/label_selector.ts";
import type { TableColumn } from "./resource_info.ts";
import { ageColumn } from "./resource_info.ts";
import { col } from "./resource_spec.ts";

const text = (v: unknown, empty = "") => (v === undefined || v === null ? empty : String(v));

/** `RWO,ROX,RWX,RWOP` as `helper.GetAccessModesAsString` abbreviates access modes. */
export function accessModesText(modes: unknown): string {
  const given = Array.isArray(modes) ? modes.map(String) : [];
  const short: [string, string][] = [
    ["ReadWriteOnce", "RWO"],
    ["ReadOnlyMany", "ROX"],
    ["ReadWriteMany", "RWX"],
    ["ReadWriteOncePod", "RWOP"],
  ];
  return short.filter(([m]) => given.includes(m)).map(([, s]) => s).join(",");
}

/** `metav1.FormatLabelSelector`: the canonical selector, `<none>` when empty. */
export function selectorText(selector: unknown): string {
  if (!isPlainObject(selector)) return "<none>";
  const parsed = fromLabelSelectorObject(selector);
  if (parsed._tag === "Left") return "<error>";
  return formatLabelSelector(parsed.right) || "<none>";
}

const phaseOr = (o: KubeObject) =>
  o.metadata?.deletionTimestamp ? "Terminating" : text(asRecord(o.status).phase);

const unsetOr = (v: unknown) => (typeof v === "string" && v !== "" ? v : "<unset>");

/** `Created At`: kube-apiserver's default table for kinds without a printer (Roles). */
export const createdAtColumns: TableColumn[] = [{
  name: "Created At",
  type: "date",
  priority: 0,
  description:
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
  cell: (o) => {
    const ts = Date.parse(String(o.metadata?.creationTimestamp ?? ""));
    return Number.isNaN(ts) ? null : formatTime(ts);
  },
}];

/** The subjects of a binding, by kind, as `rbac.SubjectsStrings` lists them. */
function subjects(o: KubeObject, kind: string): string {
  return plainObjects(o.subjects).filter((s) => s.kind === kind).map((s) =>
    kind === "ServiceAccount" ? `${text(s.namespace)}:${text(s.name)}` : text(s.name)
  ).join(", ");
}

const bindingColumns: TableColumn[] = [
  col("Role", (o) => `${text(asRecord(o.roleRef).kind)}/${text(asRecord(o.roleRef).name)}`),
  ageColumn,
  col("Users", (o) => subjects(o, "User"), "string", 1),
  col("Groups", (o) => subjects(o, "Group"), "string", 1),
  col("ServiceAccounts", (o) => subjects(o, "ServiceAccount"), "string", 1),
];

/** The TARGETS cell of an autoscaling/v2 HorizontalPodAutoscaler (`formatHPAMetrics`). */
function hpaTargets(o: KubeObject): string {
  const specs = plainObjects(asRecord(o.spec).metrics);
  if (specs.length === 0) return "<none>";
  const statuses = plainObjects(asRecord(o.status).currentMetrics);
  const items = specs.map((m, i) => {
    const type = text(m.type);
    const source = asRecord(m[type.charAt(0).toLowerCase() + type.slice(1)]);
    const target = asRecord(source.target);
    const current =
      asRecord(asRecord(statuses[i])[type.charAt(0).toLowerCase() + type.slice(1)]).current;
    const cur = asRecord(current);
    if (type === "Resource" || type === "ContainerResource") {
      if (target.averageValue !== undefined) {
        return `${text(source.name)}: ${text(cur.averageValue, "<unknown>")}/${
          text(target.averageValue)
        }`;
      }
      const now = typeof cur.averageUtilization === "number"
        ? `${cur.averageUtilization}%`
        : "<unknown>";
      const want = typeof target.averageUtilization === "number"
        ? `${target.averageUtilization}%`
        : "<auto>";
      return `${text(source.name)}: ${now}/${want}`;
    }
    if (type === "Pods") {
      return `${text(cur.averageValue, "<unknown>")}/${text(target.averageValue)}`;
    }
    if (type === "Object" || type === "External") {
      return target.averageValue !== undefined
        ? `${text(cur.averageValue, "<unknown>")}/${text(target.averageValue)} (avg)`
        : `${text(cur.value, "<unknown>")}/${text(target.value)}`;
    }
    return "<unknown type>";
  });
  return items.length > 2
    ? `${items.slice(0, 2).join(", ")} + ${items.length - 2} more...`
    : items.join(", ");
}

/** `used/hard` pairs of a ResourceQuota, split into requests and limits. */
function quotaCell(o: KubeObject, limits: boolean): string {
  const status = asRecord(o.status), hard = asRecord(status.hard), used = asRecord(status.used);
  return Object.keys(hard).sort()
    .filter((k) => k.startsWith("limits.") === limits)
    .map((k) => `${k}: ${text(used[k], "0")}/${text(hard[k])}`).join(", ");
}

const hosts = (o: KubeObject): string => {
  const rules = plainObjects(asRecord(o.spec).rules);
  const named = rules.map((r) => text(r.host)).filter((h) => h).slice(0, 3);
  if (named.length === 0) return "*";
  return rules.length > 3 ? `${named.join(",")} + ${rules.length - 3} more...` : named.join(",");
};

const ingressAddress = (o: KubeObject): string => {
  const all = plainObjects(asRecord(asRecord(o.status).loadBalancer).ingress)
    .map((i) => text(i.ip) || text(i.hostname)).filter((x) => x);
  const joined = [...new Set(all)].sort().join(",");
  return joined.length > 16 ? `${joined.slice(0, 13)}...` : joined;
};

/** The AVAILABLE cell of an APIService: `True`, or `False (reason)`. */
function apiServiceAvailable(o: KubeObject): string {
  const cond = plainObjects(asRecord(o.status).conditions).find((c) => c.type === "Available");
  if (!cond) return "Unknown";
  return cond.status === "True" ? "True" : `${text(cond.status)} (${text(cond.reason)})`;
}

/**
 * The columns by plural. Entries marked `own` already include AGE where kubectl shows it.
 *
 * @example
 * ```ts
 * import { groupKindColumns } from "./group_columns.ts";
 * groupKindColumns.storageclasses.map((c) => c.name);
 * // ["Provisioner", "ReclaimPolicy", "VolumeBindingMode", "AllowVolumeExpansion"]
 * ```
 */
export const groupKindColumns = {
  persistentvolumes: [
    col("Capacity", (o) => text(asRecord(asRecord(o.spec).capacity).storage)),
    col("Access Modes", (o) => accessModesText(asRecord(o.spec).accessModes)),
    col("Reclaim Policy", (o) => text(asRecord(o.spec).persistentVolumeReclaimPolicy)),
    col("Status", phaseOr),
    col("Claim", (o) => {
      const ref = asRecord(asRecord(o.spec).claimRef);
      return ref.name === undefined ? "" : `${text(ref.namespace)}/${text(ref.name)}`;
    }),
    col("StorageClass", (o) => text(asRecord(o.spec).storageClassName)),
    col("VolumeAttributesClass", (o) => unsetOr(asRecord(o.spec).volumeAttributesClassName)),
    col("Reason", (o) => text(asRecord(o.status).reason)),
  ],
  persistentvolumesWide: [
    col("VolumeMode", (o) => unsetOr(asRecord(o.spec).volumeMode), "string", 1),
  ],
  persistentvolumeclaims: [
    col("Status", phaseOr),
    col("Volume", (o) => text(asRecord(o.spec).volumeName)),
    col(
      "Capacity",
      (o) => asRecord(o.spec).volumeName ? text(asRecord(asRecord(o.status).capacity).storage) : "",
    ),
    col(
      "Access Modes",
      (o) => asRecord(o.spec).volumeName ? accessModesText(asRecord(o.status).accessModes) : "",
    ),
    col("StorageClass", (o) => text(asRecord(o.spec).storageClassName)),
    col("VolumeAttributesClass", (o) => unsetOr(asRecord(o.spec).volumeAttributesClassName)),
  ],
  storageclasses: [
    col("Provisioner", (o) => text(o.provisioner)),
    col("ReclaimPolicy", (o) => text(o.reclaimPolicy, "Delete")),
    col("VolumeBindingMode", (o) => text(o.volumeBindingMode, "Immediate")),
    col("AllowVolumeExpansion", (o) => o.allowVolumeExpansion === true),
  ],
  serviceaccounts: [col("Secrets", (o) => plainObjects(o.secrets).length, "integer")],
  bindings: bindingColumns,
  ingresses: [
    col("Class", (o) => text(asRecord(o.spec).ingressClassName, "<none>")),
    col("Hosts", hosts),
    col("Address", ingressAddress),
    col("Ports", (o) => (plainObjects(asRecord(o.spec).tls).length ? "80, 443" : "80")),
  ],
  ingressclasses: [
    col("Controller", (o) => text(asRecord(o.spec).controller)),
    col("Parameters", (o) => {
      const p = asRecord(asRecord(o.spec).parameters);
      if (p.kind === undefined) return "<none>";
      return `${text(p.kind)}${p.apiGroup ? `.${text(p.apiGroup)}` : ""}/${text(p.name)}`;
    }),
  ],
  networkpolicies: [col("Pod-Selector", (o) => selectorText(asRecord(o.spec).podSelector ?? {}))],
  poddisruptionbudgets: [
    col("Min Available", (o) => text(asRecord(o.spec).minAvailable, "N/A")),
    col("Max Unavailable", (o) => text(asRecord(o.spec).maxUnavailable, "N/A")),
    col(
      "Allowed Disruptions",
      (o) => Number(asRecord(o.status).disruptionsAllowed ?? 0),
      "integer",
    ),
  ],
  horizontalpodautoscalers: [
    col("Reference", (o) => {
      const ref = asRecord(asRecord(o.spec).scaleTargetRef);
      return `${text(ref.kind)}/${text(ref.name)}`;
    }),
    col("Targets", hpaTargets),
    col("MinPods", (o) => text(asRecord(o.spec).minReplicas, "<unset>")),
    col("MaxPods", (o) => Number(asRecord(o.spec).maxReplicas ?? 0), "integer"),
    col("Replicas", (o) => Number(asRecord(o.status).currentReplicas ?? 0), "integer"),
  ],
  priorityclasses: [
    col("Value", (o) => Number(o.value ?? 0), "integer"),
    col("Global-Default", (o) => o.globalDefault === true, "boolean"),
  ],
  priorityclassesAfterAge: [col("PreemptionPolicy", (o) => text(o.preemptionPolicy))],
  resourcequotas: [
    ageColumn,
    col("Request", (o) => quotaCell(o, false)),
    col("Limit", (o) => quotaCell(o, true)),
  ],
  apiservices: [
    col("Service", (o) => {
      const svc = asRecord(asRecord(o.spec).service);
      return svc.name === undefined ? "Local" : `${text(svc.namespace)}/${text(svc.name)}`;
    }),
    col("Available", apiServiceAvailable),
  ],
} satisfies Record<string, TableColumn[]>;

/** The NAME cell of a default class: `standard (default)`. */
export function defaultClassName(annotation: string): (o: KubeObject) => string {
  return (o) => {
    const name = o.metadata?.name ?? "";
    return o.metadata?.annotations?.[annotation] === "true" ? `${name} (default)` : name;
  };
}
