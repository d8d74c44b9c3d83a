/**
 * Server-side printing: objects rendered as `meta.k8s.io/v1` Tables for `kubectl get`.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ResourceInfo } from "./resource_info.ts";

/** `includeObject` query values. */
export type IncludeObject = "None" | "Metadata" | "Object";

/** Parses `includeObject` (default Metadata). */
export function parseIncludeObject(value: string | null): IncludeObject {
  return value === "None" || value === "Object" ? value : "Metadata";
}

function partialMetadata(obj: KubeObject) {
  const m = obj.metadata ?? {};
  const meta: Record<string, unknown> = {};
  for (
    const k of [
      "name",
      "namespace",
      "uid",
      "resourceVersion",
      "generation",
      "creationTimestamp",
      "deletionTimestamp",
      "labels",
      "annotations",
      "ownerReferences",
      "finalizers",
    ] as const
  ) if (m[k] !== undefined) meta[k] = m[k];
  return { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: meta };
}

const nameColumn = {
  name: "Name",
  type: "string",
  format: "name",
  description:
    "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.",
  priority: 0,
};

/** Column definitions of a resource's table. */
export function columnDefinitions(info: ResourceInfo) {
  return [
    nameColumn,
    ...info.columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? "",
      description: c.description,
      priority: c.priority,
    })),
  ];
}

/** One table row. */
export function tableRow(info: ResourceInfo, obj: KubeObject, include: IncludeObject, now: number) {
  const name = info.nameCell ? info.nameCell(obj) : obj.metadata?.name ?? "";
  const cells = [name, ...info.columns.map((c) => c.cell(obj, now) ?? null)];
  const row: Record<string, unknown> = { cells };
  if (include === "Metadata") row.object = partialMetadata(obj);
  else if (include === "Object") row.object = obj;
  return row;
}

/**
 * A Table of objects; `withColumns: false` omits column definitions (watch events after the
 * first).
 *
 * @example
 * ```ts
 * import { toTable } from "./table.ts";
 * import { builtinResources } from "./builtin_resources.ts";
 * const cm = builtinResources().find((r) => r.plural === "configmaps")!;
 * toTable(cm, [{ metadata: { name: "a" } }], { resourceVersion: "5", include: "None", now: 0 }).rows.length; // 1
 * ```
 */
export function toTable(
  info: ResourceInfo,
  objects: readonly KubeObject[],
  opts: {
    resourceVersion?: string;
    continue?: string;
    include: IncludeObject;
    now: number;
    withColumns?: boolean;
  },
) {
  const metadata: Record<string, string> = {};
  if (opts.resourceVersion) metadata.resourceVersion = opts.resourceVersion;
  if (opts.continue) metadata.continue = opts.continue;
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata,
    columnDefinitions: opts.withColumns === false ? null : columnDefinitions(info),
    rows: objects.map((o) => tableRow(info, o, opts.include, opts.now)),
  };
}
