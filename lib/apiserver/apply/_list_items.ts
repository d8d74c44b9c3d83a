/**
 * Private: the path element of a list item under a list schema (key of a list-map item,
 * value of a set member).
 *
 * @module
 */
import type { Json } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ListMapApplySchema } from "./apply_schema.ts";
import { keyElement, type PathElement, valueElement } from "./path_element.ts";

/** The key element of a list-map item, or the name of the first key it lacks. */
export function itemKey(
  item: unknown,
  schema: ListMapApplySchema,
): { element: PathElement } | { missing: string } {
  if (!isPlainObject(item)) return { missing: schema.keys[0] ?? "" };
  const fields: Record<string, Json> = {};
  for (const k of schema.keys) {
    const v = Object.prototype.hasOwnProperty.call(item, k) ? item[k] : schema.keyDefaults?.[k];
    if (v === undefined) return { missing: k };
    fields[k] = v as Json;
  }
  return { element: keyElement(fields) };
}

/** The element of a list item: its key for list maps, its value for sets. */
export function itemElement(
  item: unknown,
  schema: ListMapApplySchema | undefined,
): PathElement | undefined {
  if (!schema) return valueElement(item as Json);
  const r = itemKey(item, schema);
  return "element" in r ? r.element : undefined;
}
