/**
 * `/openapi/v3`: the index of group/version documents and the documents themselves, so that
 * `kubectl explain` works and kubectl trusts server-side field validation.
 *
 * Documents are built from the registry and the stored CRDs once per registry generation
 * (bumped on every CRD write) and addressed by a content hash: `?hash=<current>` answers with
 * `Cache-Control: public, immutable`, a stale hash is redirected to the current one (301), and
 * `If-None-Match` with the current ETag answers 304.
 *
 * @module
 */
import { failure } from "../core/status.ts";
import type { ServerContext } from "./context.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { parseAccept, rawJson, statusResponse } from "./http_util.ts";
import { wantsPretty } from "./status_body.ts";
import {
  gvDocument,
  type GvResource,
  loadDocCatalog,
  type OpenApiDocument,
  type Schema,
  schemaName,
} from "./openapi/mod.ts";
import { compareStrings } from "../core/compare_strings.ts";

interface Built {
  readonly body: string;
  readonly hash: string;
}

interface Snapshot {
  readonly generation: number;
  readonly docs: ReadonlyMap<string, Built>;
  readonly index: Built;
}

async function sha512Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-512", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")
    .toUpperCase();
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The openAPIV3Schema of the CRD version that serves `info`. */
function crdSchemaOf(ctx: ServerContext, info: ResourceInfo): Schema | undefined {
  const crds = ctx.registry.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  if (!crds) return undefined;
  const crd = ctx.storage.get(crds.storageKey, `${info.plural}.${info.group}`)?.object;
  const versions = isRecord(crd?.spec) && Array.isArray(crd.spec.versions) ? crd.spec.versions : [];
  const version = versions.find((v) => isRecord(v) && v.name === info.version);
  const schema = isRecord(version) && isRecord(version.schema)
    ? version.schema.openAPIV3Schema
    : undefined;
  return isRecord(schema) ? schema : undefined;
}

/** The served group/versions as index paths (`api/v1`, `apis/<g>/<v>`) with their resources. */
function groupVersions(ctx: ServerContext): Map<string, GvResource[]> {
  const out = new Map<string, GvResource[]>();
  for (const info of ctx.registry.all()) {
    const path = info.group ? `apis/${info.group}/${info.version}` : `api/${info.version}`;
    const crdSchema = info.isCustom ? crdSchemaOf(ctx, info) : undefined;
    out.set(path, [...(out.get(path) ?? []), { info, crdSchema }]);
  }
  return out;
}

/** Components every document may reference besides its kinds (metadata, Status, Scale). */
const COMMON = [
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
  "io.k8s.api.autoscaling.v1.Scale",
];

/**
 * The OpenAPI v3 document of every served group/version, by index path (`api/v1`,
 * `apis/<group>/<version>`), in path order (also the source of `/openapi/v2`).
 *
 * @example
 * ```ts
 * import { groupVersionDocuments } from "./openapi_v3.ts";
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * (await groupVersionDocuments(server.context)).has("apis/apps/v1"); // true
 * await server.close();
 * ```
 */
export async function groupVersionDocuments(
  ctx: ServerContext,
): Promise<Map<string, OpenApiDocument>> {
  const served = groupVersions(ctx);
  const builtins = [...served.values()].flat().filter((r) => !r.info.isCustom)
    .map((r) => schemaName(r.info, false));
  const catalog = await loadDocCatalog([...COMMON, ...builtins]);
  const out = new Map<string, OpenApiDocument>();
  for (const [path, resources] of [...served].sort(([a], [b]) => compareStrings(a, b))) {
    out.set(path, gvDocument(resources, catalog));
  }
  return out;
}

async function build(ctx: ServerContext): Promise<Snapshot> {
  const generation = ctx.registry.generation;
  const docs = new Map<string, Built>();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [path, doc] of await groupVersionDocuments(ctx)) {
    const body = JSON.stringify(doc);
    const hash = await sha512Hex(body);
    docs.set(path, { body, hash });
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  }
  const body = JSON.stringify({ paths });
  return { generation, docs, index: { body, hash: await sha512Hex(body) } };
}

const acceptsJson = (accept: string | null) =>
  parseAccept(accept).some((m) => ["application/json", "application/*", "*/*"].includes(m.type));

/**
 * Creates the `/openapi/v3` handler of one server; `path` is the URL path without a trailing
 * slash (`/openapi/v3` or `/openapi/v3/<gv path>`). Answers JSON only (406 when the client
 * accepts only protobuf).
 *
 * @example
 * ```ts
 * import { createOpenApiV3 } from "./openapi_v3.ts";
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * const serve = createOpenApiV3(server.context);
 * const res = await serve(new Request("http://x/openapi/v3"), "/openapi/v3");
 * "api/v1" in (await res.json()).paths; // true
 * await server.close();
 * ```
 */
export function createOpenApiV3(
  ctx: ServerContext,
): (req: Request, path: string) => Promise<Response> {
  let cached: Promise<Snapshot> | undefined;
  let cachedGeneration = -1;
  const snapshot = (): Promise<Snapshot> => {
    if (!cached || cachedGeneration !== ctx.registry.generation) {
      cachedGeneration = ctx.registry.generation;
      const building = build(ctx);
      cached = building;
      // A failed build is not kept: the next request tries again.
      building.catch(() => {
        if (cached === building) cached = undefined;
      });
    }
    return cached;
  };

  return async (req, path) => {
    if (!acceptsJson(req.headers.get("accept"))) {
      return statusResponse(
        failure("NotAcceptable", "only application/json is served for OpenAPI v3 documents"),
        {},
        wantsPretty(req),
      );
    }
    const snap = await snapshot();
    const sub = path.replace(/^\/openapi\/v3\/?/, "");
    const doc = sub === "" ? snap.index : snap.docs.get(sub);
    if (!doc) {
      return statusResponse(
        failure("NotFound", "the server could not find the requested resource", {}),
        {},
        wantsPretty(req),
      );
    }
    const etag = `"${doc.hash}"`;
    const headers: Record<string, string> = { etag, vary: "Accept" };
    const requested = new URL(req.url).searchParams.get("hash");
    if (sub !== "" && requested !== null) {
      if (requested !== doc.hash) {
        return new Response(null, {
          status: 301,
          headers: { location: `/openapi/v3/${sub}?hash=${doc.hash}` },
        });
      }
      headers["cache-control"] = "public, immutable";
      headers["expires"] = new Date(ctx.now() + 365 * 24 * 3600 * 1000).toUTCString();
    } else {
      headers["cache-control"] = "no-cache, private";
    }
    const match = req.headers.get("if-none-match");
    if (match !== null && match.split(",").some((t) => t.trim() === etag)) {
      return new Response(null, { status: 304, headers });
    }
    return rawJson(doc.body, 200, headers);
  };
}
