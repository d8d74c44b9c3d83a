/**
 * The OpenAPI v3 `paths` of one served resource: collection, item, all-namespaces list and
 * the status/scale subresources, each operation tagged with `x-kubernetes-action` and
 * `x-kubernetes-group-version-kind`. Write operations list `fieldValidation` inline, which is
 * what kubectl looks for before trusting server-side field validation.
 *
 * @module
 */
import { type ResourceInfo, servedVerbs } from "../resource_info.ts";
import { type Gvk, s, type Schema } from "./schema_builder.ts";
import { metaV1 } from "./meta_schemas.ts";

type Param = Schema;
const query = (name: string, description: string, type = "string"): Param => ({
  name,
  in: "query",
  description,
  schema: { type, uniqueItems: true },
});
const pathParam = (name: string, description: string): Param => ({
  name,
  in: "path",
  description,
  required: true,
  schema: { type: "string", uniqueItems: true },
});

const pretty = query("pretty", "If 'true', the output is pretty printed.");
const dryRun = query("dryRun", "When All, the request is validated but not persisted.");
const fieldManager = query("fieldManager", "The name of the actor making the change.");
const fieldValidation = query(
  "fieldValidation",
  "What the server does with unknown or duplicate fields in the body: Ignore drops them, " +
    "Warn (the default) drops them and answers with a warning header per field, Strict " +
    "rejects the request.",
);
const force = query("force", "Apply only: take over conflicting fields.", "boolean");
const listParams: Param[] = [
  query("labelSelector", "Restrict the list to objects whose labels match."),
  query("fieldSelector", "Restrict the list to objects whose fields match."),
  query("limit", "The most items to return; continue with the returned token.", "integer"),
  query("continue", "The token of the next page."),
  query("resourceVersion", "Where the list or watch starts."),
  query("resourceVersionMatch", "How resourceVersion applies to a list."),
  query("watch", "Stream changes instead of listing.", "boolean"),
  query("allowWatchBookmarks", "Request BOOKMARK events.", "boolean"),
  query("sendInitialEvents", "Begin a watch with the current objects.", "boolean"),
  query("timeoutSeconds", "Timeout of the list or watch call.", "integer"),
];
const deleteParams: Param[] = [
  dryRun,
  query("gracePeriodSeconds", "Seconds before the object is removed.", "integer"),
  query("propagationPolicy", "Orphan, Background or Foreground garbage collection."),
];

const body = (types: readonly string[], schema: Schema) => ({
  content: Object.fromEntries(types.map((t) => [t, { schema }])),
  required: true,
});
const ok = (schema: Schema, codes: readonly string[] = ["200"]) =>
  Object.fromEntries([
    ...codes.map((c) => [c, {
      description: c === "201" ? "Created" : c === "202" ? "Accepted" : "OK",
      content: { "application/json": { schema }, "application/yaml": { schema } },
    }]),
    ["401", { description: "Unauthorized" }],
  ]);

/** Patch types of a resource: strategic merge for built-ins only, as kube-apiserver lists them. */
const patchTypesOf = (info: ResourceInfo) => [
  "application/apply-patch+yaml",
  "application/json-patch+json",
  "application/merge-patch+json",
  ...(info.strategicMerge && !info.isCustom ? ["application/strategic-merge-patch+json"] : []),
];

const camel = (x: string) =>
  x.split(/[.\-/]/).filter((p) => p).map((p) => p[0].toUpperCase() + p.slice(1)).join("");

/**
 * The path items of a resource, keyed by path template.
 *
 * Built-in kinds list `application/strategic-merge-patch+json` among the PATCH body types, as
 * kube-apiserver does: kubectl's client-side apply then computes strategic merge patches from
 * these schemas (with their `x-kubernetes-patch-*` facts) rather than its compiled-in types.
 *
 * @example
 * ```ts
 * import { resourcePaths } from "./resource_paths.ts";
 * import { builtinResources } from "../builtin_resources.ts";
 * const cms = builtinResources().find((r) => r.plural === "configmaps")!;
 * const paths = resourcePaths(cms, { kindName: "K", listName: "L" });
 * Object.keys(paths).includes("/api/v1/namespaces/{namespace}/configmaps/{name}"); // true
 * ```
 */
