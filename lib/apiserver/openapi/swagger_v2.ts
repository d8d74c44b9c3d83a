/**
 * `swaggerV2`: the `/openapi/v2` document (Swagger 2.0) built from the per group/version
 * OpenAPI v3 documents the server serves, as kube-apiserver's kube-openapi writes it:
 * `definitions` (component schemas, `$ref`s to `#/definitions/`, IntOrString as
 * `type: string, format: int-or-string`), `paths` (operations with `consumes`, `produces`,
 * `schemes`, query/path parameters and a `body` parameter, responses with a `schema`), and
 * the `BearerToken` security definition.
 *
 * @module
 */
import type { OpenApiDocument } from "./gv_document.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const v3Ref = "#/components/schemas/";

/**
 * A v3 schema as a v2 schema (recursively): `#/definitions/` references, described
 * references as plain `$ref`s, int-or-string as `type: string`.
 *
 * @example
 * ```ts
 * import { schemaToV2 } from "./swagger_v2.ts";
 * schemaToV2({ description: "d", allOf: [{ $ref: "#/components/schemas/a.B" }] });
 * // { description: "d", $ref: "#/definitions/a.B" }
 * ```
 */
export function schemaToV2(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaToV2);
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "nullable") continue;
    if (k === "$ref" && typeof v === "string") {
      out.$ref = v.startsWith(v3Ref) ? `#/definitions/${v.slice(v3Ref.length)}` : v;
      continue;
    }
    if (k === "anyOf" || k === "oneOf") continue; // int-or-string and quantities: typed below
    if (k === "properties" && isObj(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, schemaToV2(s)]));
      continue;
    }
    out[k] = k === "default" || k === "enum" || k === "example" ? v : schemaToV2(v);
  }
  // `allOf: [{$ref}]` (a described reference in v3) is a plain `$ref` in v2.
  if (
    Array.isArray(out.allOf) && out.allOf.length === 1 && isObj(out.allOf[0]) && out.allOf[0].$ref
  ) {
    out.$ref = out.allOf[0].$ref;
    delete out.allOf;
  }
  if (schema["x-kubernetes-int-or-string"] === true) {
    out.type = "string";
    out.format ??= "int-or-string";
  } else if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) out.type ??= "string";
  return out;
}

function parameterToV2(p: unknown): unknown {
  if (!isObj(p)) return p;
  const { schema, ...rest } = p;
  return { ...rest, ...(isObj(schema) ? schemaToV2(schema) as Obj : {}) };
}

function operationToV2(op: Obj): Obj {
  const { parameters, requestBody, responses, ...rest } = op;
  const params = (Array.isArray(parameters) ? parameters : []).map(parameterToV2);
  const out: Obj = { ...rest };
  if (isObj(requestBody) && isObj(requestBody.content)) {
    out.consumes = Object.keys(requestBody.content);
    const first = Object.values(requestBody.content)[0];
    params.unshift({
      name: "body",
      in: "body",
      required: true,
      schema: schemaToV2(isObj(first) ? first.schema : {}),
    });
  }
  const produces = new Set<string>();
  const v2Responses: Obj = {};
  for (const [code, r] of Object.entries(isObj(responses) ? responses : {})) {
    if (!isObj(r)) continue;
    const content = isObj(r.content) ? r.content : {};
    for (const type of Object.keys(content)) produces.add(type);
    const first = Object.values(content)[0];
    v2Responses[code] = {
      description: r.description ?? "",
      ...(isObj(first) && first.schema ? { schema: schemaToV2(first.schema) } : {}),
    };
  }
  if (produces.size) out.produces = [...produces];
  out.schemes = ["https"];
  if (params.length) out.parameters = params;
  out.responses = v2Responses;
  return out;
}

const verbs = ["get", "put", "post", "delete", "options", "head", "patch"];

/**
 * The Swagger 2.0 document of the given OpenAPI v3 documents (paths and definitions merged).
 *
 * @param documents the group/version documents (`/openapi/v3/<gv>` bodies)
 * @param version the `info.version` (kube-apiserver's git version)
 *
 * @example
 * ```ts
 * import { swaggerV2 } from "./swagger_v2.ts";
 * const doc = swaggerV2([{ openapi: "3.0.0", info: { title: "K", version: "v" }, paths: {}, components: { schemas: {
 *   "io.k8s.api.core.v1.PodSpec": { properties: { x: { allOf: [{ $ref: "#/components/schemas/y" }] } } },
 * } } }], "v1.32.0");
 * (doc.definitions as Record<string, { properties: Record<string, unknown> }>)["io.k8s.api.core.v1.PodSpec"]
 *   .properties.x; // { $ref: "#/definitions/y" }
 * ```
 */
export function swaggerV2(documents: Iterable<OpenApiDocument>, version: string): Obj {
  const paths: Obj = {};
  const definitions: Obj = {};
  for (const doc of documents) {
    const schemas = isObj(doc.components) && isObj(doc.components.schemas)
      ? doc.components.schemas
      : {};
    for (const [name, s] of Object.entries(schemas)) definitions[name] ??= schemaToV2(s);
    for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
      if (!isObj(item)) continue;
      const out: Obj = {};
      for (const [k, v] of Object.entries(item)) {
        if (verbs.includes(k) && isObj(v)) out[k] = operationToV2(v);
        else if (k === "parameters" && Array.isArray(v)) out.parameters = v.map(parameterToV2);
        else out[k] = v;
      }
      paths[path] = out;
    }
  }
  const sort = (o: Obj) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  return {
    swagger: "2.0",
    info: { title: "Kubernetes", version },
    paths: sort(paths),
    definitions: sort(definitions),
    securityDefinitions: {
      BearerToken: {
        description: "Bearer Token authentication",
        type: "apiKey",
        name: "authorization",
        in: "header",
      },
    },
    security: [{ BearerToken: [] }],
  };
}
