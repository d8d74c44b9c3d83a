/**
 * The write path with admission webhooks and conversion webhooks, kube-apiserver's order:
 * the request's object (defaulted) goes through the mutating webhooks, then the server's own
 * checks (schema, validation), then the validating webhooks, then into storage in the storage
 * version. An update that raced with another write is tried again from the new revision.
 * Requests that no webhook concerns take the synchronous path unchanged.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import type { ServerContext } from "../context.ts";
import { ApiFailure, warningHeaders } from "../http_util.ts";
import { present, storeKey } from "../context.ts";
import { groupVersion, type ResourceInfo } from "../resource_info.ts";
import {
  commitWrite,
  conflict,
  createObject,
  getStored,
  prepareCreate,
  prepareUpdate,
  updateObject,
  type UpdateOptions,
  type WriteOptions,
  WriteRaced,
  type WriteResult,
} from "../object_write.ts";
import { deleteObject, type DeleteOptions, type DeleteResult } from "../object_delete.ts";
import { scaleOf, withScale } from "../scale.ts";
import type { ManagedFieldsEntry } from "../apply/mod.ts";
import {
  adminUser,
  type AdmissionAttributes,
  type AdmissionOperation,
  operationOptions,
} from "./admission_attributes.ts";
import { type AdmissionRuntime, admitValidating } from "./dispatch_webhooks.ts";
import { admitMutating } from "./mutating_dispatch.ts";
import { admitBuiltinCreate, admitBuiltinUpdate } from "./builtin_mutating.ts";

const configKeys = [
  "admissionregistration.k8s.io/validatingwebhookconfigurations",
  "admissionregistration.k8s.io/mutatingwebhookconfigurations",
];

/** Whether a write of `info` must take the webhook path (configurations or conversion). */
export function webhooksConcern(ctx: ServerContext, info: ResourceInfo): boolean {
  if (!ctx.webhooks) return false;
  if (info.crdConversion?.strategy === "Webhook") return true;
  return configKeys.some((k) => ctx.storage.count(k) > 0);
}

const webhookCr = (info: ResourceInfo) => info.crdConversion?.strategy === "Webhook";

/** A stand-in for the storage version's ResourceInfo (it need not be served). */
function storageInfo(info: ResourceInfo): ResourceInfo {
  const v = info.crdConversion!.storageVersion;
  return v === info.version ? info : { ...info, version: v };
}

function defaulter(ctx: ServerContext, info: ResourceInfo) {
  return (o: KubeObject): KubeObject => {
    const copy = structuredClone(o);
    ctx.hooks.get(info.storageKey)?.defaults?.(copy);
    return info.schema?.defaults ? info.schema.defaults(copy) : copy;
  };
}

function attributes(
  info: ResourceInfo,
  operation: AdmissionOperation,
  fields: Partial<AdmissionAttributes> & { name: string; namespace: string | undefined },
  opts: WriteOptions & { fieldManager?: string },
): AdmissionAttributes {
  return {
    operation,
    info,
    kind: { group: info.group, version: info.version, kind: info.kind },
    dryRun: opts.dryRun ?? false,
    user: adminUser,
    options: operationOptions(operation, {
      dryRun: opts.dryRun,
      fieldManager: opts.fieldManager,
      ...(operation !== "DELETE" && opts.fieldValidation
        ? { fieldValidation: opts.fieldValidation }
        : {}),
    }),
    ...fields,
  };
}

/** The response object: the stored revision as the request's version. */
async function respondAs(rt: AdmissionRuntime, info: ResourceInfo, r: WriteResult) {
  if (!r.stored || !webhookCr(info)) return r;
  const [object] = await rt.converter.toVersion(info, [r.stored], { cache: true });
  return { ...r, object };
}

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

/** Runs `f`; a failure carries the warnings gathered so far (kube sends them with errors). */
async function withWarnings<T>(warnings: readonly string[], f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (!(e instanceof ApiFailure) || !warnings.length) throw e;
    throw new ApiFailure(e.status, { ...e.headers, ...warningHeaders(warnings) });
  }
}

