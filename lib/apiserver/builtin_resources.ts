/**
 * The catalog of built-in resources the embedded API server serves schema-less.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ResourceInfo, TableColumn } from "./resource_info.ts";
import { at, col, resourceInfoOf, type ResourceSpec as Spec, str } from "./resource_spec.ts";
import { groupResourceSpecs } from "./group_resources.ts";
import { groupKindColumns } from "./group_columns.ts";
import { podColumns, podFieldSelectors, podWideColumns } from "./pod_printer.ts";
import { eventFromCore, eventToCore } from "./event_conversion.ts";
import { workloadKindColumns } from "./workload_columns.ts";
import { storageVersionHash } from "./storage_version_hash.ts";

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
    statusOnCreate: true,
    fields: { "spec.unschedulable": (o) => String(at(o, "spec", "unschedulable") ?? false) },
    columns: [
      col("Status", (o) => {
        const conds = (at(o, "status", "conditions") ?? []) as { type?: string; status?: string }[];
        const ready = Array.isArray(conds) ? conds.find((c) => c.type === "Ready") : undefined;
        const state = !ready ? "Unknown" : ready.status === "True" ? "Ready" : "NotReady";
        return at(o, "spec", "unschedulable") === true ? `${state},SchedulingDisabled` : state;
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
      { name: "eviction", kind: "Eviction", verbs: ["create"], group: "policy", version: "v1" },
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
  {
    gv: "v1",
    plural: "serviceaccounts",
    kind: "ServiceAccount",
    shortNames: ["sa"],
    extra: [{
      name: "token",
      kind: "TokenRequest",
      verbs: ["create"],
      group: "authentication.k8s.io",
      version: "v1",
    }],
    columns: groupKindColumns.serviceaccounts,
  },
  {
    gv: "v1",
    plural: "persistentvolumeclaims",
    kind: "PersistentVolumeClaim",
    shortNames: ["pvc"],
    status: true,
    returnDeleted: true,
    columns: groupKindColumns.persistentvolumeclaims,
    wide: groupKindColumns.persistentvolumesWide,
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
    unconditionalUpdate: false,
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
  const infos = [...specs, ...groupResourceSpecs].map(resourceInfoOf);
  // Discovery's storageVersionHash: the group/version/kind objects are stored as — a version
  // stored as another's (events.k8s.io as core v1) hashes that one; create-only kinds (the
  // reviews) have no storage and no hash.
  const stored = new Map<string, ResourceInfo>();
  for (const i of infos) if (!i.convert && !stored.has(i.storageKey)) stored.set(i.storageKey, i);
  return infos.map((i) => {
    if (i.verbs && !i.verbs.includes("get")) return i;
    const s = stored.get(i.storageKey) ?? i;
    return { ...i, storageVersionHash: storageVersionHash(s.group, s.version, s.kind) };
  });
}
