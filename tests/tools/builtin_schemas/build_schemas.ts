/**
 * Turns the kubernetes-types declarations into OpenAPI v3 component schemas the way
 * kube-openapi publishes them: objects with `properties` and `required`, `allOf: [{$ref}]`
 * for a property of a named type (so a description can sit beside it), bare `$ref` for
 * array items and map values, integer formats from client-node, the
 * `x-kubernetes-group-version-kind` of top-level kinds and the hand-written merge overlay.
 *
 * Descriptions are kept apart from the structure so the server can load the structure
 * (validation, apply) without the text (explain).
 *
 * @module
 */
import type { TsDecl, TsType } from "./read_types.ts";
import { INTSTR_PACKAGE, packageOf } from "./package_names.ts";
import { isByteField, numberFormat } from "./read_formats.ts";
import { semanticsOverlay } from "../../../lib/apiserver/openapi/builtin/semantics_overlay.ts";
import { extraProperties } from "../../../lib/apiserver/openapi/builtin/extra_properties.ts";

/** A JSON schema node under construction. */
export type Node = Record<string, unknown>;

/** The descriptions of one component: `""` for the type, then one per property. */
export type Docs = Record<string, string>;

/** A group/version/kind. */
export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** Everything the generator writes. */
export interface Built {
  /** Component schemas without descriptions, by full name. */
  readonly schemas: Map<string, Node>;
  readonly docs: Map<string, Docs>;
  /** Top-level kinds: `group/version/Kind` (`v1/Pod` for core) -> component name. */
  readonly kinds: Map<string, string>;
  /** Numeric fields whose format no client-node model had (they default to int32). */
  readonly unknownFormats: string[];
}

const REF = "#/components/schemas/";
/** Component name of IntOrString (kubernetes-types inlines it as `number | string`). */
export const INT_OR_STRING = `${INTSTR_PACKAGE}.IntOrString`;

const intOrStringDoc = "IntOrString holds either an int32 or a string (a port name, a " +
  "percentage such as 25%). In JSON it is the bare number or the bare string.";

/** Schemas of the types kubernetes-types declares as aliases or empty interfaces. */
const special: Record<string, Node> = {
  [INT_OR_STRING]: {
    "x-kubernetes-int-or-string": true,
    format: "int-or-string",
    anyOf: [{ type: "integer" }, { type: "string" }],
  },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": {
    oneOf: [{ type: "string" }, { type: "number" }],
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time": { type: "string", format: "date-time" },
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": { type: "string", format: "date-time" },
  "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.Patch": {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  },
  "io.k8s.apimachinery.pkg.runtime.RawExtension": {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
  },
};
/** Any JSON value (apiextensions `JSON` and the JSONSchemaProps-or-something unions). */
const anyValue: Node = { "x-kubernetes-preserve-unknown-fields": true };
const apiextensions = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1";
for (
  const n of [
    "JSON",
    "JSONSchemaPropsOrArray",
    "JSONSchemaPropsOrBool",
    "JSONSchemaPropsOrStringArray",
  ]
) {
  special[`${apiextensions}.${n}`] = anyValue;
}

const nameOf = (file: string, name: string) => `${packageOf(file)}.${name}`;

interface FieldCtx {
  readonly decl: TsDecl;
  readonly field: string;
  readonly unknownFormats: string[];
}

/** The schema of a value of type `t`; `asProperty` wraps references in `allOf`. */
function typeSchema(t: TsType, ctx: FieldCtx, asProperty: boolean): Node {
  switch (t.kind) {
    case "string":
      return isByteField(ctx.decl.file, ctx.decl.name, ctx.field)
        ? { type: "string", format: "byte" }
        : { type: "string" };
    case "literal":
      return { type: "string" };
    case "boolean":
      return { type: "boolean" };
    case "number": {
      const f = numberFormat(ctx.decl.file, ctx.decl.name, ctx.field);
      if (!f.model) ctx.unknownFormats.push(`${nameOf(ctx.decl.file, ctx.decl.name)}.${ctx.field}`);
      return f.format === "double"
        ? { type: "number", format: "double" }
        : { type: "integer", format: f.format };
    }
    case "intOrString":
      return asProperty
        ? { allOf: [{ $ref: REF + INT_OR_STRING }] }
        : { $ref: REF + INT_OR_STRING };
    case "ref": {
      const ref = { $ref: REF + nameOf(t.file, t.name) };
      return asProperty ? { allOf: [ref] } : ref;
    }
    case "array":
      return { type: "array", items: typeSchema(t.items, ctx, false) };
    case "map":
      return { type: "object", additionalProperties: typeSchema(t.values, ctx, false) };
    case "union":
      throw new Error(`Cannot describe ${ctx.decl.name}.${ctx.field}: a union of other types`);
  }
}