/**
 * How the candidate of an update is made from the current object (as the request's version),
 * with the managed fields an apply computed.
 */
export type CandidateOf = (current: KubeObject) => {
  readonly object: unknown;
  readonly managedFields?: readonly ManagedFieldsEntry[];
};

const maxAttempts = 5;

const withFields = <O extends UpdateOptions>(
  opts: O,
  managedFields: readonly ManagedFieldsEntry[] | undefined,
): O => managedFields ? { ...opts, managedFields } : opts;

/**
 * Updates an object through the webhooks (PUT, PATCH, apply, status and scale): the candidate
 * is made from the current revision, again after a race with another write.
 *
 * @example
 * ```ts ignore
 * await admittedUpdate(ctx, info, "default", "web", (cur) => applyPatch(cur), { unconditional: true });
 * ```
 */
export async function admittedUpdate(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  candidateOf: CandidateOf,
  opts: UpdateOptions & { readonly scale?: boolean } = {},
): Promise<WriteResult> {
  const rt = ctx.webhooks;
  const sub = opts.scale ? "scale" : opts.subresource;
  if (!rt || !webhooksConcern(ctx, info)) {
    const current = present(info, getStored(ctx, info, namespace, name));
    const c = candidateOf(current);
    const full = opts.scale ? withScale(info, current, c.object) : c.object;
    return updateObject(ctx, info, namespace, name, full, withFields(opts, c.managedFields));
  }
  const defaults = defaulter(ctx, info);
  const warnings: string[] = [];
  return await withWarnings(warnings, async () => {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      warnings.length = 0;
      const stored = getStored(ctx, info, namespace, name);
      const [view] = await rt.converter.toVersion(info, [stored], { cache: true });
      const made = candidateOf(view);
      const candidate = made.object;
      const uopts = withFields(opts, made.managedFields);
      const scaled = opts.scale;
      const plain = !scaled && isPlainObject(candidate);
      const object = plain ? defaults(candidate as KubeObject) : candidate as KubeObject;
      const done = plain && !sub ? admitBuiltinUpdate(ctx, info, object, view) : {};
      const a = attributes(info, "UPDATE", {
        name,
        namespace,
        ...(sub ? { subresource: sub } : {}),
        ...(scaled ? { kind: { group: "autoscaling", version: "v1", kind: "Scale" } } : {}),
        object,
        oldObject: scaled ? scaleOf(info, view) as unknown as KubeObject : view,
      }, opts);
      const again = plain && !sub
        ? (o: KubeObject) => void admitBuiltinUpdate(ctx, info, o, view)
        : undefined;
      const m = await admitMutating(
        ctx,
        rt,
        a,
        (i) => scaled ? (o) => o : defaulter(ctx, i),
        warnings,
        again,
      );
      if (ctx.storage.get(info.storageKey, storeKey(info, namespace, name))?.object !== stored) {
        continue; // changed while the webhooks ran: start from the new revision
      }
      const full = scaled ? withScale(info, view, m.object) : m.object;
      const prepared = prepareUpdate(ctx, info, namespace, name, full, {
        ...uopts,
        ...done,
        ...(webhookCr(info) ? { oldView: view } : {}),
      });
      warnings.unshift(...prepared.warnings);
      await admitValidating(ctx, rt, {
        ...a,
        object: scaled ? scaleOf(info, prepared.object) as unknown as KubeObject : prepared.object,
      }, warnings);
      const changed = !deepEqual(prepared.oldView, prepared.object);
      const convert = webhookCr(info) && changed && !opts.dryRun &&
        info.crdConversion!.storageVersion !== info.version;
      const storedForm = convert
        ? (await rt.converter.toVersion(storageInfo(info), [prepared.object]))[0]
        : undefined;
      let r: WriteResult;
      try {
        r = commitWrite(ctx, prepared, { ...uopts, stored: storedForm });
      } catch (e) {
        if (e instanceof WriteRaced) continue;
        throw e;
      }
      return { ...(await respondAs(rt, info, r)), warnings };
    }
    throw conflict(info, name);
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
