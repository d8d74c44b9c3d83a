/**
 * GET of one object and LIST of a collection, as JSON, YAML or Table.
 *
 * @module
 */
import { metadataMismatch, metadataRequest, partialObjectMetadata } from "./partial_metadata.ts";
import type { KubeObject } from "../core/object.ts";
import { failure } from "../core/status.ts";
import { YAML } from "../deps.ts";
import { ApiFailure, fail, json, negotiate, rawJson } from "./http_util.ts";
import { groupVersion, type ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext } from "./context.ts";
import { getStored } from "./object_write.ts";
import { type SnapshotItem, snapshotScan } from "./snapshot.ts";
import { buildFilter } from "./list_filter.ts";
import { parseIncludeObject, toTable } from "./table.ts";
import { scaleOf } from "./scale.ts";

/** Parses a resourceVersion query value: undefined when absent, 400 when not a number. */
export function parseRv(value: string | null): number | undefined {
  if (value === null || value === "") return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    fail("BadRequest", `invalid resource version: ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The 504 for a resourceVersion newer than the server's. */
export function tooLargeRv(rv: number, current: number): ApiFailure {
  return new ApiFailure(
    failure("Timeout", `Timeout: Too large resource version: ${rv}, current: ${current}`, {
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
      retryAfterSeconds: 1,
    }),
    { "retry-after": "1" },
  );
}

function respondObject(req: Request, info: ResourceInfo, obj: KubeObject, now: number): Response {
  const rep = negotiate(req.headers.get("accept"));
  if (rep === "table") {
    const include = parseIncludeObject(new URL(req.url).searchParams.get("includeObject"));
    return json(toTable(info, [obj], { include, now }));
  }
  if (rep === "yaml") {
    return new Response(YAML.stringify(obj), { headers: { "content-type": "application/yaml" } });
  }
  if (rep === "metadata") {
    const m = metadataRequest(req.headers.get("accept"))!;
    if (m.list) fail("NotAcceptable", metadataMismatch(m, info.listKind, info.kind));
    return json(partialObjectMetadata(obj, m.apiVersion));
  }
  return json(obj);
}

/** Sends an object in the representation the request accepts. */
export { respondObject };

/** GET of an object (or its status / scale subresource). */
export async function handleGet(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  subresource: string | undefined,
): Promise<Response> {
  const rv = parseRv(new URL(req.url).searchParams.get("resourceVersion"));
  if (rv !== undefined && rv > ctx.storage.rv) throw tooLargeRv(rv, ctx.storage.rv);
  const [obj] = await viewsOf(ctx, info, [getStored(ctx, info, namespace, name)]);
  if (subresource === "scale") return json(scaleOf(info, obj));
  return respondObject(req, info, obj, ctx.now());
}

interface ContinueToken {
  readonly rv: number;
  readonly start: string;
}

function encodeContinue(t: ContinueToken): string {
  return btoa(JSON.stringify({ v: 1, rv: t.rv, start: t.start }));
}

/**
 * Reads a continue token back. Tokens are not secret (kube-apiserver's are plain base64 JSON
 * too), but every field is checked: a forged one is a 400, never a list at a resourceVersion
 * the server never had.
 */
function decodeContinue(value: string, currentRv: number): ContinueToken {
  let t: Record<string, unknown> | undefined;
  try {
    if (value.length <= 4096) t = JSON.parse(atob(value));
  } catch { /* not base64 JSON */ }
  if (!t || typeof t !== "object" || t.v !== 1 || typeof t.start !== "string") {
    fail("BadRequest", "continue key is not valid: invalid format");
  }
  const rv = t.rv;
  if (typeof rv !== "number" || !Number.isSafeInteger(rv) || rv < 1 || rv > currentRv) {
    fail(
      "BadRequest",
      "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
    );
  }
  if (t.start.length > 512) fail("BadRequest", "continue key is not valid: invalid start key");
  return { rv, start: t.start };
}

const expiredContinue =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/**
 * Stored objects as `info`'s version: through the conversion webhook when the CRD has one
 * (one review for all of them), else presented.
 */
async function viewsOf(
  ctx: ServerContext,
  info: ResourceInfo,
  objects: readonly KubeObject[],
): Promise<KubeObject[]> {
  const converter = ctx.webhooks?.converter;
  if (!converter || !objects.some((o) => converter.needsWebhook(info, o))) {
    return objects.map((o) => present(info, o));
  }
  return await converter.toVersion(info, objects, { cache: true });
}

/** LIST of a collection: selectors, resourceVersion semantics, pagination. */
export async function handleList(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const rep = negotiate(req.headers.get("accept"));
  const asMetadata = rep === "metadata" ? metadataRequest(req.headers.get("accept")) : undefined;
  if (asMetadata && !asMetadata.list) {
    fail("NotAcceptable", metadataMismatch(asMetadata, info.listKind, info.kind));
  }
  const filter = buildFilter(info, q);
  const limit = Math.max(0, Math.floor(Number(q.get("limit") ?? "0")) || 0);
  const cont = q.get("continue") || undefined;
  const rvParam = q.get("resourceVersion");
  const rv = parseRv(rvParam);
  const match = q.get("resourceVersionMatch") || undefined;
  if (q.has("sendInitialEvents")) {
    fail("Invalid", "sendInitialEvents is forbidden for list", {
      causes: [{ field: "sendInitialEvents" }],
    });
  }
  if (match !== undefined) {
    if (match !== "Exact" && match !== "NotOlderThan") {
      fail("Invalid", `resourceVersionMatch: Unsupported value: "${match}"`);
    }
    if (rvParam === null) {
      fail("Invalid", "resourceVersionMatch is forbidden unless resourceVersion is provided");
    }
    if (cont) fail("Invalid", "resourceVersionMatch is forbidden when continue is provided");
    if (match === "Exact" && rv === 0) {
      fail("Invalid", 'resourceVersionMatch "Exact" is forbidden for resourceVersion "0"');
    }
  }
  if (cont && rv !== undefined && rv !== 0) {
    fail("BadRequest", "specifying resource version is not allowed when using continue");
  }
  const current = ctx.storage.rv;
  if (rv !== undefined && rv > current) throw tooLargeRv(rv, current);

  let snapshotRv = current;
  let start = "";
  if (cont) {
    const token = decodeContinue(cont, current);
    [snapshotRv, start] = [token.rv, token.start];
  } else if (
    rv !== undefined && rv !== 0 && (match === "Exact" || (match === undefined && limit > 0))
  ) {
    snapshotRv = rv;
  }
  const items = snapshotScan(
    ctx.storage,
    info.storageKey,
    snapshotRv,
    namespace,
    start || undefined,
  );
  if (!items) {
    if (cont) throw new ApiFailure(failure("Expired", expiredContinue));
    throw new ApiFailure(
      failure("Expired", "The resourceVersion for the provided list is too old."),
    );
  }
  const selected: SnapshotItem[] = [];
  let next: string | undefined;
  for (const item of items) {
    if (start && item.key <= start) continue;
    if (!filter(item.object)) continue;
    if (limit > 0 && selected.length === limit) {
      next = encodeContinue({ rv: snapshotRv, start: selected[selected.length - 1].key });
      break;
    }
    selected.push(item);
  }
  const listRv = String(snapshotRv);
  const views = await viewsOf(ctx, info, selected.map((i) => i.object));
  const now = ctx.now();
  if (rep === "table") {
    const include = parseIncludeObject(q.get("includeObject"));
    const objs = views;
    return json(toTable(info, objs, { resourceVersion: listRv, continue: next, include, now }));
  }
  const gv = groupVersion(info);
  const meta = next ? { resourceVersion: listRv, continue: next } : { resourceVersion: listRv };
  if (asMetadata) {
    const items = selected.map((i) => partialObjectMetadata(i.object, asMetadata.apiVersion));
    return json({
      kind: "PartialObjectMetadataList",
      apiVersion: asMetadata.apiVersion,
      metadata: meta,
      items,
    });
  }
  if (rep === "yaml") {
    const items = views;
    const list = { apiVersion: gv, kind: info.listKind, metadata: meta, items };
    return new Response(YAML.stringify(list), { headers: { "content-type": "application/yaml" } });
  }
  const parts = selected.map((i, k) =>
    i.json && i.object.apiVersion === gv ? i.json() : JSON.stringify(views[k])
  );
  return rawJson(
    `{"kind":${JSON.stringify(info.listKind)},"apiVersion":${JSON.stringify(gv)},"metadata":${
      JSON.stringify(meta)
    },"items":[${parts.join(",")}]}`,
  );
}
