/**
 * What the API server knows about a served resource: names, scope, verbs, subresources and
 * per-kind behaviour. Built-in resources come from a static catalog, custom ones from CRDs.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { humanDuration } from "../core/time.ts";
import type { FieldError } from "../core/status.ts";
import type { ApplySchema } from "./apply/mod.ts";

/** Column of a server-side Table. */
export interface TableColumn {
  readonly name: string;
  readonly type: "string" | "integer" | "number" | "boolean" | "date";
  readonly format?: string;
  readonly description: string;
  readonly priority: number;
  /** Computes the cell; `undefined` renders as null. */
  readonly cell: (obj: KubeObject, now: number) => unknown;
}

/** The scale subresource's paths (`.spec.replicas`-style). */
export interface ScaleInfo {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** Schema hooks for custom resources: pruning, defaulting and validation of a body. */
export interface ObjectSchema {
  /** The schema's defaults filled in, nothing pruned or checked (before admission webhooks). */
  readonly defaults?: (obj: KubeObject) => KubeObject;
  readonly admit: (
    obj: KubeObject,
    fieldValidation: "Strict" | "Warn" | "Ignore",
    old?: KubeObject,
  ) =>
    | { readonly ok: true; readonly object: KubeObject; readonly warnings: readonly string[] }
    | {
      readonly ok: false;
      readonly reason: "BadRequest" | "Invalid";
      readonly errors: readonly FieldError[];
    };
}

/** A subresource beyond status and scale, as discovery lists it. */
export interface ExtraSubresource {
  readonly name: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  /** Group of the kind when not the resource's own (e.g. `policy` for `pods/eviction`). */
  readonly group?: string;
  /** Version of the kind when `group` is set. */
  readonly version?: string;
}

/** A CRD's conversion settings, as every served version's {@link ResourceInfo} carries them. */
export interface CrdConversion {
  /** The CRD's name (`<plural>.<group>`). */
  readonly crdName: string;
  /** The version objects are written in (`storage: true`). */
  readonly storageVersion: string;
  readonly strategy: "None" | "Webhook";
  /** `spec.conversion.webhook.clientConfig` (with strategy Webhook). */
  readonly clientConfig?: unknown;
  /** `spec.conversion.webhook.conversionReviewVersions`. */
  readonly conversionReviewVersions?: readonly string[];
}

/** A served resource at one group/version. */
export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. `pods`. */
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  /** Storage identity shared by all versions of one resource: `group/plural`. */
  readonly storageKey: string;
  readonly hasStatus: boolean;
  /**
   * A create keeps the status it is sent (Nodes: the kubelet registers with its status, and
   * kube's node strategy lets "all fields, including status" be set on create).
   */
  readonly statusOnCreate?: boolean;
  readonly scale?: ScaleInfo;
  /**
   * Extra subresources (e.g. `binding`) with their verbs, and the group/version of their kind
   * when it lives elsewhere (`pods/eviction` is a `policy/v1` Eviction).
   */
  readonly extraSubresources: readonly ExtraSubresource[];
  /**
   * The verbs served when not the {@link standardVerbs}: `["create"]` for the review kinds
   * (SelfSubjectAccessReview, TokenReview, ...) that are computed per request, never stored.
   */
  readonly verbs?: readonly string[];
  /** Whether spec changes bump `metadata.generation`. */
  readonly hasGeneration: boolean;
  /** Whether PUT without resourceVersion is allowed (built-ins yes, custom resources no). */
  readonly allowUnconditionalUpdate: boolean;
  /** Whether DELETE answers with the deleted object rather than a Status. */
  readonly returnDeletedObject: boolean;
  /**
   * Name validation: DNS-1123 subdomain (default), label, DNS-1035 label, or only the
   * path-segment rules (`path`: RBAC kinds, APIServices).
   */
  readonly nameRule: "subdomain" | "label" | "dns1035" | "path";
  /** Field selectors beyond metadata.name/namespace, with their getters. */
  readonly fieldSelectors: Readonly<Record<string, (obj: KubeObject) => string | undefined>>;
  /** The NAME cell when not the name (`standard (default)` for the default StorageClass). */
  readonly nameCell?: (obj: KubeObject) => string;
  /** Table columns after NAME (kube-apiserver's printers, or CRD printer columns). */
  readonly columns: readonly TableColumn[];
  readonly isCustom: boolean;
  readonly schema?: ObjectSchema;
  /**
   * Discovery's `storageVersionHash`: the hash of the group/version/kind the resource is
   * stored as (see `storage_version_hash.ts`).
   */
  readonly storageVersionHash?: string;
  /** Strategic-merge patch allowed (built-ins). */
  readonly strategicMerge: boolean;
  /** List/map merge semantics for server-side apply (custom resources: from the schema). */
  readonly applySchema?: ApplySchema;
  /**
   * How the versions of a custom resource convert: the storage version, and the CRD's
   * strategy (`None` rewrites `apiVersion`; `Webhook` calls the conversion webhook).
   */
  readonly crdConversion?: CrdConversion;
  /** Conversion when this version is stored as another one (events.k8s.io/v1 as core/v1). */
  readonly convert?: {
    readonly toStored: (obj: KubeObject) => KubeObject;
    readonly fromStored: (obj: KubeObject) => KubeObject;
  };
}

/**
 * The AGE column: creation timestamp rendered as a human-readable age.
 *
 * @example
 * ```ts
 * import { ageColumn } from "./resource_info.ts";
 * ageColumn.cell({ metadata: { creationTimestamp: "1970-01-01T00:00:00Z" } }, 45_000); // "45s"
 * ```
 */
export const ageColumn: TableColumn = {
  name: "Age",
  type: "date",
  description:
    "CreationTimestamp is a timestamp representing the server time when this object was created.",
  priority: 0,
  cell: (obj, now) => {
    const ts = obj.metadata?.creationTimestamp;
    return ts ? humanDuration(now - Date.parse(String(ts))) : "<unknown>";
  },
};

/** `group/version`, or `version` for the core group. */
export function groupVersion(info: Pick<ResourceInfo, "group" | "version">): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/** `plural` or `plural.group`, as used in error messages. */
export function qualifiedResource(info: Pick<ResourceInfo, "group" | "plural">): string {
  return info.group ? `${info.plural}.${info.group}` : info.plural;
}

/** The verbs of an ordinary resource, as discovery lists them. */
export const standardVerbs = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
] as const;

/**
 * The verbs a resource serves: its own list, or the {@link standardVerbs}.
 *
 * @example
 * ```ts
 * import { servedVerbs } from "./resource_info.ts";
 * servedVerbs({ verbs: ["create"] }); // ["create"]
 * servedVerbs({}).includes("watch"); // true
 * ```
 */
export function servedVerbs(info: Pick<ResourceInfo, "verbs">): readonly string[] {
  return info.verbs ?? standardVerbs;
}
