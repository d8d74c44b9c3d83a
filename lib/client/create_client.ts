/**
 * `createClient()`: the REST client over Deno's `fetch`.
 *
 * @module
 */
import { asyncScheduler, E, type Either, type SchedulerLike } from "../deps.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { ClientConfig } from "./config/types.ts";
import { createHttpClient, type HttpClientOptions } from "./config/create_http_client.ts";
import type { ApiError, RequestTarget } from "./api_error.ts";
import type { BackoffOptions } from "./backoff_delay.ts";
import { createRequestBudget, type RequestBudget } from "./create_request_budget.ts";
import { createDiscovery } from "./create_discovery.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { type ApiResource, requestTargetOf, resourcePath } from "./api_resource.ts";
import {
  createTransport,
  DEFAULT_BODY_IDLE_MS,
  type RequestSpec,
  type RequestTimeouts,
} from "./_transport.ts";
import { deleteBody, listQuery, patchBody, watchQuery, writeQuery } from "./_request_parts.ts";
import { checkListItems, parseJson, watchBody } from "./_decode_response.ts";
import { sendAndReadText } from "./_read_get_body.ts";
import { listAllPages } from "./_list_all_pages.ts";
import type {
  Client,
  ListOptions,
  ObjectList,
  ResourceSpec,
  Result,
  WriteOptions,
} from "./client_types.ts";

// What client-go's metadata client and kube-rs ask for: objects as meta.k8s.io/v1
// PartialObjectMetadata (one per watch event) and lists as PartialObjectMetadataList.
const metadataAccept = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const metadataListAccept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** The process-wide budget to share; default a new one with `rateLimit`. */
  readonly budget?: RequestBudget;
  /**
   * A fixed cap for a new budget (a token bucket of `qps` and `burst`); default none: no cap
   * while the server accepts, backing off when it pushes back (see `createRequestBudget`).
   */
  readonly rateLimit?: { readonly qps?: number; readonly burst?: number };
  /** Default `kubefold/0.1`; also the default field manager's base. */
  readonly userAgent?: string;
  /** Field manager of writes; default `kubefold`. */
  readonly fieldManager?: string;
  /** Receives debug logs (retries). Default: none. */
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
  /**
   * Timeouts of every request: response headers (connect, TLS, answer) 30 s, silence while
   * reading a body 30 s (watches use `listWatch`'s idle watchdog instead).
   */
  readonly timeouts?: RequestTimeouts;
  /** Cap of one request's wait for a `Retry-After` before it retries; default 10,000 ms. */
  readonly maxRetryAfterMs?: number;
  /** An exec credential plugin still running after this long is killed; default 30,000 ms. */
  readonly execTimeoutMs?: number;
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
 * import { createClient } from "../../mod.ts";
 * import { startApiServer } from "../apiserver/mod.ts";
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
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: options.maxRetryAfterMs } : {}),
    ...(options.execTimeoutMs !== undefined ? { execTimeoutMs: options.execTimeoutMs } : {}),
  });
  const send: typeof transport = E.isLeft(http)
    ? (spec) =>
      Promise.resolve(E.left({
        type: "config",
        message: `Cannot ${spec.verb}: ${http.left.message}`,
        cause: http.left,
      }))
    : transport;

  const readOptions = {
    idleMs: options.timeouts?.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_MS,
    scheduler,
    logger,
  };
  const json = async <T>(spec: RequestSpec): Promise<Either<ApiError, T>> => {
    const text = await sendAndReadText(send, spec, readOptions);
    return E.isLeft(text) ? text : parseJson<T>(text.right, spec);
  };

  const discovery = createDiscovery((path, signal) =>
    json({ method: "GET", path, verb: "discover", ...(signal ? { signal } : {}) })
  );
  const resolve = (spec: ResourceSpec, signal?: AbortSignal): Result<ApiResource> =>
    "plural" in spec
      ? Promise.resolve(E.right(spec))
      : discovery.resolve(spec.apiVersion, spec.kind, signal);
  const resolveObject = (obj: HasMetadata, verb: string, signal?: AbortSignal) =>
    obj.apiVersion && obj.kind
      ? resolve({ apiVersion: obj.apiVersion, kind: obj.kind }, signal)
      : Promise.resolve(E.left<ApiError, ApiResource>({
        type: "resolve",
        apiVersion: obj.apiVersion ?? "",
        kind: obj.kind ?? "",
        message: `Cannot ${verb} "${obj.metadata?.name ?? ""}": apiVersion and kind are required`,
      }));
  const nsOf = (
    ref: ApiResource,
    given?: string,
  ) => (ref.namespaced ? given ?? config.namespace : undefined);

  const listPage = async <T>(spec: ResourceSpec, o: ListOptions = {}): Result<ObjectList<T>> => {
    const ref = await resolve(spec, o.signal);
    if (E.isLeft(ref)) return ref;
    const object: RequestTarget = requestTargetOf(ref.right, { namespace: o.namespace });
    const path = resourcePath(ref.right, { namespace: o.namespace });
    const r = await json<ObjectList<T>>({
      method: "GET",
      path,
      query: listQuery(o),
      verb: "list",
      object,
      ...(o.metadataOnly ? { accept: metadataListAccept } : {}),
      signal: o.signal,
    });
    return checkListItems(r, object);
  };

  const write = async <T>(
    obj: HasMetadata,
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
      object: requestTargetOf(ref.right, { namespace, name: obj.metadata?.name }),
      signal: o.signal,
      ...(o.priority ? { priority: o.priority } : {}),
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
        object: requestTargetOf(ref.right, at),
        signal: o.signal,
        ...(o.priority ? { priority: o.priority } : {}),
      });
    },
    list: <T>(spec: ResourceSpec, o: ListOptions = {}) =>
      listAllPages<T>((page) => listPage<T>(spec, page), o),
    listPage,
    create: (obj, o = {}) => write(obj, "create", o),
    replace: (obj, o = {}) => write(obj, "replace", o),
    replaceStatus: (obj, o = {}) => write(obj, "replaceStatus", o),
    patch: async (spec, name, o) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const at = { namespace: nsOf(ref.right, o.namespace), name, subresource: o.subresource };
      return json({
        method: "PATCH",
        path: resourcePath(ref.right, at),
        query: writeQuery(o, fieldManager),
        ...patchBody(o.patch),
        verb: "patch",
        object: requestTargetOf(ref.right, at),
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
        object: requestTargetOf(ref.right, at),
        signal: o.signal,
      });
    },
    delete: async (spec, name, o = {}) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const at = { namespace: nsOf(ref.right, o.namespace), name };
      return json({
        method: "DELETE",
        path: resourcePath(ref.right, at),
        body: deleteBody(o),
        contentType: "application/json",
        verb: "delete",
        object: requestTargetOf(ref.right, at),
        signal: o.signal,
      });
    },
    watch: async (spec, o = {}) => {
      const ref = await resolve(spec, o.signal);
      if (E.isLeft(ref)) return ref;
      const path = resourcePath(ref.right, { namespace: o.namespace });
      const object = requestTargetOf(ref.right, { namespace: o.namespace });
      const res = await send({
        method: "GET",
        path,
        query: watchQuery(o),
        verb: "watch",
        bodyIdleTimeoutMs: false,
        object,
        ...(o.metadataOnly ? { accept: metadataAccept } : {}),
        signal: o.signal,
      });
      return E.isLeft(res) ? res : watchBody(res.right, object);
    },
    request: send,
    close: () => httpClient?.close(),
  };
}
