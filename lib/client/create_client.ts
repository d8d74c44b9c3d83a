/**
 * `createClient()`: the REST client over Deno's `fetch`.
 *
 * @module
 */
import { asyncScheduler, E, type Either, type SchedulerLike } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import { formatLabelSelector } from "../core/label_selector.ts";
import { formatFieldSelector } from "../core/field_selector.ts";
import type { ClientConfig } from "./config/types.ts";
import { createHttpClient, type HttpClientOptions } from "./config/create_http_client.ts";
import type { ApiError, ApiObjectRef } from "./api_error.ts";
import { isGone } from "./is_api_error.ts";
import type { BackoffOptions } from "./backoff_delay.ts";
import { createRequestBudget, type RequestBudget } from "./create_request_budget.ts";
import { createDiscovery } from "./create_discovery.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { objectRefOf, resourcePath, type ResourceRef } from "./resource_ref.ts";
import { createTransport, type RequestSpec } from "./_transport.ts";
import type {
  Client,
  ListOptions,
  ObjectList,
  ResourceSpec,
  Result,
  ScopeOptions,
  WriteOptions,
} from "./client_types.ts";

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** The process-wide budget to share; default a new one with `rateLimit`. */
  readonly budget?: RequestBudget;
  /** QPS and burst of a new budget; default 20 and 30. */
  readonly rateLimit?: { readonly qps?: number; readonly burst?: number };
  /** Default `kubefold/0.1`; also the default field manager's base. */
  readonly userAgent?: string;
  /** Field manager of writes; default `kubefold`. */
  readonly fieldManager?: string;
  readonly logger?: Logger;
  /** Clock and timers of retries and the budget; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Retries of 429s and connection failures (GET/PUT); default 5. */
  readonly maxRetries?: number;
  /** Backoff between retries; default 200 ms doubling to 5 s, jitter 0.5. */
  readonly retryBackoff?: BackoffOptions;
  /** Random numbers in [0, 1) for jitter; default `Math.random`. */
  readonly random?: () => number;
  /** TLS opt-ins passed to `createHttpClient`. */
  readonly http?: HttpClientOptions;
}

const contentTypes = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
} as const;

function scopeQuery(q: URLSearchParams, o: ScopeOptions): void {
  const ls = o.labelSelector;
  const fs = o.fieldSelector;
  if (ls !== undefined) {
    const s = typeof ls === "string" ? ls : formatLabelSelector(ls);
    if (s) q.set("labelSelector", s);
  }
  if (fs !== undefined) {
    const s = typeof fs === "string" ? fs : formatFieldSelector(fs);
    if (s) q.set("fieldSelector", s);
  }
}

function writeQuery(o: WriteOptions, fieldManager: string): URLSearchParams {
  const q = new URLSearchParams();
  q.set("fieldManager", o.fieldManager ?? fieldManager);
  if (o.dryRun) q.set("dryRun", "All");
  if (o.fieldValidation) q.set("fieldValidation", o.fieldValidation);
  return q;
}

/**
 * Creates a client for one cluster: verbs, discovery, one shared request budget, retries.
 *
 * Like client-go's dynamic client plus a REST mapper, but every result is an
 * `Either<ApiError, T>`, and the TLS client comes from `createHttpClient` (a TLS setting Deno
 * cannot honour is a `config` error on every request). Close the client when done.
 *
 * @example
 * ```ts
 * import { createClient } from "./create_client.ts";
 * import { startApiServer } from "../apiserver/server.ts";
 * const server = await startApiServer();
 * const client = createClient({
 *   server: server.url, namespace: "default", tls: { insecureSkipVerify: false }, auth: { type: "none" },
 * });
 * const made = await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } });
 * const got = await client.get({ apiVersion: "v1", kind: "ConfigMap" }, "a");
 * got._tag === "Right" && got.right.metadata?.name; // "a"
 * client.close();
 * await server.close();
 * ```
 */
