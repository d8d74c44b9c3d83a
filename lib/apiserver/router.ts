/**
 * Dispatches an HTTP request to discovery, OpenAPI or a resource verb; every failure becomes
 * a Status response and no input can crash the server.
 *
 * @module
 */
import { failure } from "../core/status.ts";
import { acceptsYaml, ApiFailure, json, parseBool, statusResponse } from "./http_util.ts";
import { loadYaml } from "../core/load_yaml.ts";
import { wantsPretty } from "./status_body.ts";
import type { ServerContext } from "./context.ts";
import type { AccessControl } from "./access_control.ts";
import type { CreateHandler } from "./access_reviews.ts";
import type { UserInfo } from "./rbac/types.ts";
import { servedVerbs } from "./resource_info.ts";
import {
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  serverVersion,
} from "./discovery.ts";
import { createOpenApiV2 } from "./openapi_v2.ts";
import { createOpenApiV3 } from "./openapi_v3.ts";
import { resolveTarget } from "./route.ts";
import { answerUnavailable } from "./unavailable_endpoints.ts";
import {
  admitBinding,
  admitConnect,
  connectSubresources,
  connectUnsupported,
} from "./admission/admit_connect.ts";
import { handleGet, handleList } from "./handle_read.ts";
import { handleWatch, type WatchSettings } from "./handle_watch.ts";
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handlePatch,
  handleUpdate,
} from "./handle_write.ts";

/** Extension point for subresources handled elsewhere (e.g. `pods/binding`). */
export type SubresourceHandler = (
  req: Request,
  namespace: string | undefined,
  name: string,
  user: UserInfo,
) => Promise<Response>;

/** Router configuration. */
export interface RouterOptions {
  readonly watch: WatchSettings;
  readonly address: string;
  /** Counts requests by `verb resource` (e.g. `list pods`, `watch pods`). */
  readonly count: (verb: string, resource: string) => void;
  /** POST handlers of extra subresources, keyed `plural/subresource`. */
  readonly subresources?: Map<string, SubresourceHandler>;
  /** GET handlers of extra subresources (`pods/log`), keyed `plural/subresource`. */
  readonly readSubresources?: Map<string, SubresourceHandler>;
  /** POST handlers of the create-only resources (the reviews), keyed by storage key. */
  readonly creators?: Map<string, CreateHandler>;
  /** Authentication, impersonation and authorization of every request. */
  readonly access: AccessControl;
}

// Thrown, so the router's catch writes them (pretty for curl, like every Status).
const notFound = (): never => {
  throw new ApiFailure(
    failure("NotFound", "the server could not find the requested resource", {}),
  );
};
const methodNotAllowed = (): never => {
  throw new ApiFailure(
    failure("MethodNotAllowed", "the server does not allow this method on the requested resource"),
  );
};

