/**
 * The compiled structural schema of a built-in kind, for the same validator, pruner and
 * defaulter the server uses for custom resources (`lib/apiserver/schema/`).
 *
 * @module
 */
import { compileSchema } from "../../schema/compile_schema.ts";
import type { CompiledSchema, SchemaProps } from "../../schema/types.ts";
import { refPrefix } from "../schema_builder.ts";
import { builtinKindName, isLoaded, loadedSchema, loadForNames } from "./load_packages.ts";
import { withNameFormats } from "./name_formats.ts";

/** What {@link lookupBuiltinSchema} knows right now about a kind. */
export type BuiltinSchemaLookup =
  | { readonly type: "found"; readonly schema: CompiledSchema }
  /** Not a built-in kind (a custom resource, or a kind kubernetes-types 1.30 lacks). */
  | { readonly type: "unknown" }
  /** Its schemas are being loaded; look again once `loaded` resolves. */
  | { readonly type: "loading"; readonly loaded: Promise<void> };

const compiled = new Map<string, CompiledSchema>();

const apiVersionOf = (group: string, version: string) => group ? `${group}/${version}` : version;

function compileLoaded(name: string): CompiledSchema {
  let c = compiled.get(name);
  if (!c) {
    const resolveRef = (ref: string) => {
      const target = ref.startsWith(refPrefix) ? ref.slice(refPrefix.length) : undefined;
      const schema = target ? loadedSchema(target) as SchemaProps | undefined : undefined;
      return schema && withNameFormats(target!, schema);
    };
    c = compileSchema(loadedSchema(name) as SchemaProps, { resolveRef });
    compiled.set(name, c);
  }
  return c;
}

/**
 * The compiled schema of a built-in kind, synchronously when its group/version's schemas
 * are already loaded; otherwise starts loading them and says so. For code on a synchronous
 * path (admission); {@link builtinSchema} is the same for async callers.
 *
 * @param group e.g. `apps` (`""` for core)
 * @param version e.g. `v1`
 * @param kind e.g. `Deployment`
 *
 * @example
 * ```ts
 * import { lookupBuiltinSchema } from "./builtin_schema.ts";
 * let r = lookupBuiltinSchema("", "v1", "ConfigMap");
 * if (r.type === "loading") {
 *   await r.loaded;
 *   r = lookupBuiltinSchema("", "v1", "ConfigMap");
 * }
 * r.type; // "found"
 * ```
 */
export function lookupBuiltinSchema(
  group: string,
  version: string,
  kind: string,
): BuiltinSchemaLookup {
  const name = builtinKindName(apiVersionOf(group, version), kind);
  if (!name) return { type: "unknown" };
  if (isLoaded([name])) return { type: "found", schema: compileLoaded(name) };
  return { type: "loading", loaded: loadForNames([name]) };
}

/**
 * The compiled structural schema of a built-in kind (its group/version's schemas are loaded
 * on first use and kept), or `undefined` for kinds that are not built in. The schema has
 * every `$ref` resolved, the types and formats (int32, int64, date-time, byte, ...) and the
 * required fields of the Kubernetes 1.30 API with the fields added up to 1.36 (so a 1.32
 * object validates under Strict), `x-kubernetes-int-or-string` for
 * IntOrString fields, and list semantics (`x-kubernetes-list-type`, map keys); compile once,
 * validate many times.
 *
 * @param group e.g. `apps` (`""` for core)
 * @param version e.g. `v1`
 * @param kind e.g. `Deployment`
 *
 * @example
 * ```ts
 * import { builtinSchema } from "./builtin_schema.ts";
 * import { processCustomResource } from "../../schema/mod.ts";
 * const schema = (await builtinSchema("", "v1", "ConfigMap"))!;
 * const r = processCustomResource(
 *   { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" }, data: { k: 5 } },
 *   schema,
 *   { fieldValidation: "Strict" },
 * );
 * r.ok; // false: data.k: Invalid value: "integer": data.k in body must be of type string
 * ```
 */
export async function builtinSchema(
  group: string,
  version: string,
  kind: string,
): Promise<CompiledSchema | undefined> {
  const r = lookupBuiltinSchema(group, version, kind);
  if (r.type !== "loading") return r.type === "found" ? r.schema : undefined;
  await r.loaded;
  const again = lookupBuiltinSchema(group, version, kind);
  return again.type === "found" ? again.schema : undefined;
}
