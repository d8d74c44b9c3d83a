/**
 * The catalog of built-in resources the embedded API server serves schema-less.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { ageColumn, type ResourceInfo, type TableColumn } from "./resource_info.ts";
import { podColumns, podFieldSelectors, podWideColumns } from "./pod_printer.ts";
import { eventFromCore, eventToCore } from "./event_conversion.ts";
import { workloadKindColumns } from "./workload_columns.ts";
import { storageVersionHash } from "./storage_version_hash.ts";

type Spec = {
  gv: string;
  plural: string;
  kind: string;
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  status?: boolean;
  scale?: boolean;
  generation?: boolean;
  returnDeleted?: boolean;
  nameRule?: ResourceInfo["nameRule"];
  extra?: ResourceInfo["extraSubresources"];
  fields?: ResourceInfo["fieldSelectors"];
  columns?: TableColumn[];
  wide?: TableColumn[];
  storedAs?: string;
  convert?: ResourceInfo["convert"];
};

const str = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : String(v);
const at = (obj: KubeObject, ...path: string[]): unknown => {
  let cur: unknown = obj;
  for (const p of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
};
const col = (
  name: string,
  cell: TableColumn["cell"],
  type: TableColumn["type"] = "string",
  priority = 0,
): TableColumn => ({ name, type, priority, description: name, cell });

const readyOf = (o: KubeObject) =>
  `${at(o, "status", "readyReplicas") ?? 0}/${at(o, "spec", "replicas") ?? 0}`;

const count = (o: KubeObject, ...path: string[]) => Number(at(o, ...path) ?? 0);

/** kubectl's columns for the apps/v1 workloads (before Age). */
const workloadColumns: Record<string, TableColumn[]> = {
  deployments: [
    col("Ready", readyOf),
    col("Up-to-date", (o) => count(o, "status", "updatedReplicas"), "integer"),
    col("Available", (o) => count(o, "status", "availableReplicas"), "integer"),
  ],
  replicasets: [
    col("Desired", (o) => count(o, "spec", "replicas"), "integer"),
    col("Current", (o) => count(o, "status", "replicas"), "integer"),
    col("Ready", (o) => count(o, "status", "readyReplicas"), "integer"),
  ],
  statefulsets: [col("Ready", readyOf)],
};