/** `apiVersion` and `kind` string literals make a top-level kind. */
function gvkOf(decl: TsDecl): Gvk | undefined {
  const lit = (n: string) => {
    const t = decl.fields?.find((f) => f.name === n)?.type;
    return t?.kind === "literal" ? t.value : undefined;
  };
  const apiVersion = lit("apiVersion");
  const kind = lit("kind");
  if (!apiVersion || !kind) return undefined;
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  return { group, version, kind };
}

/** Stamps the overlay's merge facts onto a component; throws on names that do not exist. */
function applyOverlay(name: string, schema: Node): void {
  const overlay = semanticsOverlay[name];
  if (!overlay) return;
  if (overlay.atomic) schema["x-kubernetes-map-type"] = "atomic";
  const props = (schema.properties ?? {}) as Record<string, Node>;
  for (const [field, s] of Object.entries(overlay.fields ?? {})) {
    const prop = props[field];
    if (!prop) throw new Error(`Overlay names ${name}.${field}, which does not exist`);
    const isList = prop.type === "array";
    if ((s.listType || s.patchMergeKey) && !isList) {
      throw new Error(`Overlay gives list semantics to ${name}.${field}, which is not a list`);
    }
    if (s.patchStrategy) prop["x-kubernetes-patch-strategy"] = s.patchStrategy;
    if (s.patchMergeKey) prop["x-kubernetes-patch-merge-key"] = s.patchMergeKey;
    if (s.listType) prop["x-kubernetes-list-type"] = s.listType;
    if (s.listMapKeys) prop["x-kubernetes-list-map-keys"] = [...s.listMapKeys];
    if (s.mapType) prop["x-kubernetes-map-type"] = s.mapType;
    if (s.default !== undefined) prop.default = s.default;
  }
}

/**
 * Builds every component schema, its descriptions and the index of top-level kinds.
 *
 * @example
 * ```ts ignore
 * const built = buildSchemas(await readTypes());
 * built.kinds.get("apps/v1/Deployment"); // "io.k8s.api.apps.v1.Deployment"
 * ```
 */
export function buildSchemas(decls: readonly TsDecl[]): Built {
  const schemas = new Map<string, Node>();
  const docs = new Map<string, Docs>();
  const kinds = new Map<string, string>();
  const unknownFormats: string[] = [];
  for (const decl of decls) {
    const name = nameOf(decl.file, decl.name);
    const doc: Docs = decl.doc ? { "": decl.doc } : {};
    docs.set(name, doc);
    if (special[name]) {
      schemas.set(name, structuredClone(special[name]));
      continue;
    }
    if (!decl.fields) throw new Error(`Cannot describe alias ${name}`);
    const properties: Record<string, Node> = {};
    const required: string[] = [];
    for (const f of decl.fields) {
      properties[f.name] = typeSchema(f.type, { decl, field: f.name, unknownFormats }, true);
      if (f.doc) doc[f.name] = f.doc;
      if (!f.optional) required.push(f.name);
    }
    for (const [field, extra] of Object.entries(extraProperties[name] ?? {})) {
      properties[field] = structuredClone(extra.schema) as Node;
      doc[field] = extra.description;
      if (extra.required) required.push(field);
    }
    const schema: Node = { type: "object", properties };
    if (required.length) schema.required = required.sort();
    const gvk = gvkOf(decl);
    if (gvk) {
      schema["x-kubernetes-group-version-kind"] = [gvk];
      kinds.set(`${gvk.group ? `${gvk.group}/` : ""}${gvk.version}/${gvk.kind}`, name);
    }
    schemas.set(name, schema);
  }
  schemas.set(INT_OR_STRING, structuredClone(special[INT_OR_STRING]));
  docs.set(INT_OR_STRING, { "": intOrStringDoc });
  for (const name of Object.keys(semanticsOverlay)) {
    const schema = schemas.get(name);
    if (!schema) throw new Error(`Overlay names ${name}, which does not exist`);
    applyOverlay(name, schema);
  }
  for (const name of Object.keys(extraProperties)) {
    if (!schemas.has(name)) throw new Error(`Extra properties name ${name}, which does not exist`);
  }
  return { schemas, docs, kinds, unknownFormats };
}