export function createClient(config: ClientConfig, options: ClientOptions = {}): Client {
  const scheduler = options.scheduler ?? asyncScheduler;
  const logger = options.logger ?? silentLogger;
  const fieldManager = options.fieldManager ?? "kubefold";
  // Plain HTTP has no TLS: its settings (e.g. insecure-skip-tls-verify) do not apply.
  const tls = config.server.startsWith("http://") ? { insecureSkipVerify: false } : config.tls;
  const http = createHttpClient(tls, { proxyUrl: config.proxyUrl, ...options.http });
  const httpClient = E.isRight(http) ? http.right : undefined;
  const transport = createTransport(config, {
    fetch: options.fetch ?? globalThis.fetch,
    budget: options.budget ?? createRequestBudget({ ...options.rateLimit, scheduler }),
    scheduler,
    userAgent: options.userAgent ?? "kubefold/0.1",
    logger,
    maxRetries: options.maxRetries ?? 5,
    retryBackoff: options.retryBackoff ?? { initialMs: 200, maxMs: 5_000, jitter: 0.5 },
    random: options.random ?? Math.random,
    ...(httpClient ? { httpClient } : {}),
  });
  const send: typeof transport = E.isLeft(http)
    ? (spec) =>
      Promise.resolve(E.left({
        type: "config",
        message: `Cannot ${spec.verb}: ${http.left.message}`,
        cause: http.left,
      }))
    : transport;

  const json = async <T>(spec: RequestSpec): Promise<Either<ApiError, T>> => {
    const res = await send(spec);
    if (E.isLeft(res)) return res;
    let text: string;
    try {
      text = await res.right.text();
    } catch (cause) {
      return E.left({
        type: spec.signal?.aborted ? "aborted" : "network",
        message: `Cannot ${spec.verb}: reading the response failed`,
        cause,
      } as ApiError);
    }
    try {
      return E.right(JSON.parse(text) as T);
    } catch {
      return E.left({
        type: "decode",
        message: `Cannot ${spec.verb}: the response is not JSON: ${text.slice(0, 200)}`,
        ...(spec.object ? { object: spec.object } : {}),
      });
    }
  };

  const discovery = createDiscovery((path, signal) =>
    json({ method: "GET", path, verb: "discover", ...(signal ? { signal } : {}) })
  );
  const resolve = (spec: ResourceSpec, signal?: AbortSignal): Result<ResourceRef> =>
    "plural" in spec
      ? Promise.resolve(E.right(spec))
      : discovery.resolve(spec.apiVersion, spec.kind, signal);
  const resolveObject = (obj: KubeObject, verb: string, signal?: AbortSignal) =>
    obj.apiVersion && obj.kind
      ? resolve({ apiVersion: obj.apiVersion, kind: obj.kind }, signal)
      : Promise.resolve(E.left<ApiError, ResourceRef>({
        type: "resolve",
        apiVersion: obj.apiVersion ?? "",
        kind: obj.kind ?? "",
        message: `Cannot ${verb} "${obj.metadata?.name ?? ""}": apiVersion and kind are required`,
      }));
  const nsOf = (
    ref: ResourceRef,
    given?: string,
  ) => (ref.namespaced ? given ?? config.namespace : undefined);

  const listPage = async <T>(spec: ResourceSpec, o: ListOptions = {}): Result<ObjectList<T>> => {
    const ref = await resolve(spec, o.signal);
    if (E.isLeft(ref)) return ref;
    const q = new URLSearchParams();
    scopeQuery(q, o);
    if (o.limit !== undefined) q.set("limit", String(o.limit));
    if (o.continue) q.set("continue", o.continue);
    if (o.resourceVersion !== undefined) q.set("resourceVersion", o.resourceVersion);
    if (o.resourceVersionMatch) q.set("resourceVersionMatch", o.resourceVersionMatch);
    const object: ApiObjectRef = objectRefOf(ref.right, { namespace: o.namespace });
    const path = resourcePath(ref.right, { namespace: o.namespace });
    const r = await json<ObjectList<T>>({
      method: "GET",
      path,
      query: q,
      verb: "list",
      object,
      signal: o.signal,
    });
    if (E.isRight(r) && !Array.isArray(r.right?.items)) {
      return E.left({
        type: "decode",
        message: "Cannot list: the response has no items array",
        object,
      });
    }
    return r;
  };

  const write = async <T>(
    obj: KubeObject,
    verb: "create" | "replace" | "replaceStatus",
    o: WriteOptions,
  ): Result<T> => {
    const ref = await resolveObject(obj, verb, o.signal);
    if (E.isLeft(ref)) return ref;
    const namespace = nsOf(ref.right, o.namespace ?? obj.metadata?.namespace);
    const name = verb === "create" ? undefined : obj.metadata?.name ?? "";
    const sub = verb === "replaceStatus" ? "status" : undefined;
    const at = { namespace, name, subresource: sub };
    return json<T>({
      method: verb === "create" ? "POST" : "PUT",
      path: resourcePath(ref.right, at),
      query: writeQuery(o, fieldManager),
      body: JSON.stringify(obj),
      contentType: "application/json",
      verb,
      object: objectRefOf(ref.right, { namespace, name: obj.metadata?.name }),
      signal: o.signal,
    });
  };

  return {
    config,
    resolve,
    get: async (spec, name, o = {}) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const at = { namespace: nsOf(ref.right, o.namespace), name, subresource: o.subresource };
      return json({
        method: "GET",
        path: resourcePath(ref.right, at),
        verb: "get",
        object: objectRefOf(ref.right, at),
        signal: o.signal,
      });
    },
    list: async <T>(spec: ResourceSpec, o: ListOptions = {}) => {
      const items: T[] = [];
      let first: ObjectList<T> | undefined;
      let token = o.continue;
      let limit: number | undefined = o.limit ?? 500;
      for (;;) {
        const page = await listPage<T>(spec, { ...o, limit, continue: token });
        if (E.isLeft(page)) {
          if (token && isGone(page.left)) {
            // The snapshot behind the token expired: start over, unpaginated.
            items.length = 0;
            first = undefined;
            token = undefined;
            limit = undefined;
            continue;
          }
          return page;
        }
        first ??= page.right;
        for (const item of page.right.items) items.push(item);
        token = page.right.metadata?.continue || undefined;
        if (!token) break;
      }
      const rv = first.metadata?.resourceVersion;
      return E.right({
        ...first,
        metadata: rv !== undefined ? { resourceVersion: rv } : {},
        items,
      });
    },
    listPage,
    create: (obj, o = {}) => write(obj, "create", o),
    replace: (obj, o = {}) => write(obj, "replace", o),
    replaceStatus: (obj, o = {}) => write(obj, "replaceStatus", o),
    patch: async (spec, name, o) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const at = { namespace: nsOf(ref.right, o.namespace), name, subresource: o.subresource };
      const body = o.patch.type === "json" ? o.patch.operations : o.patch.body;
      return json({
        method: "PATCH",
        path: resourcePath(ref.right, at),
        query: writeQuery(o, fieldManager),
        body: JSON.stringify(body),
        contentType: contentTypes[o.patch.type],
        verb: "patch",
        object: objectRefOf(ref.right, at),
        signal: o.signal,
      });
    },
    apply: async (obj, o = {}) => {
      const ref = await resolveObject(obj, "apply", o.signal);
      if (E.isLeft(ref)) return ref;
      const name = obj.metadata?.name ?? "";
      const at = {
        namespace: nsOf(ref.right, o.namespace ?? obj.metadata?.namespace),
        name,
        subresource: o.subresource,
      };
      const q = writeQuery(o, fieldManager);
      if (o.force) q.set("force", "true");
      return json({
        method: "PATCH",
        path: resourcePath(ref.right, at),
        query: q,
        body: JSON.stringify(obj),
        contentType: "application/apply-patch+yaml",
        verb: "apply",
        object: objectRefOf(ref.right, at),
        signal: o.signal,
      });
    },
    delete: async (spec, name, o = {}) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const at = { namespace: nsOf(ref.right, o.namespace), name };
      const body: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "v1" };
      if (o.propagationPolicy) body.propagationPolicy = o.propagationPolicy;
      if (o.preconditions) body.preconditions = o.preconditions;
      if (o.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = o.gracePeriodSeconds;
      if (o.dryRun) body.dryRun = ["All"];
      return json({
        method: "DELETE",
        path: resourcePath(ref.right, at),
        body: JSON.stringify(body),
        contentType: "application/json",
        verb: "delete",
        object: objectRefOf(ref.right, at),
        signal: o.signal,
      });
    },
    watch: async (spec, o = {}) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const q = new URLSearchParams({ watch: "true" });
      scopeQuery(q, o);
      if (o.resourceVersion !== undefined) q.set("resourceVersion", o.resourceVersion);
      if (o.allowWatchBookmarks ?? true) q.set("allowWatchBookmarks", "true");
      if (o.timeoutSeconds !== undefined) q.set("timeoutSeconds", String(o.timeoutSeconds));
      if (o.sendInitialEvents) {
        q.set("sendInitialEvents", "true");
        q.set("resourceVersionMatch", "NotOlderThan");
      }
      const path = resourcePath(ref.right, { namespace: o.namespace });
      const object = objectRefOf(ref.right, { namespace: o.namespace });
      const res = await send({
        method: "GET",
        path,
        query: q,
        verb: "watch",
        object,
        signal: o.signal,
      });
      if (E.isLeft(res)) return res;
      const body = res.right.body;
      if (body === null) {
        return E.left({
          type: "decode",
          message: "Cannot watch: the response has no body",
          object,
        });
      }
      return E.right(body);
    },
    request: send,
    close: () => httpClient?.close(),
  };
}