const specs: Spec[] = [
  {
    gv: "v1",
    plural: "namespaces",
    kind: "Namespace",
    namespaced: false,
    shortNames: ["ns"],
    status: true,
    returnDeleted: true,
    nameRule: "label",
    fields: { "status.phase": (o) => str(at(o, "status", "phase")) },
    columns: [col("Status", (o) => at(o, "status", "phase"))],
  },
  {
    gv: "v1",
    plural: "nodes",
    kind: "Node",
    namespaced: false,
    shortNames: ["no"],
    status: true,
    fields: { "spec.unschedulable": (o) => String(at(o, "spec", "unschedulable") ?? false) },
    columns: [
      col("Status", (o) => {
        const conds = (at(o, "status", "conditions") ?? []) as { type?: string; status?: string }[];
        const ready = Array.isArray(conds) ? conds.find((c) => c.type === "Ready") : undefined;
        return ready?.status === "True" ? "Ready" : "NotReady";
      }),
      col("Roles", () => "<none>"),
      col("Version", (o) => at(o, "status", "nodeInfo", "kubeletVersion") ?? ""),
    ],
  },
  {
    gv: "v1",
    plural: "pods",
    kind: "Pod",
    shortNames: ["po"],
    categories: ["all"],
    status: true,
    returnDeleted: true,
    extra: [
      { name: "attach", kind: "PodAttachOptions", verbs: ["create", "get"] },
      { name: "binding", kind: "Binding", verbs: ["create"] },
      { name: "exec", kind: "PodExecOptions", verbs: ["create", "get"] },
      { name: "log", kind: "Pod", verbs: ["get"] },
      { name: "portforward", kind: "PodPortForwardOptions", verbs: ["create", "get"] },
    ],
    fields: podFieldSelectors,
    columns: podColumns,
    wide: podWideColumns,
  },
  {
    gv: "v1",
    plural: "services",
    kind: "Service",
    shortNames: ["svc"],
    categories: ["all"],
    status: true,
    returnDeleted: true,
    nameRule: "dns1035",
    columns: workloadKindColumns.services,
  },
  {
    gv: "v1",
    plural: "endpoints",
    kind: "Endpoints",
    shortNames: ["ep"],
    columns: workloadKindColumns.endpoints,
  },
  {
    gv: "v1",
    plural: "configmaps",
    kind: "ConfigMap",
    shortNames: ["cm"],
    columns: [
      col("Data", (o) =>
        Object.keys((at(o, "data") ?? {}) as object).length +
        Object.keys((at(o, "binaryData") ?? {}) as object).length, "integer"),
    ],
  },
  {
    gv: "v1",
    plural: "secrets",
    kind: "Secret",
    fields: { type: (o) => str(at(o, "type")) },
    columns: [
      col("Type", (o) => at(o, "type") ?? "Opaque"),
      col("Data", (o) => Object.keys((at(o, "data") ?? {}) as object).length, "integer"),
    ],
  },
  { gv: "v1", plural: "serviceaccounts", kind: "ServiceAccount", shortNames: ["sa"] },
  {
    gv: "v1",
    plural: "persistentvolumeclaims",
    kind: "PersistentVolumeClaim",
    shortNames: ["pvc"],
    status: true,
    returnDeleted: true,
    columns: [col("Status", (o) => at(o, "status", "phase") ?? "Pending")],
  },
  {
    gv: "v1",
    plural: "events",
    kind: "Event",
    shortNames: ["ev"],
    fields: Object.fromEntries(
      ["kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"]
        .map((f) => [`involvedObject.${f}`, (o: KubeObject) => str(at(o, "involvedObject", f))])
        .concat([
          ["reason", (o: KubeObject) => str(at(o, "reason"))],
          ["type", (o: KubeObject) => str(at(o, "type"))],
          ["reportingComponent", (o: KubeObject) => str(at(o, "reportingComponent"))],
        ]),
    ),
    columns: [
      col("Type", (o) => at(o, "type")),
      col("Reason", (o) => at(o, "reason")),
      col("Message", (o) => at(o, "message")),
    ],
  },
  {
    gv: "events.k8s.io/v1",
    plural: "events",
    kind: "Event",
    shortNames: ["ev"],
    storedAs: "/events",
    convert: { toStored: eventToCore, fromStored: eventFromCore },
    columns: [
      col("Type", (o) => at(o, "type")),
      col("Reason", (o) => at(o, "reason")),
      col("Note", (o) => at(o, "note")),
    ],
  },
  ...["deployments:Deployment:deploy", "replicasets:ReplicaSet:rs", "statefulsets:StatefulSet:sts"]
    .map((s): Spec => {
      const [plural, kind, short] = s.split(":");
      return {
        gv: "apps/v1",
        plural,
        kind,
        shortNames: [short],
        categories: ["all"],
        status: true,
        scale: true,
        generation: true,
        fields: plural === "replicasets"
          ? { "status.replicas": (o) => String(at(o, "status", "replicas") ?? 0) }
          : undefined,
        columns: workloadColumns[plural],
      };
    }),
  {
    gv: "apps/v1",
    plural: "daemonsets",
    kind: "DaemonSet",
    shortNames: ["ds"],
    categories: ["all"],
    status: true,
    generation: true,
    columns: workloadKindColumns.daemonsets,
  },
  {
    gv: "apps/v1",
    plural: "controllerrevisions",
    kind: "ControllerRevision",
    columns: [
      col("Controller", (o) => {
        const owner = o.metadata?.ownerReferences?.find((r) => r.controller);
        if (!owner) return "<none>";
        const group = owner.apiVersion.includes("/") ? owner.apiVersion.split("/")[0] : "";
        return `${owner.kind.toLowerCase()}${group ? `.${group}` : ""}/${owner.name}`;
      }),
      col("Revision", (o) => Number(at(o, "revision") ?? 0), "integer"),
    ],
  },
  {
    gv: "batch/v1",
    plural: "jobs",
    kind: "Job",
    categories: ["all"],
    status: true,
    generation: true,
    fields: { "status.successful": (o) => String(at(o, "status", "succeeded") ?? 0) },
    columns: workloadKindColumns.jobs,
  },
  {
    gv: "batch/v1",
    plural: "cronjobs",
    kind: "CronJob",
    shortNames: ["cj"],
    categories: ["all"],
    status: true,
    generation: true,
    columns: workloadKindColumns.cronjobs,
  },
  {
    gv: "coordination.k8s.io/v1",
    plural: "leases",
    kind: "Lease",
    columns: [col("Holder", (o) => at(o, "spec", "holderIdentity") ?? "")],
  },
  {
    gv: "apiextensions.k8s.io/v1",
    plural: "customresourcedefinitions",
    kind: "CustomResourceDefinition",
    namespaced: false,
    shortNames: ["crd", "crds"],
    status: true,
    generation: true,
  },
  {
    gv: "v1",
    plural: "replicationcontrollers",
    kind: "ReplicationController",
    shortNames: ["rc"],
    categories: ["all"],
    status: true,
    scale: true,
    generation: true,
    columns: workloadKindColumns.replicationcontrollers,
  },
  {
    gv: "discovery.k8s.io/v1",
    plural: "endpointslices",
    kind: "EndpointSlice",
    columns: workloadKindColumns.endpointslices,
  },
  ...["Validating", "Mutating"].map((t): Spec => ({
    gv: "admissionregistration.k8s.io/v1",
    plural: `${t.toLowerCase()}webhookconfigurations`,
    kind: `${t}WebhookConfiguration`,
    namespaced: false,
    categories: ["api-extensions"],
    columns: [
      col("Webhooks", (o) => (at(o, "webhooks") as unknown[] | undefined)?.length ?? 0, "integer"),
    ],
  })),
];

