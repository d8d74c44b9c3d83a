/**
 * Internal: the test API's `fetch` — the embedded API server's discovery and request
 * handlers, called in process (no sockets), with scripted faults and the virtual-time watch.
 *
 * @module
 */
import { metadataRequest } from "../apiserver/partial_metadata.ts";
import { failure } from "../core/status.ts";
import type { SchedulerLike } from "../deps.ts";
import type { ServerContext } from "../apiserver/context.ts";
import { ApiFailure, json, parseBool, statusResponse } from "../apiserver/http_util.ts";
import {
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  serverVersion,
} from "../apiserver/discovery.ts";
import { resolveTarget, type Target } from "../apiserver/route.ts";
import { handleGet, handleList } from "../apiserver/handle_read.ts";
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handlePatch,
  handleUpdate,
} from "../apiserver/handle_write.ts";
import { watchStream, type WatchStreamSettings } from "./_watch_stream.ts";
import type { FaultBook, RequestFacts, RequestVerb } from "./test_api_faults.ts";
import { loadBuiltinSchemas } from "../apiserver/builtin_admission.ts";

/** What the in-process fetch works on. */
export interface InProcessDeps {
  readonly ctx: ServerContext;
  readonly watch: WatchStreamSettings;
  readonly faults: FaultBook;
  readonly scheduler: SchedulerLike;
  /** Counts requests by `verb resource`, as the API server does. */
  readonly count: (verb: string, resource: string) => void;
  /** The host of request URLs (for discovery's server address). */
  readonly address: string;
}

const notFound = () =>
  statusResponse(failure("NotFound", "the server could not find the requested resource", {}));
const methodNotAllowed = () =>
  statusResponse(
    failure("MethodNotAllowed", "the server does not allow this method on the requested resource"),
  );

function verbOf(req: Request, target: Target, q: URLSearchParams): RequestVerb | undefined {
  const watch = req.method === "GET" && parseBool(q.get("watch"), "watch");
  switch (req.method) {
    case "GET":
      return watch ? "watch" : target.type === "collection" ? "list" : "get";
    case "POST":
      return target.type === "collection" ? "create" : undefined;
    case "PUT":
      return "update";
    case "PATCH":
      return (req.headers.get("content-type") ?? "").startsWith("application/apply-patch")
        ? "apply"
        : "patch";
    case "DELETE":
      return target.type === "collection" ? "deletecollection" : "delete";
  }
  return undefined;
}

const sleep = (scheduler: SchedulerLike, ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const sub = scheduler.schedule(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      sub.unsubscribe();
      reject(new DOMException("The request was aborted", "AbortError"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** Builds the fetch function of a test API. */
export function inProcessFetch(deps: InProcessDeps): typeof fetch {
  const { ctx, faults } = deps;
  // Built-in kinds are validated against their schemas, loaded once (started right away).
  const schemas = loadBuiltinSchemas(ctx.registry.all());

  const route = async (
    req: Request,
    target: Target,
    verb: RequestVerb,
    q: URLSearchParams,
    expired: boolean,
  ) => {
    const { info, namespace } = target;
    const metadata = metadataRequest(req.headers.get("accept"));
    const watchRequest = { signal: req.signal, expired, ...(metadata ? { metadata } : {}) };
    if (target.type === "collection") {
      switch (verb) {
        case "watch":
          return watchStream(ctx, deps.watch, q, info, namespace, watchRequest);
        case "list":
          return handleList(ctx, req, info, namespace);
        case "create":
          return await handleCreate(ctx, req, info, namespace);
        case "deletecollection":
          if (info.namespaced && namespace === undefined) return methodNotAllowed();
          return await handleDeleteCollection(ctx, req, info, namespace);
      }
      return methodNotAllowed();
    }
    const { name, subresource } = target;
    const known = subresource === undefined ||
      (subresource === "status" && info.hasStatus) ||
      (subresource === "scale" && info.scale !== undefined);
    if (!known) return notFound();
    switch (verb) {
      case "watch": {
        const fs = q.get("fieldSelector");
        q.set("fieldSelector", `metadata.name=${name}${fs ? `,${fs}` : ""}`);
        return watchStream(ctx, deps.watch, q, info, namespace, watchRequest);
      }
      case "get":
        return handleGet(ctx, req, info, namespace, name, subresource);
      case "update":
        return await handleUpdate(ctx, req, info, namespace, name, subresource);
      case "patch":
      case "apply":
        return await handlePatch(ctx, req, info, namespace, name, subresource);
      case "delete":
        return subresource
          ? methodNotAllowed()
          : await handleDelete(ctx, req, info, namespace, name);
    }
    return methodNotAllowed();
  };

  const discovery = (path: string): Response | undefined => {
    const parts = path.split("/").filter((p) => p);
    if (path === "/version") return json(serverVersion);
    if (path === "/api") return json(apiVersions(deps.address));
    if (path === "/apis") return json(apiGroupList(ctx.registry));
    if (parts[0] === "apis" && parts.length === 2) {
      const g = apiGroup(ctx.registry, parts[1]);
      return g ? json(g) : notFound();
    }
    if ((parts[0] === "api" && parts.length === 2) || (parts[0] === "apis" && parts.length === 3)) {
      const [group, version] = parts[0] === "api" ? ["", parts[1]] : [parts[1], parts[2]];
      const list = apiResourceList(ctx.registry, group, version);
      return list ? json(list) : notFound();
    }
    return undefined;
  };

  const serve = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const q = url.searchParams;
    const found = req.method === "GET" ? discovery(path) : undefined;
    if (found) return found;
    const target = resolveTarget(ctx.registry, path);
    if (!target) return notFound();
    const verb = verbOf(req, target, q);
    if (verb === undefined) return methodNotAllowed();
    const sub = target.type === "object" && target.subresource ? `/${target.subresource}` : "";
    deps.count(`${verb}${sub}`, target.info.plural);
    const facts: RequestFacts = {
      verb,
      resource: target.info.plural,
      ...(target.namespace !== undefined ? { namespace: target.namespace } : {}),
      ...(target.type === "object" ? { name: target.name } : {}),
      ...(target.type === "object" && target.subresource
        ? { subresource: target.subresource }
        : {}),
      userAgent: req.headers.get("user-agent") ?? "",
    };
    const effect = faults.take(facts);
    if (effect?.type === "disconnect") {
      throw new TypeError("error sending request: connection refused (injected fault)");
    }
    if (effect?.type === "delay") await sleep(deps.scheduler, effect.ms, req.signal);
    if (effect?.type === "fail") {
      const retry = effect.retryAfterSeconds;
      return statusResponse(
        effect.status,
        retry !== undefined ? { "retry-after": `${retry}` } : {},
      );
    }
    const res = await route(req, target, verb, q, effect?.type === "gone");
    if (effect?.type === "loseResponse") {
      await res.body?.cancel();
      return statusResponse(
        failure("InternalError", "Internal error occurred: injected fault: the answer was lost"),
      );
    }
    return res;
  };

  return async (input, init) => {
    const req = new Request(input, init);
    if (req.signal.aborted) throw new DOMException("The request was aborted", "AbortError");
    await schemas;
    try {
      return await serve(req);
    } catch (e) {
      if (e instanceof ApiFailure) return statusResponse(e.status, e.headers);
      if (e instanceof DOMException && e.name === "AbortError") throw e;
      if (e instanceof TypeError && e.message.includes("(injected fault)")) throw e;
      const message = e instanceof Error ? e.message : String(e);
      return statusResponse(failure("InternalError", `Internal error occurred: ${message}`));
    }
  };
}
