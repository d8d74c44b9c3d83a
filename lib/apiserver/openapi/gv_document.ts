/**
 * One group/version's OpenAPI v3 document, as served at `/openapi/v3/api/v1` or
 * `/openapi/v3/apis/<group>/<version>`: the paths of its resources and every component
 * schema they reach (kinds, lists, meta/v1 types), keys sorted so equal content serializes
 * to equal bytes. Built-in schemas are the generated ones (`./builtin/`).
 *
 * @module
 */
import type { ResourceInfo } from "../resource_info.ts";
import { referencedNames, type Schema } from "./schema_builder.ts";
import type { SchemaCatalog } from "./builtin/doc_catalog.ts";
import { resourceSchemas } from "./resource_schemas.ts";
import { resourcePaths } from "./resource_paths.ts";
import { compareStrings } from "../../core/compare_strings.ts";

/** One served resource of the group/version, with its CRD schema when custom. */
export interface GvResource {
  readonly info: ResourceInfo;
  /** `openAPIV3Schema` of the CRD version serving it. */
  readonly crdSchema?: Schema;
}

/** An OpenAPI 3.0 document (JSON). */
export interface OpenApiDocument {
  readonly openapi: "3.0.0";
  readonly info: { readonly title: string; readonly version: string };
  readonly paths: Readonly<Record<string, Schema>>;
  readonly components: { readonly schemas: Readonly<Record<string, Schema>> };
}

const sortedObject = <T>(entries: Iterable<[string, T]>): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => compareStrings(a, b)));

/**
 * Builds the document of one group/version from its resources; built-in kinds and every
 * component they reach come from `catalog` (see {@link loadDocCatalog}), kinds it does not
 * know get an open placeholder.
 *
 * @example
 * ```ts
 * import { gvDocument, loadDocCatalog } from "./mod.ts";
 * import { builtinResources } from "../builtin_resources.ts";
 * const leases = builtinResources().filter((r) => r.group === "coordination.k8s.io");
 * const catalog = await loadDocCatalog(["io.k8s.api.coordination.v1.Lease"]);
 * const doc = gvDocument(leases.map((info) => ({ info })), catalog);
 * "io.k8s.api.coordination.v1.LeaseSpec" in doc.components.schemas; // true
 * ```
 */
export function gvDocument(
  resources: readonly GvResource[],
  catalog: SchemaCatalog,
): OpenApiDocument {
  const own = new Map<string, Schema>();
  const paths = new Map<string, Schema>();
  for (const { info, crdSchema } of resources) {
    const r = resourceSchemas(info, { catalog, crdSchema });
    for (const [name, schema] of Object.entries(r.schemas)) own.set(name, schema);
    for (const [path, item] of Object.entries(resourcePaths(info, r))) paths.set(path, item);
  }
  const schemas = new Map(own);
  const pending = [...own.values(), ...paths.values()];
  while (pending.length) {
    for (const name of referencedNames(pending.pop())) {
      const schema = schemas.has(name) ? undefined : catalog(name);
      if (schemas.has(name) || !schema) continue;
      schemas.set(name, schema);
      pending.push(schema);
    }
  }
  return {
    openapi: "3.0.0",
    info: { title: "Kubernetes", version: "v1.32.0" },
    paths: sortedObject(paths),
    components: { schemas: sortedObject(schemas) },
  };
}
