/**
 * The write path with admission webhooks and conversion webhooks, kube-apiserver's order:
 * the request's object (defaulted) goes through the mutating webhooks, then the server's own
 * checks (schema, validation), then the validating webhooks, then into storage in the storage
 * version. Creates and deletes are here, updates in `admitted_update.ts` (re-exported), the
 * shared parts in `webhook_write_path.ts`. Requests that no webhook concerns take the
 * synchronous path unchanged.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { storeKey } from "../context.ts";
import { groupVersion, type ResourceInfo } from "../resource_info.ts";
import {
  commitWrite,
  createObject,
  getStored,
  prepareCreate,
  type WriteOptions,
  type WriteResult,
} from "../object_write.ts";
import { deleteObject, type DeleteOptions, type DeleteResult } from "../object_delete.ts";
import { operationOptions } from "./admission_attributes.ts";
import { admitValidating } from "./dispatch_webhooks.ts";
import { admitMutating } from "./mutating_dispatch.ts";
import { admitBuiltinCreate } from "./builtin_mutating.ts";
import {
  attributes,
  defaulter,
  respondAs,
  storageInfo,
  webhookCr,
  webhooksConcern,
  withWarnings,
} from "./webhook_write_path.ts";

export { admittedUpdate, type CandidateOf } from "./admitted_update.ts";
export { webhooksConcern } from "./webhook_write_path.ts";

/** The object mutating webhooks see on a create: the request's, typed, system fields wiped. */
function createCandidate(info: ResourceInfo, namespace: string | undefined, body: unknown) {
  if (!isPlainObject(body)) return undefined;
  const meta = isPlainObject(body.metadata) ? { ...body.metadata } : {};
  for (const f of ["uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"]) {
    delete meta[f];
  }
  if (info.namespaced && namespace && !meta.namespace) meta.namespace = namespace;
  return { ...body, apiVersion: groupVersion(info), kind: info.kind, metadata: meta } as KubeObject;
}

/**
 * Creates an object through the webhooks (POST, or an apply that creates).
 *
 * @example
 * ```ts ignore
 * const r = await admittedCreate(ctx, info, "default", body, { fieldManager: "kubectl" });
 * ```
 */
export async function admittedCreate(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  body: unknown,
  opts: WriteOptions = {},
): Promise<WriteResult> {
  const rt = ctx.webhooks;
  if (!rt || !webhooksConcern(ctx, info)) return createObject(ctx, info, namespace, body, opts);
  const defaults = defaulter(ctx, info);
  const candidate = createCandidate(info, namespace, body);
  if (!candidate) return createObject(ctx, info, namespace, body, opts);
  const object = defaults(candidate);
  // The built-in mutating plugins first, as kube-apiserver orders them before the webhooks.
  const done = admitBuiltinCreate(ctx, info, namespace, object);
  const a = attributes(info, "CREATE", {
    name: String(candidate.metadata?.name ?? ""),
    namespace: info.namespaced ? String(candidate.metadata?.namespace ?? "") : undefined,
    object,
  }, opts);
  const warnings: string[] = [];
  return await withWarnings(warnings, async () => {
    // The in-tree plugins run again when a webhook changed the object (kube's reinvocation).
    const again = (o: KubeObject) => void admitBuiltinCreate(ctx, info, namespace, o);
    const m = await admitMutating(ctx, rt, a, (i) => defaulter(ctx, i), warnings, again);
    const prepared = prepareCreate(ctx, info, namespace, m.object, { ...opts, ...done });
    warnings.unshift(...prepared.warnings);
    await admitValidating(ctx, rt, {
      ...a,
      name: prepared.object.metadata!.name!,
      object: prepared.object,
    }, warnings);
    const stored = webhookCr(info) && !opts.dryRun &&
        info.crdConversion!.storageVersion !== info.version
      ? (await rt.converter.toVersion(storageInfo(info), [prepared.object]))[0]
      : undefined;
    const r = commitWrite(ctx, prepared, { ...opts, stored });
    return { ...(await respondAs(rt, info, r)), warnings };
  });
}

/**
 * Deletes an object through the webhooks (they see it as `oldObject`).
 *
 * @example
 * ```ts ignore
 * await admittedDelete(ctx, info, "default", "web", {});
 * ```
 */
export async function admittedDelete(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  opts: DeleteOptions = {},
): Promise<DeleteResult & { readonly warnings: readonly string[] }> {
  const rt = ctx.webhooks;
  if (!rt || !webhooksConcern(ctx, info)) {
    return { ...deleteObject(ctx, info, namespace, name, opts), warnings: [] };
  }
  const stored = getStored(ctx, info, namespace, name);
  const [view] = await rt.converter.toVersion(info, [stored], { cache: true });
  const deleteOptions: Record<string, unknown> = {
    dryRun: opts.dryRun,
    ...(opts.gracePeriodSeconds !== undefined
      ? { gracePeriodSeconds: opts.gracePeriodSeconds }
      : {}),
    ...(opts.propagationPolicy ? { propagationPolicy: opts.propagationPolicy } : {}),
    ...(opts.preconditions ? { preconditions: opts.preconditions } : {}),
  };
  const a = attributes(info, "DELETE", { name, namespace, oldObject: view }, {});
  const withOptions = {
    ...a,
    dryRun: opts.dryRun ?? false,
    options: operationOptions("DELETE", deleteOptions),
  };
  const warnings: string[] = [];
  return await withWarnings(warnings, async () => {
    await admitMutating(ctx, rt, withOptions, () => (o) => o, warnings);
    await admitValidating(ctx, rt, withOptions, warnings);
    const r = deleteObject(ctx, info, namespace, name, opts);
    if (!webhookCr(info)) return { ...r, warnings };
    const after = r.type === "deferred"
      ? ctx.storage.get(info.storageKey, storeKey(info, namespace, name))?.object
      : stored;
    const [object] = await rt.converter.toVersion(info, [after ?? stored], { cache: true });
    return { type: r.type, object, warnings };
  });
}
