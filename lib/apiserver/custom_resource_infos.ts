/**
 * Pure translation of a CustomResourceDefinition into the resources it serves: one
 * {@link ResourceInfo} per served version, with schema admission, printer columns, scale
 * paths and selectable fields; CEL rules run only with a `cel` validator (this module does
 * not load CEL: `crdResourceInfos()` in `crd_resources.ts` passes the API server's).
 *
 * @module
 */
import { storageVersionHash } from "./storage_version_hash.ts";
import type { k8sApiextensions } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import { humanDuration } from "../core/time.ts";
import {
  ageColumn,
  type CrdConversion,
  type ResourceInfo,
  type TableColumn,
} from "./resource_info.ts";
import { applyDefaults, compileSchema, processCustomResource } from "./schema/mod.ts";
import type { FieldError } from "../core/status.ts";
import type { CompiledSchema } from "./schema/mod.ts";
import { applySchemaFromOpenApi } from "./apply/mod.ts";
import { compileJsonPath, evalJsonPath, renderJsonPathCell } from "./jsonpath.ts";

/** A CRD as stored. */
export type Crd = k8sApiextensions.CustomResourceDefinition;
type CrdVersion = k8sApiextensions.CustomResourceDefinitionVersion;
type PrinterColumn = k8sApiextensions.CustomResourceColumnDefinition;

function column(c: PrinterColumn): TableColumn | undefined {
  const compiled = compileJsonPath(c.jsonPath);
  if (compiled._tag === "Left") return undefined;
  const path = compiled.right;
  const type =
    (["integer", "number", "boolean", "date", "string"].includes(c.type)
      ? c.type
      : "string") as TableColumn["type"];
  return {
    name: c.name,
    type,
    format: c.format ?? "",
    description: c.description ??
      `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    priority: c.priority ?? 0,
    cell: (obj: KubeObject, now: number) => {
      const v = renderJsonPathCell(path, obj, { columnType: type, multiple: "join" });
      if (type !== "date" || typeof v !== "string") return v ?? undefined;
      const t = Date.parse(v);
      return Number.isNaN(t) ? "<invalid>" : humanDuration(now - t);
    },
  };
}

function fieldGetter(jsonPath: string): ((obj: KubeObject) => string | undefined) | undefined {
  const compiled = compileJsonPath(jsonPath);
  if (compiled._tag === "Left") return undefined;
  return (obj) => {
    const [v] = evalJsonPath(compiled.right, obj);
    return v === undefined || v === null ? "" : String(v);
  };
}

/** Checks the CEL rules of a schema: given the stored object on update. */
export type CelValidatorFor = (
  oldObject: KubeObject | undefined,
) => (object: unknown, schema: CompiledSchema) => FieldError[];

/** Options of {@link customResourceInfos}. */
export interface CustomResourceInfosOptions {
  /** Runs `x-kubernetes-validations`; default none (the rules are not checked). */
  readonly cel?: CelValidatorFor;
}

function conversionOf(crd: Crd): CrdConversion {
  const c = crd.spec.conversion;
  const storage = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  return {
    crdName: crd.metadata?.name ?? `${crd.spec.names.plural}.${crd.spec.group}`,
    storageVersion: storage?.name ?? "",
    strategy: c?.strategy === "Webhook" ? "Webhook" : "None",
    ...(c?.strategy === "Webhook" && c.webhook
      ? {
        clientConfig: c.webhook.clientConfig,
        conversionReviewVersions: c.webhook.conversionReviewVersions,
      }
      : {}),
  };
}

function versionInfo(
  crd: Crd,
  v: CrdVersion,
  storageKey: string,
  cel: CelValidatorFor | undefined,
): ResourceInfo {
  const { group, names, scope } = crd.spec;
  const root = v.schema?.openAPIV3Schema ??
    { type: "object", "x-kubernetes-preserve-unknown-fields": true };
  const compiled = compileSchema(root);
  const columns = (v.additionalPrinterColumns ?? []).map(column).filter((c): c is TableColumn =>
    !!c
  );
  const fieldSelectors: Record<string, (o: KubeObject) => string | undefined> = {};
  for (const f of v.selectableFields ?? []) {
    const getter = fieldGetter(f.jsonPath);
    if (getter) fieldSelectors[f.jsonPath.replace(/^\./, "")] = getter;
  }
  const scale = v.subresources?.scale;
  return {
    group,
    version: v.name,
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    namespaced: scope === "Namespaced",
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    storageKey,
    hasStatus: v.subresources?.status !== undefined,
    scale: scale
      ? {
        specReplicasPath: scale.specReplicasPath,
        statusReplicasPath: scale.statusReplicasPath,
        labelSelectorPath: scale.labelSelectorPath,
      }
      : undefined,
    extraSubresources: [],
    hasGeneration: true,
    storageVersionHash: storageVersionHash(
      group,
      crd.spec.versions.find((x) => x.storage)?.name ?? v.name,
      names.kind,
    ),
    allowUnconditionalUpdate: false,
    returnDeletedObject: false,
    nameRule: "subdomain",
    fieldSelectors,
    columns: v.additionalPrinterColumns?.length ? columns : [ageColumn],
    isCustom: true,
    crdConversion: conversionOf(crd),
    strategicMerge: false,
    applySchema: applySchemaFromOpenApi(root),
    schema: {
      defaults: (obj) => applyDefaults(obj, compiled) as KubeObject,
      admit: (obj, fieldValidation, old) => {
        const r = processCustomResource(obj, compiled, {
          fieldValidation,
          ...(compiled.hasCelRules && cel ? { celValidator: cel(old) } : {}),
        });
        return r.ok
          ? { ok: true, object: r.object as KubeObject, warnings: r.warnings }
          : { ok: false, reason: r.reason, errors: r.errors };
      },
    },
  };
}

/**
 * The resources a CRD serves: one per served version, checking CEL rules only with
 * `options.cel`.
 *
 * Like `crdResourceInfos()`, but without the CEL evaluator unless one is passed in, so a
 * caller that serves custom resources without CEL (the test API) does not load it.
 *
 * @example
 * ```ts
 * import { customResourceInfos } from "./custom_resource_infos.ts";
 * const infos = customResourceInfos({
 *   apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
 *   metadata: { name: "widgets.example.com" },
 *   spec: { group: "example.com", scope: "Namespaced",
 *     names: { plural: "widgets", kind: "Widget" },
 *     versions: [{ name: "v1", served: true, storage: true,
 *       schema: { openAPIV3Schema: { type: "object" } } }] },
 * });
 * infos[0].plural; // "widgets"
 * ```
 */
export function customResourceInfos(
  crd: Crd,
  options: CustomResourceInfosOptions = {},
): ResourceInfo[] {
  const storageKey = `${crd.spec.group}/${crd.spec.names.plural}`;
  return crd.spec.versions.filter((v) => v.served).map((v) =>
    versionInfo(crd, v, storageKey, options.cel)
  );
}
