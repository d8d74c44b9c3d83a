/**
 * `customResourceDefinition()`: a complete CRD from schema-builder schemas — names, scope,
 * versions, subresources, printer columns, short names and categories — so the CRD object and
 * the TypeScript types come from one definition and `kubefold manifests` can print it.
 *
 * @module
 */
import type { k8sApiextensions } from "../deps.ts";
import type { JsonSchema, Schema } from "../reconcile/schema_builder.ts";

/** The scale subresource: where replicas and the selector live. */
export interface ScaleSubresource {
  /** e.g. `.spec.replicas`. */
  readonly specReplicasPath: string;
  /** e.g. `.status.replicas`. */
  readonly statusReplicasPath: string;
  /** e.g. `.status.selector` (a string-form label selector). */
  readonly labelSelectorPath?: string;
}

/** A printer column of `kubectl get`. */
export interface PrinterColumn {
  /** The column's header. */
  readonly name: string;
  /** How the value is shown. */
  readonly type: "integer" | "number" | "string" | "boolean" | "date";
  /** JSONPath of the value in the object, e.g. `.status.replicas`. */
  readonly jsonPath: string;
  /** What the column shows (`kubectl explain` and wide output). */
  readonly description?: string;
  /** A format of the type, e.g. `date-time`. */
  readonly format?: string;
  /** 0 (default): always shown; higher: only with `-o wide`. */
  readonly priority?: number;
}

/** One served version of a custom resource. */
export interface CrdVersionOptions {
  /** Version name, e.g. `v1alpha1`. */
  readonly name: string;
  /** Schema of the whole object (see {@link resourceSchema}). */
  readonly schema: Schema<unknown>;
  /** Served by the API (default true). */
  readonly served?: boolean;
  /** The storage version (default: the only version, else the last one listed). */
  readonly storage?: boolean;
  /** A `status` subresource (default true: reconcilers write status through it). */
  readonly status?: boolean;
  /** A `scale` subresource (default none). */
  readonly scale?: ScaleSubresource;
  /** `kubectl get` columns (an `Age` column is added last unless one is listed). */
  readonly printerColumns?: readonly PrinterColumn[];
  /** Marks the version deprecated, with an optional warning. */
  readonly deprecated?: boolean;
  /** The warning clients print when they use the deprecated version. */
  readonly deprecationWarning?: string;
}

/** Options of {@link customResourceDefinition}. */
export interface CrdOptions {
  /** API group, e.g. `myapp.example.com`. */
  readonly group: string;
  /** Kind, e.g. `HelloWorld`. */
  readonly kind: string;
  /** Plural resource name (default: the kind in lower case plus `s`). */
  readonly plural?: string;
  /** Singular name (default: the kind in lower case). */
  readonly singular?: string;
  /** Default `Namespaced`. */
  readonly scope?: "Namespaced" | "Cluster";
  /** Short names for `kubectl`, e.g. `["hw"]`. */
  readonly shortNames?: readonly string[];
  /** e.g. `["all"]` so `kubectl get all` lists it. */
  readonly categories?: readonly string[];
  /** At least one. */
  readonly versions: readonly CrdVersionOptions[];
}

/**
 * The default plural of a kind, as kubebuilder spells it.
 *
 * @example
 * ```ts
 * import { pluralOf } from "../../mod.ts";
 * pluralOf("Policy"); // "policies"
 * pluralOf("HelloWorld"); // "helloworlds"
 * ```
 */
export function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/**
 * The schema of a whole custom object: `apiVersion`, `kind`, `metadata`, the given `spec`
 * (required unless optional) and an optional `status`.
 *
 * @example
 * ```ts
 * import { resourceSchema, t } from "../../mod.ts";
 * const s = resourceSchema(t.object({ size: t.integer() }), t.object({ ready: t.boolean() }));
 * s.json.required; // ["spec"]
 * ```
 */
export function resourceSchema(
  spec: Schema<unknown>,
  status?: Schema<unknown>,
): Schema<unknown> {
  const properties: Record<string, JsonSchema> = {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: spec.json,
    ...(status ? { status: status.json } : {}),
  };
  return {
    json: { type: "object", properties, ...(spec.optional ? {} : { required: ["spec"] }) },
    optional: false,
  };
}

/**
 * Builds an `apiextensions.k8s.io/v1` CustomResourceDefinition.
 *
 * Like kubebuilder's `controller-gen crd` markers, but a function of values: the schema comes
 * from the schema builder (`t`), everything else from options with the defaults
 * `kubectl` users expect (status subresource on, an `Age` column, lower-case plural).
 *
 * @param options group, kind, names, scope and versions.
 * @returns the CRD object, with fields in kube-apiserver's order.
 *
 * @example
 * ```ts
 * import { customResourceDefinition, resourceSchema, t } from "../../mod.ts";
 * const crd = customResourceDefinition({
 *   group: "myapp.example.com",
 *   kind: "HelloWorld",
 *   shortNames: ["hw"],
 *   versions: [{
 *     name: "v1",
 *     schema: resourceSchema(t.object({ replicas: t.integer() })),
 *     printerColumns: [{ name: "Replicas", type: "integer", jsonPath: ".spec.replicas" }],
 *   }],
 * });
 * crd.metadata?.name; // "helloworlds.myapp.example.com"
 * ```
 */
export function customResourceDefinition(
  options: CrdOptions,
): k8sApiextensions.CustomResourceDefinition {
  const { group, kind, versions } = options;
  if (versions.length === 0) {
    throw new Error(`Cannot define the CRD of ${kind}.${group}: it has no version`);
  }
  const plural = options.plural ?? pluralOf(kind);
  const storageIndex = versions.findIndex((v) => v.storage) >= 0
    ? versions.findIndex((v) => v.storage)
    : versions.length - 1;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: {
        kind,
        listKind: `${kind}List`,
        plural,
        singular: options.singular ?? kind.toLowerCase(),
        ...(options.shortNames?.length ? { shortNames: [...options.shortNames] } : {}),
        ...(options.categories?.length ? { categories: [...options.categories] } : {}),
      },
      scope: options.scope ?? "Namespaced",
      versions: versions.map((v, i) => {
        const columns = [...(v.printerColumns ?? [])];
        if (!columns.some((c) => c.name.toLowerCase() === "age")) {
          columns.push({ name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" });
        }
        const status = v.status ?? true;
        return {
          name: v.name,
          served: v.served ?? true,
          storage: i === storageIndex,
          ...(v.deprecated ? { deprecated: true } : {}),
          ...(v.deprecationWarning ? { deprecationWarning: v.deprecationWarning } : {}),
          // The builder's schema carries x-kubernetes-* members kubernetes-types does not list.
          schema: { openAPIV3Schema: v.schema.json as k8sApiextensions.JSONSchemaProps },
          ...(status || v.scale
            ? {
              subresources: {
                ...(status ? { status: {} } : {}),
                ...(v.scale ? { scale: { ...v.scale } } : {}),
              },
            }
            : {}),
          additionalPrinterColumns: columns.map((c) => ({ ...c })),
        };
      }),
    },
  };
}
