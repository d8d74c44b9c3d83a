/**
 * Types of the REST client: the {@link Client} interface and the options of its verbs.
 *
 * @module
 */
import type { Either } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Status } from "../core/status.ts";
import type { LabelSelector } from "../core/label_selector.ts";
import type { FieldSelector } from "../core/field_selector.ts";
import type { ClientConfig } from "./config/types.ts";
import type { ApiError } from "./api_error.ts";
import type { ApiResource } from "./api_resource.ts";
import type { RequestSpec } from "./_transport.ts";
import type { RequestPriority } from "./create_request_budget.ts";

/** A resource, resolved (`ApiResource`) or to resolve through discovery (`apiVersion` + `kind`). */
export type ResourceSpec = ApiResource | { readonly apiVersion: string; readonly kind: string };

/** What every verb resolves to. */
export type Result<T> = Promise<Either<ApiError, T>>;

/** A `<Kind>List` response. */
export interface ObjectList<T> {
  /** The list's `group/version`. */
  readonly apiVersion?: string;
  /** The list's kind, e.g. `PodList`. */
  readonly kind?: string;
  /** The list's resourceVersion (to watch from) and continue token (next page). */
  readonly metadata: {
    readonly resourceVersion?: string;
    readonly continue?: string;
    readonly remainingItemCount?: number;
  };
  /** The objects. */
  readonly items: T[];
}

/** Scope of a list or watch: namespace (absent = all namespaces) and selectors. */
export interface ScopeOptions {
  /** Namespace; absent means all namespaces (cluster-scoped resources ignore it). */
  readonly namespace?: string;
  /** Label selector, as text (`app=web,tier in (a,b)`) or parsed. */
  readonly labelSelector?: string | LabelSelector;
  /** Field selector, as text (`metadata.name=web`) or parsed. */
  readonly fieldSelector?: string | FieldSelector;
  /**
   * Ask only for the objects' metadata (`PartialObjectMetadata`, as client-go's metadata
   * client does): items and watch events carry `apiVersion: meta.k8s.io/v1`,
   * `kind: PartialObjectMetadata` and `metadata`. Default false.
   */
  readonly metadataOnly?: boolean;
}

/** Options of {@link Client.list} and {@link Client.listPage}. */
export interface ListOptions extends ScopeOptions {
  /** Page size; `list` defaults to 500, `listPage` sends none unless given. */
  readonly limit?: number;
  /** Continue token of the previous page. */
  readonly continue?: string;
  /** List at (or not older than, see `resourceVersionMatch`) this resourceVersion; `0`: from the cache. */
  readonly resourceVersion?: string;
  /** How `resourceVersion` is matched. */
  readonly resourceVersionMatch?: "Exact" | "NotOlderThan";
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** Options of {@link Client.watch}. */
export interface WatchOptions extends ScopeOptions {
  /** Watch changes after this resourceVersion (absent: from now, or with `sendInitialEvents`). */
  readonly resourceVersion?: string;
  /** Server-side timeout of the watch. */
  readonly timeoutSeconds?: number;
  /** Default true. */
  readonly allowWatchBookmarks?: boolean;
  /** Streaming list: initial ADDED events, then a bookmark annotated `k8s.io/initial-events-end`. */
  readonly sendInitialEvents?: boolean;
  /** Aborts the watch. */
  readonly signal?: AbortSignal;
}

/** Options shared by writes. */
export interface WriteOptions {
  /** Default: the object's namespace, else the config's namespace. */
  readonly namespace?: string;
  /** Recorded in managedFields; default the client's `fieldManager`. */
  readonly fieldManager?: string;
  /** Validate and answer without persisting (`dryRun=All`). */
  readonly dryRun?: boolean;
  /** How the server treats unknown or duplicate fields (default `Strict` on the server). */
  readonly fieldValidation?: "Ignore" | "Warn" | "Strict";
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** The budget share it draws from (`leader-election` for Lease renewals); default normal. */
  readonly priority?: RequestPriority;
}

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  /** The JSON Patch operation. */
  readonly op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  /** JSON Pointer to the target location. */
  readonly path: string;
  /** The value of `add`, `replace` and `test`. */
  readonly value?: unknown;
  /** JSON Pointer to the source of `move` and `copy`. */
  readonly from?: string;
}

