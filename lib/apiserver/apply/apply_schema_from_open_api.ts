/**
 * `applySchemaFromOpenApi`: the apply schema of a custom resource, from its CRD version's
 * `openAPIV3Schema`.
 *
 * @module
 */
import type { Json } from "../../core/object.ts";
import type { SchemaProps } from "../schema/types.ts";
import {
  type ApplySchema,
  atomic,
  listMap,
  listSet,
  struct,
  type StructApplySchema,
} from "./apply_schema.ts";
import { objectMetaApplySchema } from "./builtin_apply_schemas.ts";

function convert(s: SchemaProps): ApplySchema {
  const hasProps = s.properties !== undefined || typeof s.additionalProperties === "object";
  if (
    s.type === "object" ||
    (s.type === undefined && (hasProps || s["x-kubernetes-preserve-unknown-fields"]))
  ) {
    if (s["x-kubernetes-map-type"] === "atomic") return atomic;
    return toStruct(s);
  }
  if (s.type === "array") {
    const items = Array.isArray(s.items) ? s.items[0] : s.items;
    switch (s["x-kubernetes-list-type"]) {
      case "set":
        return listSet;
      case "map": {
        const keys = s["x-kubernetes-list-map-keys"] ?? [];
        const item = items ? convert(items) : undefined;
        const defaults: Record<string, Json> = {};
        for (const k of keys) {
          const d = items?.properties?.[k]?.default;
          if (d !== undefined && d !== null) defaults[k] = d as Json;
        }
        return listMap(
          keys,
          item?.type === "struct" ? item : undefined,
          Object.keys(defaults).length ? defaults : undefined,
        );
      }
      default:
        return atomic;
    }
  }
  return atomic;
}

function toStruct(s: SchemaProps): StructApplySchema {
  const fields: Record<string, ApplySchema> = {};
  for (const [name, p] of Object.entries(s.properties ?? {})) fields[name] = convert(p);
  if (s["x-kubernetes-embedded-resource"]) fields.metadata = objectMetaApplySchema;
  const ap = s.additionalProperties;
  return struct(fields, typeof ap === "object" ? convert(ap) : undefined);
}

const cache = new WeakMap<SchemaProps, StructApplySchema>();

/**
 * The apply schema of a custom resource: `x-kubernetes-list-type` `map` (keys
 * `x-kubernetes-list-map-keys`, key defaults from the item schema), `set` or `atomic` (the
 * default for lists), `x-kubernetes-map-type` `atomic` or `granular` (the default for
 * objects); `metadata` follows ObjectMeta. Results are cached per schema object.
 *
 * @param openAPIV3Schema the CRD version's `schema.openAPIV3Schema`
 *
 * @example
 * ```ts
 * import { applySchemaFromOpenApi } from "./apply_schema_from_open_api.ts";
 * const schema = applySchemaFromOpenApi({
 *   type: "object",
 *   properties: { spec: { type: "object", properties: {
 *     hosts: { type: "array", items: { type: "string" }, "x-kubernetes-list-type": "set" },
 *   } } },
 * });
 * ```
 */
export function applySchemaFromOpenApi(
  openAPIV3Schema: SchemaProps | undefined,
): StructApplySchema {
  if (!openAPIV3Schema) return struct({ metadata: objectMetaApplySchema });
  const hit = cache.get(openAPIV3Schema);
  if (hit) return hit;
  const root = toStruct(openAPIV3Schema);
  const out = struct({ ...root.fields, metadata: objectMetaApplySchema }, root.elements);
  cache.set(openAPIV3Schema, out);
  return out;
}
