/**
 * Number formats from `@kubernetes/client-node`'s generated models: TypeScript's `number`
 * loses whether a field is an int32, an int64 or a double, but each model's
 * `attributeTypeMap` keeps the OpenAPI `format` of every attribute.
 *
 * Models are matched as `client_node_models.ts` describes.
 *
 * @module
 */
import { type Attribute, attributeOf, candidates, models } from "./client_node_models.ts";

/** A number format and where it came from. */
export interface NumberFormat {
  readonly format: "int32" | "int64" | "double";
  /** The model it was read from, or `undefined` when none had the field (the default). */
  readonly model?: string;
}

/** Fields no client-node 2.0.1 model has any more (resource.k8s.io/v1alpha2 was removed). */
const known: Record<string, NumberFormat["format"]> = {
  "resource/v1alpha2.NamedResourcesAttribute.int": "int64",
  "resource/v1alpha2.NamedResourcesIntSlice.ints": "int64",
};

const isNumeric = (a: Attribute | undefined) =>
  a !== undefined && /(^|<|: )number(>|;|$)/.test(a.type) &&
  (a.format === "int32" || a.format === "int64" || a.format === "double");

/**
 * The format of a numeric field (`number`, `number[]` or a map of numbers) of
 * `<file>.<type>`: from the group-prefixed model, else the plain model, else the same type
 * name at any version when all such models agree; `int32` with no `model` otherwise.
 *
 * @example
 * ```ts ignore
 * numberFormat("core/v1", "ContainerPort", "containerPort"); // { format: "int32", model: "V1ContainerPort" }
 * ```
 */
export function numberFormat(file: string, type: string, field: string): NumberFormat {
  for (const model of candidates(file, type)) {
    const attr = attributeOf(model, field);
    if (isNumeric(attr)) return { format: attr!.format as NumberFormat["format"], model };
  }
  const found = new Map<string, string>();
  for (const [model, attrs] of models) {
    if (
      !model.endsWith(type) || !/^([A-Z][a-z]+)?V\d+((alpha|beta)\d+)?$/.test(
        model.slice(0, -type.length),
      )
    ) continue;
    const attr = attrs.find((a) => a.baseName === field);
    if (isNumeric(attr)) found.set(attr!.format, model);
  }
  if (found.size === 1) {
    const [[format, model]] = found;
    return { format: format as NumberFormat["format"], model };
  }
  const fixed = known[`${file}.${type}.${field}`];
  return fixed ? { format: fixed, model: "(known)" } : { format: "int32" };
}

/**
 * Whether client-node marks a string field (or map of strings) as base64 `byte`.
 *
 * @example
 * ```ts ignore
 * isByteField("core/v1", "Secret", "data"); // true
 * ```
 */
export function isByteField(file: string, type: string, field: string): boolean {
  for (const model of candidates(file, type)) {
    const attr = attributeOf(model, field);
    if (attr) return attr.format === "byte";
  }
  return false;
}