export function resourcePaths(
  info: ResourceInfo,
  names: { readonly kindName: string; readonly listName: string },
): Record<string, Schema> {
  const gvk: Gvk = { group: info.group, version: info.version, kind: info.kind };
  const prefix = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  const scope = info.namespaced ? "/namespaces/{namespace}" : "";
  const idBase = `${camel(info.group || "core")}${camel(info.version)}`;
  const op = (
    verb: string,
    action: string,
    target: string,
    extra: Schema,
    kind: Gvk = gvk,
  ): Schema => ({
    description: `${verb} ${target}`,
    operationId: `${verb}${idBase}${
      info.namespaced && !target.endsWith("ForAllNamespaces") ? "Namespaced" : ""
    }${target}`,
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": {
      group: kind.group,
      kind: kind.kind,
      version: kind.version,
    },
    ...extra,
  });
  const kindRef = s.ref(names.kindName);
  const status = s.ref(`${metaV1}Status`);
  const nsParam = pathParam("namespace", "The object's namespace.");
  const common = (withName: boolean) => [
    ...(withName ? [pathParam("name", `The name of the ${info.kind}.`)] : []),
    ...(info.namespaced ? [nsParam] : []),
    pretty,
  ];
  const writeParams = [dryRun, fieldManager, fieldValidation];
  const itemOps = (target: string, schema: Schema, kind?: Gvk, withDelete = false) => ({
    get: op("read", "get", target, { responses: ok(schema) }, kind),
    put: op("replace", "put", target, {
      parameters: writeParams,
      requestBody: body(["*/*"], schema),
      responses: ok(schema, ["200", "201"]),
    }, kind),
    patch: op("patch", "patch", target, {
      parameters: [...writeParams, force],
      requestBody: body(patchTypesOf(info), s.ref(`${metaV1}Patch`)),
      responses: ok(schema, ["200", "201"]),
    }, kind),
    ...(withDelete
      ? {
        delete: op("delete", "delete", target, {
          parameters: deleteParams,
          requestBody: { content: { "*/*": { schema: s.ref(`${metaV1}DeleteOptions`) } } },
          responses: ok(info.returnDeletedObject ? kindRef : status, ["200", "202"]),
        }),
      }
      : {}),
    parameters: common(true),
  });
  const collection = `${prefix}${scope}/${info.plural}`;
  const create = op("create", "post", info.kind, {
    parameters: writeParams,
    requestBody: body(["*/*"], kindRef),
    responses: ok(kindRef, ["200", "201", "202"]),
  });
  if (!servedVerbs(info).includes("get")) {
    return { [collection]: { post: create, parameters: common(false) } };
  }
  const paths: Record<string, Schema> = {
    [collection]: {
      get: op("list", "list", info.kind, {
        parameters: listParams,
        responses: ok(s.ref(names.listName)),
      }),
      post: create,
      delete: op("deletecollection", "deletecollection", info.kind, {
        parameters: [...deleteParams, ...listParams.slice(0, 5)],
        responses: ok(status),
      }),
      parameters: common(false),
    },
    [`${collection}/{name}`]: itemOps(info.kind, kindRef, undefined, true),
  };
  if (info.namespaced) {
    paths[`${prefix}/${info.plural}`] = {
      get: op("list", "list", `${info.kind}ForAllNamespaces`, {
        parameters: listParams,
        responses: ok(s.ref(names.listName)),
      }),
      parameters: [pretty],
    };
  }
  if (info.hasStatus) {
    paths[`${collection}/{name}/status`] = itemOps(`${info.kind}Status`, kindRef);
  }
  if (info.scale) {
    const scale = { group: "autoscaling", version: "v1", kind: "Scale" };
    paths[`${collection}/{name}/scale`] = itemOps(
      `${info.kind}Scale`,
      s.ref("io.k8s.api.autoscaling.v1.Scale"),
      scale,
    );
  }
  return paths;
}
