/**
 * The name fields of built-in types that kube-apiserver validates as DNS labels, stamped
 * into their schemas as the formats Kubernetes' declarative validation uses
 * (`k8s-short-name` = RFC 1123 label), so the schema-driven checks find them. Like the
 * `+k8s:format=k8s-short-name` tags of Kubernetes 1.34 types.
 *
 * @module
 */
import type { SchemaProps } from "../../schema/types.ts";

/** Component name -> property -> format. */
export const NAME_FORMAT_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "io.k8s.api.core.v1.Container": { name: "k8s-short-name" },
  "io.k8s.api.core.v1.EphemeralContainer": { name: "k8s-short-name" },
  "io.k8s.api.core.v1.Volume": { name: "k8s-short-name" },
  "io.k8s.api.core.v1.ServicePort": { name: "k8s-short-name" },
};

/**
 * A component schema with the name formats of {@link NAME_FORMAT_FIELDS} set (a copy; the
 * loaded schema is shared and left alone).
 *
 * @example
 * ```ts
 * import { withNameFormats } from "./name_formats.ts";
 * const s = withNameFormats("io.k8s.api.core.v1.Volume", {
 *   type: "object", properties: { name: { type: "string" } },
 * });
 * s.properties?.name.format; // "k8s-short-name"
 * ```
 */
export function withNameFormats(name: string, schema: SchemaProps): SchemaProps {
  const fields = Object.hasOwn(NAME_FORMAT_FIELDS, name) ? NAME_FORMAT_FIELDS[name] : undefined;
  if (!fields || !schema.properties) return schema;
  const properties = { ...schema.properties };
  for (const [field, format] of Object.entries(fields)) {
    if (properties[field]) properties[field] = { ...properties[field], format };
  }
  return { ...schema, properties };
}