/** Creates the request handler. */
export function createRouter(ctx: ServerContext, opts: RouterOptions) {
  const openApiV3 = createOpenApiV3(ctx);
  const openApiV2 = createOpenApiV2(ctx);
  async function route(req: Request, user: UserInfo): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const parts = path.split("/").filter((p) => p);
    if (req.method === "GET") {
      if (path === "/version") return json(serverVersion);
      if (path === "/healthz" || path === "/readyz" || path === "/livez") {
        return new Response("ok", { headers: { "content-type": "text/plain" } });
      }
      if (path === "/api") return json(apiVersions(opts.address));
      if (path === "/apis") return json(apiGroupList(ctx.registry));
      if (path === "/openapi/v2") return openApiV2(req);
      if (path === "/openapi/v3" || path.startsWith("/openapi/v3/")) return openApiV3(req, path);
      if (parts[0] === "apis" && parts.length === 2) {
        const g = apiGroup(ctx.registry, parts[1]);
        return g ? json(g) : notFound();
      }
      if (
        (parts[0] === "api" && parts.length === 2) || (parts[0] === "apis" && parts.length === 3)
      ) {
        const [group, version] = parts[0] === "api" ? ["", parts[1]] : [parts[1], parts[2]];
        const list = apiResourceList(ctx.registry, group, version);
        return list ? json(list) : notFound();
      }
    }
    const target = resolveTarget(ctx.registry, path);
    if (!target) return answerUnavailable(ctx, req, path) ?? notFound();
    const { info, namespace } = target;
    if (!servedVerbs(info).includes("get")) {
      const create = opts.creators?.get(info.storageKey);
      if (target.type !== "collection" || req.method !== "POST" || !create) {
        return methodNotAllowed();
      }
      opts.count("create", info.plural);
      return await create(req, namespace, user);
    }
    if (target.type === "collection") {
      switch (req.method) {
        case "GET": {
          const watch = parseBool(url.searchParams.get("watch"), "watch");
          opts.count(watch ? "watch" : "list", info.plural);
          return watch
            ? handleWatch(ctx, opts.watch, req, info, namespace)
            : handleList(ctx, req, info, namespace);
        }
        case "POST":
          opts.count("create", info.plural);
          return await handleCreate(ctx, req, info, namespace);
        case "DELETE":
          if (info.namespaced && namespace === undefined) return methodNotAllowed();
          opts.count("deletecollection", info.plural);
          return await handleDeleteCollection(ctx, req, info, namespace);
        default:
          return methodNotAllowed();
      }
    }
    const { name, subresource } = target;
    const known = subresource === undefined ||
      (subresource === "status" && info.hasStatus) ||
      (subresource === "scale" && info.scale !== undefined) ||
      info.extraSubresources.some((x) => x.name === subresource);
    if (!known) return answerUnavailable(ctx, req, path) ?? notFound();
    const reader = opts.readSubresources?.get(`${info.plural}/${subresource}`);
    if (reader) {
      if (req.method !== "GET") return methodNotAllowed();
      opts.count(`get/${subresource}`, info.plural);
      return await reader(req, namespace, name, user);
    }
    if (
      info.group === "" && info.plural === "pods" && subresource && connectSubresources[subresource]
    ) {
      opts.count(`connect/${subresource}`, info.plural);
      await admitConnect(ctx, info, namespace, name, subresource, url.searchParams);
      const unavailable = answerUnavailable(ctx, req, path);
      if (unavailable) return unavailable;
      connectUnsupported(subresource, name);
    }
    const extra = opts.subresources?.get(`${info.plural}/${subresource}`);
    if (extra) {
      if (req.method !== "POST") return methodNotAllowed();
      opts.count(`create/${subresource}`, info.plural);
      if (subresource !== "binding") return await extra(req, namespace, name, user);
      const text = await req.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch { /* not JSON: the handler answers it */ }
      const admitted = await admitBinding(ctx, info, namespace, name, body);
      const again = new Request(req.url, {
        method: "POST",
        headers: req.headers,
        body: admitted === body ? text : JSON.stringify(admitted),
      });
      return await extra(again, namespace, name, user);
    }
    const sub = subresource ? `/${subresource}` : "";
    switch (req.method) {
      case "GET":
        if (parseBool(url.searchParams.get("watch"), "watch")) {
          opts.count("watch", info.plural);
          return handleWatch(ctx, opts.watch, req, info, namespace, name);
        }
        opts.count(`get${sub}`, info.plural);
        return handleGet(ctx, req, info, namespace, name, subresource);
      case "PUT":
        opts.count(`update${sub}`, info.plural);
        return await handleUpdate(ctx, req, info, namespace, name, subresource);
      case "PATCH":
        opts.count(`patch${sub}`, info.plural);
        return await handlePatch(ctx, req, info, namespace, name, subresource);
      case "DELETE":
        if (subresource) return methodNotAllowed();
        opts.count("delete", info.plural);
        return await handleDelete(ctx, req, info, namespace, name);
      default:
        return methodNotAllowed();
    }
  }

  return async (req: Request): Promise<Response> => {
    try {
      const access = await opts.access.check(req, new URL(req.url));
      if ("response" in access) return access.response;
      if (acceptsYaml(req)) await loadYaml();
      return await route(req, access.user);
    } catch (e) {
      const pretty = wantsPretty(req);
      if (e instanceof ApiFailure) return statusResponse(e.status, e.headers, pretty);
      if (e instanceof URIError) {
        return statusResponse(failure("BadRequest", `malformed URL: ${e.message}`), {}, pretty);
      }
      const message = e instanceof Error ? e.message : String(e);
      return statusResponse(
        failure("InternalError", `Internal error occurred: ${message}`),
        {},
        pretty,
      );
    }
  };
}
