/**
 * `createTestApi()`: an in-memory Kubernetes API for tests, on a virtual clock.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { matchesLabels, parseLabelSelector } from "../core/label_selector.ts";
import type { Client, ResourceSpec } from "../client/client_types.ts";
import { createClient } from "../client/create_client.ts";
import { createRequestBudget } from "../client/create_request_budget.ts";
import type { Logger } from "../client/logger.ts";
import type { ServerContext } from "../apiserver/context.ts";
import { ApiFailure } from "../apiserver/http_util.ts";
import { createObject } from "../apiserver/object_write.ts";
import { groupVersion, type ResourceInfo } from "../apiserver/resource_info.ts";
import type { k8sApiextensions } from "../deps.ts";
import type { SimulationOptions } from "../apiserver/controllers/simulation.ts";
import { type VirtualTime, virtualTime } from "./virtual_time.ts";
import { inProcessFetch } from "./_in_process_fetch.ts";
import { startTestCluster } from "./_test_cluster.ts";
import type { OpenWatch } from "./_watch_stream.ts";
import { createFaultBook, faultEffects, type TestApiFaults } from "./test_api_faults.ts";

/** Options of {@link createTestApi}; every one has a default. */
export interface TestApiOptions {
  /** The virtual clock of every timer and timestamp (its `now()` is epoch milliseconds).
   * Default: a new `virtualTime()` starting at `startMs`. */
  readonly clock?: VirtualTime;
  /** Where a new clock starts, in epoch milliseconds. Default 2025-01-01T00:00:00Z. */
  readonly startMs?: number;
  /** CustomResourceDefinitions served from the start (CRDs created later are served too). */
  readonly crds?: readonly k8sApiextensions.CustomResourceDefinition[];
  /** Objects stored at the start, created in order (namespaces before their contents). */
  readonly objects?: readonly KubeObject[];
  /** Watch events kept per resource for resuming watches. Default 1,000. */
  readonly historySize?: number;
  /** Interval of watch bookmarks (when a watch allows them). Default 60,000 virtual ms. */
  readonly bookmarkIntervalMs?: number;
  /** Garbage collection of owned objects (background, foreground, orphan). Default true. */
  readonly gc?: boolean;
  /**
   * Simulated nodes, scheduler and kubelets, on the virtual clock: pods are bound to a node
   * and become Running and Ready `podStartDelayMs` (default 100) virtual ms later. Default
   * off: pods stay Pending.
   */
  readonly simulation?: SimulationOptions;
}

/** Options of {@link TestApi.client}; every one has a default. */
export interface TestClientOptions {
  /** The client's default namespace. Default `default`. */
  readonly namespace?: string;
  /** Field manager of its writes. Default `kubefold`. */
  readonly fieldManager?: string;
  /** User-Agent (the manager of writes without a field manager; faults can match it). Default
   * `kubefold/0.1`. */
  readonly userAgent?: string;
  /** Retries of 429s (honouring Retry-After), as the real client. Default 5. */
  readonly maxRetries?: number;
  /** Client-side rate limit. Default: none (1,000,000 requests per second). */
  readonly rateLimit?: { readonly qps?: number; readonly burst?: number };
  /** Receives the client's debug logs (retries). Default: none. */
  readonly logger?: Logger;
  /**
   * Sees every request of this client before the test API does, e.g. to slow one resource's
   * watch stream on the virtual clock: `(input, init, next) => next(input, init)`. Default:
   * none.
   */
  readonly intercept?: (
    input: string | URL | Request,
    init: RequestInit | undefined,
    next: typeof fetch,
  ) => Promise<Response>;
}

/** An in-memory API: clients, scripted faults, and synchronous reads for assertions. */
export interface TestApi {
  /** The virtual clock: advance it with `await api.clock.advance(ms)`. */
  readonly clock: VirtualTime;
  /** A new client of this API: the real `createClient()`, sending requests in process. */
  client(options?: TestClientOptions): Client;
  /** Where the clients send their requests (for `createClient(config, { fetch })`). */
  readonly fetch: typeof fetch;
  /** Scripted faults: conflicts, 410 Gone, dropped watches, 429s, lost answers, delays. */
  readonly faults: TestApiFaults;
  /** The object now, or `undefined`; `namespace` defaults to `default` for namespaced kinds
   * (throws for a resource that is not served). */
  get<T extends KubeObject = KubeObject>(
    resource: ResourceSpec,
    name: string,
    namespace?: string,
  ): T | undefined;
  /** The objects now, in key order, optionally of one namespace and matching a label selector. */
  list<T extends KubeObject = KubeObject>(
    resource: ResourceSpec,
    options?: { readonly namespace?: string; readonly labelSelector?: string },
  ): T[];
  /** Requests served so far by `verb resource`, e.g. `{ "list pods": 1, "watch pods": 2 }`. */
  requestCounts(): Record<string, number>;
  /** How many watches are open now (all resources). */
  openWatches(): number;
  /** Ends open watches and stops the garbage collector; requests still work. */
  close(): void;
  /** Same as `close()`, for `using api = createTestApi()`. */
  [Symbol.dispose](): void;
}