function toInfo(s: Spec): ResourceInfo {
  const [group, version] = s.gv.includes("/") ? s.gv.split("/") : ["", s.gv];
  return {
    group,
    version,
    plural: s.plural,
    singular: s.kind.toLowerCase(),
    kind: s.kind,
    listKind: `${s.kind}List`,
    namespaced: s.namespaced ?? true,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    storageKey: s.storedAs ?? `${group}/${s.plural}`,
    ...(s.convert ? { convert: s.convert } : {}),
    hasStatus: s.status ?? false,
    scale: s.scale
      ? {
        specReplicasPath: ".spec.replicas",
        statusReplicasPath: ".status.replicas",
        labelSelectorPath: ".status.selector",
      }
      : undefined,
    extraSubresources: s.extra ?? [],
    hasGeneration: s.generation ?? false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: s.returnDeleted ?? false,
    nameRule: s.nameRule ?? "subdomain",
    fieldSelectors: s.fields ?? {},
    columns: [...(s.columns ?? []), ageColumn, ...(s.wide ?? [])],
    isCustom: false,
    strategicMerge: true,
    // A version stored as another's (events.k8s.io as core v1) hashes the stored one.
    storageVersionHash: s.storedAs
      ? storageVersionHash("", "v1", s.kind)
      : storageVersionHash(group, version, s.kind),
  };
}

/**
 * The built-in resources, in discovery order.
 *
 * @example
 * ```ts
 * import { builtinResources } from "./builtin_resources.ts";
 * builtinResources().find((r) => r.plural === "pods")?.kind; // "Pod"
 * ```
 */
export function builtinResources(): ResourceInfo[] {
  return specs.map(toInfo);
}
