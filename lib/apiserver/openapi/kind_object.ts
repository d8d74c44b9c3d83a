/**
 * The schema of a top-level kind: `apiVersion`, `kind`, `metadata` (ObjectMeta or ListMeta by
 * reference) plus its own fields, tagged with `x-kubernetes-group-version-kind` so
 * `kubectl explain` can find it.
 *
 * @module
 */
import type { Gvk, Schema } from "./schema_builder.ts";
import { s } from "./schema_builder.ts";
import {
  apiVersionDescription,
  kindDescription,
  listMetaName,
  metadataDescription,
  objectMetaName,
} from "./meta_schemas.ts";

/** Options of {@link kindObject}. */
export interface KindObjectOptions {
  readonly required?: readonly string[];
  /** Reference ListMeta instead of ObjectMeta (list kinds). */
  readonly list?: boolean;
  /** Extra keywords (e.g. `x-kubernetes-preserve-unknown-fields`). */
  readonly extra?: Schema;
}

/**
 * A kind's schema with the standard type and object metadata fields in front of `properties`.
 *
 * @example
 * ```ts
 * import { kindObject } from "./kind_object.ts";
 * import { s } from "./schema_builder.ts";
 * const cm = kindObject({ group: "", version: "v1", kind: "ConfigMap" }, "Config data.", {
 *   data: s.map("Keys and values."),
 * });
 * Object.keys(cm.properties as object); // ["apiVersion", "kind", "metadata", "data"]
 * ```
 */
export function kindObject(
  gvk: Gvk,
  description: string | undefined,
  properties: Readonly<Record<string, Schema>>,
  opts: KindObjectOptions = {},
): Schema {
  return {
    ...s.obj(description, {
      apiVersion: s.str(apiVersionDescription),
      kind: s.str(kindDescription),
      metadata: opts.list
        ? s.use(listMetaName, "Standard list metadata.")
        : s.use(objectMetaName, metadataDescription),
      ...properties,
    }, { required: opts.required }),
    ...opts.extra,
    "x-kubernetes-group-version-kind": [
      { group: gvk.group, kind: gvk.kind, version: gvk.version },
    ],
  };
}