/** A patch and its kind (the Content-Type it is sent with). */
export type Patch =
  | { readonly type: "json"; readonly operations: readonly JsonPatchOperation[] }
  | { readonly type: "merge"; readonly body: unknown }
  | { readonly type: "strategic"; readonly body: unknown };

/** Options of {@link Client.patch}. */
export interface PatchOptions extends WriteOptions {
  /** The patch and its format. */
  readonly patch: Patch;
  /** E.g. `status` or `scale`. */
  readonly subresource?: string;
}

/** Options of {@link Client.apply}. */
export interface ApplyOptions extends WriteOptions {
  /** Take ownership of fields other managers own instead of failing with 409; default false. */
  readonly force?: boolean;
  /** A subresource to apply to, e.g. `status`. */
  readonly subresource?: string;
}

/** Options of {@link Client.delete}. */
export interface DeleteOptions {
  /** The namespace (default: the client's). */
  readonly namespace?: string;
  /** What happens to dependents (default: the resource's, usually `Background`). */
  readonly propagationPolicy?: "Orphan" | "Background" | "Foreground";
  /** Delete only if the object still has this uid and/or resourceVersion (else 409). */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  /** Seconds before the object is deleted (pods); 0: at once. */
  readonly gracePeriodSeconds?: number;
  /** Validate without deleting (`dryRun=All`). */
  readonly dryRun?: boolean;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** Options of {@link Client.get}. */
export interface GetOptions {
  /** The namespace (default: the client's). */
  readonly namespace?: string;
  /** A subresource to read, e.g. `status` or `scale`. */
  readonly subresource?: string;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
  /** The budget share it draws from (`leader-election` for Lease reads); default normal. */
  readonly priority?: RequestPriority;
}

/**
 * A Kubernetes REST client. Every verb resolves to `Either<ApiError, T>`; none throws for
 * an expected failure. Object verbs take the resource from the object's `apiVersion`/`kind`.
 */
export interface Client {
  /** The configuration (server, default namespace); credentials stay wrapped. */
  readonly config: ClientConfig;
  /** Resolves `apiVersion` + `kind` (or passes a `ApiResource` through) via cached discovery. */
  resolve(resource: ResourceSpec, signal?: AbortSignal): Result<ApiResource>;
  /** GET of one object. */
  get<T = KubeObject>(resource: ResourceSpec, name: string, options?: GetOptions): Result<T>;
  /** All pages (`limit` default 500); restarts unpaginated if a continue token expires. */
  list<T = KubeObject>(resource: ResourceSpec, options?: ListOptions): Result<ObjectList<T>>;
  /** One page, exactly as asked. */
  listPage<T = KubeObject>(resource: ResourceSpec, options?: ListOptions): Result<ObjectList<T>>;
  /** POST of a new object (its `apiVersion` and `kind` name the resource). */
  create<T extends HasMetadata>(object: T, options?: WriteOptions): Result<T>;
  /** PUT; the object's `metadata.resourceVersion`, if set, makes it conditional. */
  replace<T extends HasMetadata>(object: T, options?: WriteOptions): Result<T>;
  /** PUT to `/status`. */
  replaceStatus<T extends HasMetadata>(object: T, options?: WriteOptions): Result<T>;
  /** PATCH of an object: JSON merge, JSON Patch, strategic merge or apply. */
  patch<T = KubeObject>(resource: ResourceSpec, name: string, options: PatchOptions): Result<T>;
  /** Server-side apply (`application/apply-patch+yaml`, sent as JSON). */
  apply<T extends HasMetadata>(object: T, options?: ApplyOptions): Result<T>;
  /** The deleted (or deletion-pending) object, or the server's success `Status`. */
  delete<T = KubeObject>(
    resource: ResourceSpec,
    name: string,
    options?: DeleteOptions,
  ): Result<T | Status>;
  /** Starts a watch; the body is newline-delimited JSON events. Abort with `signal`. */
  watch(resource: ResourceSpec, options?: WatchOptions): Result<ReadableStream<Uint8Array>>;
  /** A raw request through the same budget, credentials and retries. */
  request(spec: RequestSpec): Result<Response>;
  /** Releases the HTTP client (TLS); in-flight requests should be aborted first. */
  close(): void;
}
