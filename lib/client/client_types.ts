/**
 * Types of the REST client: the {@link Client} interface and the options of its verbs.
 *
 * @module
 */
import type { Either } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { Status } from "../core/status.ts";
import type { LabelSelector } from "../core/label_selector.ts";
import type { FieldSelector } from "../core/field_selector.ts";
import type { ClientConfig } from "./config/types.ts";
import type { ApiError } from "./api_error.ts";
import type { ApiResource } from "./api_resource.ts";
import type { RequestSpec } from "./_transport.ts";

/** A resource, resolved (`ApiResource`) or to resolve through discovery (`apiVersion` + `kind`). */
export type ResourceSpec = ApiResource | { readonly apiVersion: string; readonly kind: string };

/** What every verb resolves to. */
export type Result<T> = Promise<Either<ApiError, T>>;

/** A `<Kind>List` response. */
export interface ObjectList<T> {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: {
    readonly resourceVersion?: string;
    readonly continue?: string;
    readonly remainingItemCount?: number;
  };
  readonly items: T[];
}

/** Scope of a list or watch: namespace (absent = all namespaces) and selectors. */
export interface ScopeOptions {
  /** Namespace; absent means all namespaces (cluster-scoped resources ignore it). */
  readonly namespace?: string;
  readonly labelSelector?: string | LabelSelector;
  readonly fieldSelector?: string | FieldSelector;
}

/** Options of {@link Client.list} and {@link Client.listPage}. */
export interface ListOptions extends ScopeOptions {
  /** Page size; `list` defaults to 500, `listPage` sends none unless given. */
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: "Exact" | "NotOlderThan";
  readonly signal?: AbortSignal;
}

/** Options of {@link Client.watch}. */
export interface WatchOptions extends ScopeOptions {
  readonly resourceVersion?: string;
  /** Server-side timeout of the watch. */
  readonly timeoutSeconds?: number;
  /** Default true. */
  readonly allowWatchBookmarks?: boolean;
  /** Streaming list: initial ADDED events, then a bookmark annotated `k8s.io/initial-events-end`. */
  readonly sendInitialEvents?: boolean;
  readonly signal?: AbortSignal;
}

/** Options shared by writes. */
export interface WriteOptions {
  /** Default: the object's namespace, else the config's namespace. */
  readonly namespace?: string;
  /** Recorded in managedFields; default the client's `fieldManager`. */
  readonly fieldManager?: string;
  readonly dryRun?: boolean;
  readonly fieldValidation?: "Ignore" | "Warn" | "Strict";
  readonly signal?: AbortSignal;
}

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  readonly op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

/** A patch and its kind (the Content-Type it is sent with). */
export type Patch =
  | { readonly type: "json"; readonly operations: readonly JsonPatchOperation[] }
  | { readonly type: "merge"; readonly body: unknown }
  | { readonly type: "strategic"; readonly body: unknown };

/** Options of {@link Client.patch}. */
export interface PatchOptions extends WriteOptions {
  readonly patch: Patch;
  /** E.g. `status` or `scale`. */
  readonly subresource?: string;
}

/** Options of {@link Client.apply}. */
export interface ApplyOptions extends WriteOptions {
  /** Take ownership of fields other managers own instead of failing with 409; default false. */
  readonly force?: boolean;
  readonly subresource?: string;
}

/** Options of {@link Client.delete}. */
export interface DeleteOptions {
  readonly namespace?: string;
  readonly propagationPolicy?: "Orphan" | "Background" | "Foreground";
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

/** Options of {@link Client.get}. */
export interface GetOptions {
  readonly namespace?: string;
  readonly subresource?: string;
  readonly signal?: AbortSignal;
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
  get<T = KubeObject>(resource: ResourceSpec, name: string, options?: GetOptions): Result<T>;
  /** All pages (`limit` default 500); restarts unpaginated if a continue token expires. */
  list<T = KubeObject>(resource: ResourceSpec, options?: ListOptions): Result<ObjectList<T>>;
  /** One page, exactly as asked. */
  listPage<T = KubeObject>(resource: ResourceSpec, options?: ListOptions): Result<ObjectList<T>>;
  create<T extends KubeObject>(object: T, options?: WriteOptions): Result<T>;
  /** PUT; the object's `metadata.resourceVersion`, if set, makes it conditional. */
  replace<T extends KubeObject>(object: T, options?: WriteOptions): Result<T>;
  /** PUT to `/status`. */
  replaceStatus<T extends KubeObject>(object: T, options?: WriteOptions): Result<T>;
  patch<T = KubeObject>(resource: ResourceSpec, name: string, options: PatchOptions): Result<T>;
  /** Server-side apply (`application/apply-patch+yaml`, sent as JSON). */
  apply<T extends KubeObject>(object: T, options?: ApplyOptions): Result<T>;
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
