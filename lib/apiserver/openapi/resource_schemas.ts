/**
 * The component schemas of one served resource: its kind (from the CRD's openAPIV3Schema, the
 * generated built-in catalog, or an open placeholder) and its list kind.
 *
 * @module
 */
import type { ResourceInfo } from "../resource_info.ts";
import { type Gvk, s, type Schema } from "./schema_builder.ts";
import { kindObject } from "./kind_object.ts";
import { schemaName } from "./schema_name.ts";
import type { SchemaCatalog } from "./builtin/doc_catalog.ts";

/** Options of {@link resourceSchemas}. */
export interface ResourceSchemasOptions {
  /** Described built-in schemas by component name. */
  readonly catalog: SchemaCatalog;
  /** The CRD version's `openAPIV3Schema` (custom resources). */
  readonly crdSchema?: Schema;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A CRD schema as published: standard apiVersion/kind/metadata fields and the GVK. */
function fromCrd(gvk: Gvk, root: Schema): Schema {
  const { properties, required, description, ...rest } = root;
  const { apiVersion: _a, kind: _k, metadata: _m, ...own } = isRecord(properties) ? properties : {};
  return kindObject(
    gvk,
    typeof description === "string" ? description : undefined,
    own as Record<string, Schema>,
    {
      required: Array.isArray(required) ? required : undefined,
      extra: rest,
    },
  );
}

/** An open schema for a kind this server does not describe. */
function placeholder(gvk: Gvk): Schema {
  return kindObject(
    gvk,
    `${gvk.kind} is served by this API server; its fields are not described.`,
    {},
    { extra: { "x-kubernetes-preserve-unknown-fields": true } },
  );
}

/**
 * The kind and list schemas of a resource, keyed by component name; also returns the names.
 *
 * @example
 * ```ts
 * import { resourceSchemas } from "./resource_schemas.ts";
 * import { builtinResources } from "../builtin_resources.ts";
 * const pods = builtinResources().find((r) => r.plural === "pods")!;
 * const r = resourceSchemas(pods, { catalog: () => undefined });
 * r.listName; // "io.k8s.api.core.v1.PodList"
 * ```
 */
export function resourceSchemas(
  info: ResourceInfo,
  opts: ResourceSchemasOptions,
): { kindName: string; listName: string; schemas: Record<string, Schema> } {
  const gvk = { group: info.group, version: info.version, kind: info.kind };
  const kindName = schemaName(gvk, info.isCustom);
  const listName = schemaName({ ...gvk, kind: info.listKind }, info.isCustom);
  const builtin = info.isCustom ? () => undefined : opts.catalog;
  const kind = opts.crdSchema
    ? fromCrd(gvk, opts.crdSchema)
    : builtin(kindName) ?? placeholder(gvk);
  const list = builtin(listName) ?? kindObject(
    { ...gvk, kind: info.listKind },
    `${info.listKind} is a list of ${info.kind}.`,
    { items: s.arr(`The ${info.plural}.`, s.ref(kindName)) },
    { list: true, required: ["items"] },
  );
  return { kindName, listName, schemas: { [kindName]: kind, [listName]: list } };
}
