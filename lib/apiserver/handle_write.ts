/**
 * HTTP write verbs: POST (create), PUT (update), PATCH (four patch types), DELETE and
 * DELETE on a collection; plus the `status` and `scale` subresources.
 *
 * @module
 */
import type { Json, KubeObject } from "../core/object.ts";
import {
  ApiFailure,
  contentTypeOf,
  decodeBody,
  fail,
  json,
  objectJson,
  parseBool,
  rawJson,
  readBody,
  readBodyBytes,
  statusResponse,
  warningHeaders,
} from "./http_util.ts";
import { decodeKubeProtobuf } from "./protobuf/mod.ts";
import { wantsPretty } from "./status_body.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { type ServerContext, storeKey } from "./context.ts";
import type { UpdateOptions, WriteOptions, WriteResult } from "./object_write.ts";
import { deletedStatus, parseDeleteOptions } from "./object_delete.ts";
import { buildFilter } from "./list_filter.ts";
import { scaleOf } from "./scale.ts";
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  patchErrorStatus,
  strategicSchemaFor,
} from "./patch/mod.ts";
import { planServerSideApply } from "./server_side_apply.ts";
import { admittedCreate, admittedDelete, admittedUpdate } from "./admission/admitted_write.ts";
import { managerFromUserAgent } from "./apply/mod.ts";
import { type DecodedBody, decodeRequestBody } from "./decode_request_body.ts";

const patchTypes = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/apply-patch+yaml",
];

function writeOptions(req: Request): WriteOptions {
  const q = new URL(req.url).searchParams;
  const dryRun = q.getAll("dryRun");
  for (const d of dryRun) {
    if (d !== "All") fail("Invalid", `dryRun: Unsupported value: "${d}": supported values: "All"`);
  }
  const fv = q.get("fieldValidation") ?? "Warn";
  if (!["Strict", "Warn", "Ignore"].includes(fv)) {
    fail(
      "BadRequest",
      `fieldValidation: invalid value ${JSON.stringify(fv)}: must be Ignore, Warn or Strict`,
    );
  }
  const fieldManager = q.get("fieldManager") ?? undefined;
  if (fieldManager && fieldManager.length > 128) {
    fail("Invalid", "fieldManager: Too long: may not be more than 128 bytes");
  }
  return {
    dryRun: dryRun.length > 0,
    fieldValidation: fv as WriteOptions["fieldValidation"],
    fieldManager,
    userAgentManager: managerFromUserAgent(req.headers.get("user-agent")),
  };
}

function respond(r: WriteResult, status?: number): Response {
  return rawJson(
    r.json ?? objectJson(r.object),
    status ?? (r.created ? 201 : 200),
    warningHeaders(r.warnings),
  );
}

const bodyTypes = ["application/json", "application/yaml"];

/**
 * Reads and decodes a write's body: JSON or YAML, or (built-in kinds, when `allowProtobuf`)
 * Kubernetes protobuf; 415 for other media types.
 */
async function body(ctx: ServerContext, req: Request, allowProtobuf = false): Promise<DecodedBody> {
  const type = contentTypeOf(req);
  if (allowProtobuf && type === protobuf) {
    try {
      return { value: await decodeKubeProtobuf(await readBodyBytes(req)), duplicates: [] };
    } catch (e) {
      if (e instanceof ApiFailure) throw e;
      unsupported(bodyTypes, (e as Error).message);
    }
  }
  if (!bodyTypes.includes(type)) {
    unsupported(allowProtobuf ? [...bodyTypes, protobuf] : bodyTypes);
  }
  return await decodeRequestBody(await readBody(req), type, ctx.yamlParser);
}

/**
 * A custom resource body must name its kind and apiVersion (built-in kinds take them from
 * the URL, as kube-apiserver's typed decoder does).
 */
function requireTypeMeta(info: ResourceInfo, value: unknown): void {
  if (!info.isCustom || typeof value !== "object" || value === null) return;
  const o = value as Record<string, unknown>;
  const missing = !o.kind ? "Kind" : !o.apiVersion ? "apiVersion" : undefined;
  if (!missing) return;
  const text = JSON.stringify(value);
  fail(
    "BadRequest",
    `the object provided is unrecognized (must be of type ${info.kind}): ` +
      `Object '${missing}' is missing in '${
        text.length > 200 ? `${text.slice(0, 200)}...` : text
      }'`,
  );
}

/** POST on a collection (or `pods/<name>/binding`). */
export async function handleCreate(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
): Promise<Response> {
  const opts = writeOptions(req);
  const decoded = await body(ctx, req, !info.isCustom);
  requireTypeMeta(info, decoded.value);
  const request = { style: "body" as const, duplicates: decoded.duplicates };
  return respond(await admittedCreate(ctx, info, namespace, decoded.value, { ...opts, request }));
}

/**
 * The object a POST to a subresource or review endpoint carries: JSON, YAML or (for the
 * kinds kubectl creates imperatively) Kubernetes protobuf; 415 for other media types.
 */
export async function requestObject(ctx: ServerContext, req: Request): Promise<unknown> {
  return (await body(ctx, req, true)).value;
}

const protobuf = "application/vnd.kubernetes.protobuf";