const address = "test-api.invalid";

/**
 * Creates an in-memory Kubernetes API for tests: the embedded API server's storage and request
 * handlers (resourceVersion, uid, generation, 404 / 409 / 422, status subresource, patches,
 * server-side apply with managed fields, finalizers and deletionTimestamp, owner references
 * and garbage collection, CRDs with their schemas) behind the real client, in process, with
 * every timer — watch timeouts, bookmarks, injected delays, client retries — on a virtual clock.
 *
 * Like client-go's fake clientset or controller-runtime's fake client, but with the server's
 * rules rather than a map of objects: watches resume from a resourceVersion or answer 410,
 * deletes wait for finalizers, owned objects are collected, and faults can be scripted.
 *
 * Guarantees: every answer comes after the request's Promise callbacks, never synchronously,
 * and only scheduled work (a delay fault, a client retry) needs virtual time; a watch sees
 * each change in the same instant it is made. `await api.clock.advance(ms)` runs everything
 * due, letting Promises settle between instants (see `virtualTime()`).
 * Assumptions: code under test takes its timers from `api.clock.scheduler` (give it that and
 * `api.client()`), and only awaits this API's answers and its own timers.
 * Caveats: CEL rules (`x-kubernetes-validations`) and CRD validation are not checked, pods
 * are scheduled and run only with `simulation`, and uids and generated names are random; use
 * the embedded API server (`startApiServer`) for those.
 *
 * @param options clock, CRDs and objects at the start, history size, garbage collection.
 * @returns the API; `close()` it (or `using` it) at the end of the test.
 * @example
 * ```ts
 * import { createTestApi } from "./mod.ts";
 * using api = createTestApi();
 * const client = api.client();
 * const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { k: "v" } };
 * await client.create(cm);
 * api.faults.conflict({ verb: "update", name: "a" }); // the next update of "a" loses a race
 * const stale = await client.replace({ ...cm, metadata: { name: "a", resourceVersion: "1" } });
 * stale._tag; // "Left": 409
 * await api.clock.advance(50); // timers of the code under test run, Promises settle
 * api.get({ apiVersion: "v1", kind: "ConfigMap" }, "a")?.data; // { k: "v" }
 * ```
 *
 * Code on the same clock, e.g. an informer, is advanced until what the test waits for holds:
 * ```ts
 * import { createTestApi } from "./mod.ts";
 * import { createInformers } from "../../mod.ts";
 * using api = createTestApi();
 * const pods = createInformers(api.client(), { scheduler: api.clock.scheduler })
 *   .informer({ apiVersion: "v1", kind: "Pod" });
 * const sub = pods.deltas$.subscribe();
 * await api.clock.advanceUntil(() => pods.hasSynced()); // virtual ms it took: no sleeps
 * sub.unsubscribe();
 * ```
 */
