/**
 * The built-in component schemas as OpenAPI documents publish them: the generated structure
 * with the type's description and each property's description merged back in (the two are
 * stored apart so validation never loads the text).
 *
 * @module
 */
import type { Schema } from "../schema_builder.ts";
import { loadedDocs, loadedSchema, loadForNames } from "./load_packages.ts";

/** A synchronous lookup of component schemas by name. */
export type SchemaCatalog = (name: string) => Schema | undefined;

function withDocs(name: string): Schema | undefined {
  const schema = loadedSchema(name);
  if (!schema) return undefined;
  const docs = loadedDocs(name) ?? {};
  const props = schema.properties as Record<string, Schema> | undefined;
  const properties = props &&
    Object.fromEntries(
      Object.entries(props).map((
        [k, p],
      ) => [k, docs[k] === undefined ? p : { description: docs[k], ...p }]),
    );
  return {
    ...(docs[""] === undefined ? {} : { description: docs[""] }),
    ...schema,
    ...(properties ? { properties } : {}),
  };
}

/**
 * Loads the packages of `names` (and all they reference) with their descriptions, and
 * returns a lookup of described component schemas covering at least those packages.
 *
 * @example
 * ```ts
 * import { loadDocCatalog } from "./doc_catalog.ts";
 * const catalog = await loadDocCatalog(["io.k8s.api.apps.v1.Deployment"]);
 * typeof catalog("io.k8s.api.core.v1.Container")?.description; // "string"
 * ```
 */
export async function loadDocCatalog(names: Iterable<string>): Promise<SchemaCatalog> {
  await loadForNames(names, { docs: true });
  const memo = new Map<string, Schema | undefined>();
  return (name) => {
    if (!memo.has(name)) memo.set(name, withDocs(name));
    return memo.get(name);
  };
}