function unsupported(accepted: string[], detail?: string): never {
  fail(
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${
      accepted.join(", ")
    }${detail ? ` (${detail})` : ""}`,
  );
}

/** PUT on an object or its status / scale subresource. */
export async function handleUpdate(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  subresource: string | undefined,
): Promise<Response> {
  const opts = writeOptions(req);
  const decoded = await body(ctx, req, !info.isCustom);
  const value = decoded.value;
  if (subresource === "scale") {
    const r = await admittedUpdate(ctx, info, namespace, name, () => ({ object: value }), {
      ...opts,
      unconditional: true,
      scale: true,
    });
    return json(scaleOf(info, r.object));
  }
  const sub = subresource === "status" ? "status" : undefined;
  const request = { style: "body" as const, duplicates: decoded.duplicates };
  return respond(
    await admittedUpdate(ctx, info, namespace, name, () => ({ object: value }), {
      ...opts,
      subresource: sub,
      request,
    }),
  );
}

function applyPatch(
  info: ResourceInfo,
  type: string,
  current: KubeObject,
  patch: unknown,
): unknown {
  const result = type === "application/json-patch+json"
    ? applyJsonPatch(current, patch)
    : type === "application/merge-patch+json"
    ? { _tag: "Right" as const, right: applyMergePatch(current as Json, patch as Json) }
    : applyStrategicMergePatch(
      current as Json,
      patch,
      strategicSchemaFor(current.apiVersion ?? "", info.kind)!,
    );
  if (result._tag === "Left") throw new ApiFailure(patchErrorStatus(result.left));
  return result.right;
}

/** PATCH on an object or its status / scale subresource. */
export async function handlePatch(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  subresource: string | undefined,
): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const type = contentTypeOf(req);
  const smp = "application/strategic-merge-patch+json";
  const accepted = info.strategicMerge ? [...patchTypes, smp] : patchTypes;
  if (!accepted.includes(type)) unsupported(accepted);
  const opts = writeOptions(req);
  if (q.has("force") && type !== "application/apply-patch+yaml") {
    fail("Invalid", "force: Forbidden: may not be specified for non-apply patch");
  }
  const decoded = await decodeRequestBody(await readBody(req), type, ctx.yamlParser);
  const patch = decoded.value;
  if (type === "application/apply-patch+yaml") {
    const force = parseBool(q.get("force"), "force");
    const request = { style: "apply" as const, duplicates: decoded.duplicates };
    const aopts = { ...opts, force, subresource, request };
    const plan = (live: KubeObject | undefined) =>
      planServerSideApply(ctx, info, namespace, name, patch, aopts, live);
    if (!ctx.storage.get(info.storageKey, storeKey(info, namespace, name))) {
      const p = plan(undefined);
      if (p.type === "create") {
        return respond(await admittedCreate(ctx, info, namespace, p.body, p.opts));
      }
    }
    const first = {
      unconditional: true,
      ...aopts,
      subresource: subresource === "status" ? "status" as const : undefined,
    };
    return respond(
      await admittedUpdate(ctx, info, namespace, name, (live) => {
        const p = plan(live);
        return p.type === "update"
          ? { object: p.candidate, managedFields: p.opts.managedFields }
          : { object: p.body, managedFields: p.opts.managedFields };
      }, first),
    );
  }
  if (subresource === "scale") {
    const r = await admittedUpdate(ctx, info, namespace, name, (current) => ({
      object: applyPatch(info, type, scaleOf(info, current), patch),
    }), { ...opts, unconditional: true, scale: true });
    return json(scaleOf(info, r.object));
  }
  const uopts: UpdateOptions = {
    ...opts,
    unconditional: true,
    subresource: subresource === "status" ? "status" : undefined,
    request: { style: "patch", duplicates: decoded.duplicates, patch },
  };
  return respond(
    await admittedUpdate(ctx, info, namespace, name, (current) => ({
      object: applyPatch(info, type, current, patch),
    }), uopts),
  );
}

/** DELETE on an object. */
export async function handleDelete(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const text = await readBody(req);
  const opts = parseDeleteOptions(
    text.trim() ? await decodeBody(text, contentTypeOf(req)) : undefined,
    q,
  );
  const r = await admittedDelete(ctx, info, namespace, name, {
    ...opts,
    dryRun: opts.dryRun || q.getAll("dryRun").includes("All"),
  });
  const headers = warningHeaders(r.warnings);
  if (r.type === "deferred" || info.returnDeletedObject) return json(r.object, 200, headers);
  return statusResponse(deletedStatus(info, r.object), headers, wantsPretty(req));
}

/** DELETE on a collection: deletes every selected object; answers with the list of them. */
export async function handleDeleteCollection(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const text = await readBody(req);
  const opts = parseDeleteOptions(
    text.trim() ? await decodeBody(text, contentTypeOf(req)) : undefined,
    q,
  );
  const filter = buildFilter(info, q);
  const items: KubeObject[] = [];
  for (const s of ctx.storage.list(info.storageKey, namespace)) {
    if (!filter(s.object)) continue;
    const m = s.object.metadata!;
    items.push((await admittedDelete(ctx, info, m.namespace, m.name!, opts)).object);
  }
  return json({
    kind: info.listKind,
    apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
    metadata: { resourceVersion: String(ctx.storage.rv) },
    items,
  });
}