export function createTestApi(options: TestApiOptions = {}): TestApi {
  const clock = options.clock ?? virtualTime({ startMs: options.startMs ?? Date.UTC(2025, 0, 1) });
  const { scheduler } = clock;
  const cluster = startTestCluster({
    now: () => scheduler.now(),
    historySize: options.historySize ?? 1_000,
    gc: options.gc ?? true,
    scheduler,
    ...(options.simulation ? { simulation: options.simulation } : {}),
  });
  const { ctx } = cluster;
  const open = new Set<OpenWatch>();
  const book = createFaultBook();
  const counts: Record<string, number> = {};
  const fetch = inProcessFetch({
    ctx,
    scheduler,
    faults: book,
    address,
    watch: { scheduler, bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000, open },
    count: (verb, resource) =>
      void (counts[`${verb} ${resource}`] = (counts[`${verb} ${resource}`] ?? 0) + 1),
  });
  const seed = (obj: KubeObject) => {
    try {
      createObject(ctx, infoOf(ctx, obj as ResourceSpec), obj.metadata?.namespace, obj);
    } catch (e) {
      const why = e instanceof ApiFailure ? e.status.message : String(e);
      throw new Error(`Cannot create the test API: ${why}`);
    }
  };
  // A spread widens the CRD interface to KubeObject (an object literal type has an index signature).
  for (const crd of options.crds ?? []) seed({ ...crd });
  for (const obj of options.objects ?? []) seed(obj);

  const faults: TestApiFaults = {
    conflict: (rule = {}) => book.add(rule, faultEffects.conflict, faultEffects.writes),
    throttle: (rule = {}) => book.add(rule, faultEffects.throttle(rule.retryAfterSeconds ?? 1)),
    gone: (rule = {}) => book.add(rule, () => ({ type: "gone" }), ["watch"]),
    fail: (rule) =>
      book.add(
        rule,
        faultEffects.fail(rule.code, rule.reason, rule.message, rule.retryAfterSeconds),
      ),
    loseResponse: (rule = {}) =>
      book.add(rule, () => ({ type: "loseResponse" }), faultEffects.writes),
    delay: (rule) => book.add(rule, () => ({ type: "delay", ms: rule.ms })),
    disconnect: (rule = {}) => book.add(rule, () => ({ type: "disconnect" })),
    dropWatches: (match = {}) => {
      const hit = [...open].filter((w) =>
        (match.resource === undefined || w.resource === match.resource) &&
        (match.namespace === undefined || w.namespace === match.namespace)
      );
      for (const w of hit) w.close();
      return hit.length;
    },
    compact: () => ctx.storage.hub.compact(ctx.storage.rv),
    clear: () => book.clear(),
    pending: () => book.pending(),
  };

  const close = () => {
    for (const w of [...open]) w.close();
    cluster.stop();
  };
  return {
    clock,
    fetch,
    faults,
    openWatches: () => ctx.storage.hub.watcherCount(),
    client: (o = {}) =>
      createClient({
        server: `http://${address}`,
        namespace: o.namespace ?? "default",
        tls: { insecureSkipVerify: false },
        auth: { type: "none" },
      }, {
        fetch: o.intercept
          ? (input: string | URL | Request, init?: RequestInit) => o.intercept!(input, init, fetch)
          : fetch,
        scheduler,
        budget: createRequestBudget({
          qps: o.rateLimit?.qps ?? 1_000_000,
          burst: o.rateLimit?.burst ?? 1_000_000,
          scheduler,
        }),
        maxRetries: o.maxRetries ?? 5,
        random: () => 0.5,
        ...(o.fieldManager ? { fieldManager: o.fieldManager } : {}),
        ...(o.userAgent ? { userAgent: o.userAgent } : {}),
        ...(o.logger ? { logger: o.logger } : {}),
      }),
    get<T extends KubeObject>(resource: ResourceSpec, name: string, namespace?: string) {
      const info = infoOf(ctx, resource);
      const key = info.namespaced ? `${namespace ?? "default"}/${name}` : name;
      const stored = ctx.storage.get(info.storageKey, key)?.object;
      return stored === undefined
        ? undefined
        : ({ ...stored, apiVersion: groupVersion(info) } as T);
    },
    list<T extends KubeObject>(
      resource: ResourceSpec,
      o: { readonly namespace?: string; readonly labelSelector?: string } = {},
    ) {
      const info = infoOf(ctx, resource);
      const selector = o.labelSelector ? parseLabelSelector(o.labelSelector) : undefined;
      if (selector?._tag === "Left") throw new Error(`Cannot list: ${selector.left}`);
      return ctx.storage.list(info.storageKey, info.namespaced ? o.namespace : undefined)
        .map((s) => s.object)
        .filter((obj) => !selector || matchesLabels(selector.right, obj.metadata?.labels))
        .map((obj) => ({ ...obj, apiVersion: groupVersion(info) }) as T);
    },
    requestCounts: () => ({ ...counts }),
    close,
    [Symbol.dispose]: close,
  };
}

/** The served resource of a `ResourceSpec` (or an object's apiVersion and kind). */
function infoOf(ctx: ServerContext, spec: ResourceSpec): ResourceInfo {
  const found = "plural" in spec
    ? ctx.registry.lookup(spec.group, spec.version, spec.plural)
    : ctx.registry.all().find((i) => groupVersion(i) === spec.apiVersion && i.kind === spec.kind);
  if (found) return found;
  const what = "plural" in spec ? spec.plural : `${spec.apiVersion} ${spec.kind}`;
  throw new Error(`Cannot find the resource ${what}: the test API does not serve it`);
}
