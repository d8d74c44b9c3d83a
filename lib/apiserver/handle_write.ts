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
} from "./http_util.ts";
import { decodeKubeProtobuf } from "./protobuf/mod.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext } from "./context.ts";
import {
  createObject,
  getStored,
  updateObject,
  type UpdateOptions,
  type WriteOptions,
  type WriteResult,
} from "./object_write.ts";
import { deletedStatus, deleteObject, parseDeleteOptions } from "./object_delete.ts";
import { buildFilter } from "./list_filter.ts";
import { scaleOf, withScale } from "./scale.ts";
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  patchErrorStatus,
  strategicSchemaFor,
} from "./patch/mod.ts";
import { serverSideApply } from "./server_side_apply.ts";
import { managerFromUserAgent } from "./apply/mod.ts";

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
  const headers: Record<string, string> = {};
  if (r.warnings.length) {
    headers.warning = r.warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(", ");
  }
  return rawJson(objectJson(r.object), status ?? (r.created ? 201 : 200), headers);
}

/** A JSON or YAML body, or a Kubernetes protobuf one (create and update of built-ins). */
async function body(req: Request, allowProtobuf = false): Promise<unknown> {
  const type = contentTypeOf(req);
  if (allowProtobuf && type === protobuf) {
    try {
      return await decodeKubeProtobuf(await readBodyBytes(req));
    } catch (e) {
      if (e instanceof ApiFailure) throw e;
      unsupported(["application/json", "application/yaml"], (e as Error).message);
    }
  }
  return decodeBody(await readBody(req), type);
}

/** POST on a collection (or `pods/<name>/binding`). */
export async function handleCreate(
  ctx: ServerContext,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
): Promise<Response> {
  const type = contentTypeOf(req);
  const opts = writeOptions(req);
  if (type !== "application/json" && type !== "application/yaml" && type !== protobuf) {
    unsupported(["application/json", "application/yaml", protobuf]);
  }
  return respond(createObject(ctx, info, namespace, await body(req, !info.isCustom), opts));
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
  const value = await body(req, !info.isCustom);
  if (subresource === "scale") {
    const current = present(info, getStored(ctx, info, namespace, name));
    const next = withScale(info, current, value);
    const r = updateObject(ctx, info, namespace, name, next, { ...opts, unconditional: true });
    return json(scaleOf(info, r.object));
  }
  const sub = subresource === "status" ? "status" : undefined;
  return respond(updateObject(ctx, info, namespace, name, value, { ...opts, subresource: sub }));
}

function applyPatch(
  info: ResourceInfo,
  type: string,
  current: KubeObject,
  patch: unknown,
): unknown {
  const result = type === "application/json-patch+json"
    ? applyJsonPatch(current as Json, patch)
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
  const patch = await body(req);
  if (type === "application/apply-patch+yaml") {
    const force = parseBool(q.get("force"), "force");
    return respond(
      serverSideApply(ctx, info, namespace, name, patch, { ...opts, force, subresource }),
    );
  }
  const current = present(info, getStored(ctx, info, namespace, name));
  if (subresource === "scale") {
    const scale = applyPatch(info, type, scaleOf(info, current) as unknown as KubeObject, patch);
    const next = withScale(info, current, scale);
    const r = updateObject(ctx, info, namespace, name, next, { ...opts, unconditional: true });
    return json(scaleOf(info, r.object));
  }
  const patched = applyPatch(info, type, current, patch);
  const uopts: UpdateOptions = {
    ...opts,
    unconditional: true,
    subresource: subresource === "status" ? "status" : undefined,
  };
  return respond(updateObject(ctx, info, namespace, name, patched, uopts));
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
    text.trim() ? decodeBody(text, contentTypeOf(req)) : undefined,
    q,
  );
  const r = deleteObject(ctx, info, namespace, name, {
    ...opts,
    dryRun: opts.dryRun || q.getAll("dryRun").includes("All"),
  });
  if (r.type === "deferred" || info.returnDeletedObject) return json(r.object);
  return statusResponse(deletedStatus(info, r.object));
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
    text.trim() ? decodeBody(text, contentTypeOf(req)) : undefined,
    q,
  );
  const filter = buildFilter(info, q);
  const items: KubeObject[] = [];
  for (const s of ctx.storage.list(info.storageKey, namespace)) {
    if (!filter(s.object)) continue;
    const m = s.object.metadata!;
    items.push(deleteObject(ctx, info, m.namespace, m.name!, opts).object);
  }
  return json({
    kind: info.listKind,
    apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
    metadata: { resourceVersion: String(ctx.storage.rv) },
    items,
  });
}
