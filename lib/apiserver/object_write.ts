/**
 * The generic create and update paths: metadata ownership, optimistic concurrency,
 * generation, status subresource rules; admission (schema, validation) is in
 * `object_admit.ts`, the commit (no-op detection, dry runs, stored form) in `object_commit.ts`.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { invalid } from "../core/status.ts";
import { formatTime } from "../core/time.ts";
import { ApiFailure, fail } from "./http_util.ts";
import type { ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext, storeKey } from "./context.ts";
import { conflict, getStored } from "./object_errors.ts";
import { stampManagedFields } from "./managed_fields_stamp.ts";
import { admit, checkTypeMeta, rejectInvalid } from "./object_admit.ts";
import {
  commitWrite,
  type PreparedWrite,
  type WriteOptions,
  type WriteResult,
} from "./object_commit.ts";

export { conflict, getStored, notFound } from "./object_errors.ts";
export { applySchemaOf } from "./managed_fields_stamp.ts";
export {
  type CommitOptions,
  commitWrite,
  type PreparedWrite,
  type WriteOptions,
  WriteRaced,
  type WriteResult,
} from "./object_commit.ts";

const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789";

function randomSuffix(): string {
  let s = "";
  for (let i = 0; i < 5; i++) s += nameAlphabet[Math.floor(Math.random() * nameAlphabet.length)];
  return s;
}

/** 404 when the namespace does not exist, 403 when it is being terminated. */
export function checkNamespace(ctx: ServerContext, namespace: string): void {
  const ns = ctx.storage.get("/namespaces", namespace)?.object;
  if (!ns) {
    fail("NotFound", `namespaces "${namespace}" not found`, {
      name: namespace,
      kind: "namespaces",
    });
  }
  if (ns.metadata?.deletionTimestamp) {
    fail(
      "Forbidden",
      `unable to create new content in namespace ${namespace} because it is being terminated`,
      { name: namespace, kind: "namespaces" },
    );
  }
}

/** Creates an object (POST). */
export function createObject(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  body: unknown,
  opts: WriteOptions = {},
): WriteResult {
  return commitWrite(ctx, prepareCreate(ctx, info, namespace, body, opts), opts);
}

/**
 * Set on the webhook path, which runs the kind's built-in mutating admission (`admitCreate`,
 * `admitUpdate`) before the mutating webhooks: it must not run again (a webhook may have
 * undone a default on purpose).
 */
export interface AdmissionDone {
  readonly builtinAdmitted?: boolean;
}

/**
 * Checks a create (POST) without storing it: metadata, the kind's create preparation, its
 * built-in mutating admission (unless already done), defaults, schema, validation.
 */
export function prepareCreate(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  body: unknown,
  opts: WriteOptions & AdmissionDone = {},
): PreparedWrite {
  const obj = checkTypeMeta(info, body);
  const meta = obj.metadata!;
  if (info.namespaced) {
    if (meta.namespace && namespace && meta.namespace !== namespace) {
      fail(
        "BadRequest",
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    meta.namespace = namespace ?? meta.namespace;
    if (!meta.namespace) fail("BadRequest", "a namespace must be specified");
  } else delete meta.namespace;
  if (meta.resourceVersion) {
    fail("BadRequest", "resourceVersion should not be set on objects to be created");
  }
  if (info.namespaced) checkNamespace(ctx, meta.namespace!);
  const now = ctx.now();
  meta.uid = crypto.randomUUID();
  meta.creationTimestamp = formatTime(now);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.managedFields;
  if (info.hasGeneration || info.isCustom) meta.generation = 1;
  else delete meta.generation;
  if (info.hasStatus && !info.statusOnCreate) delete obj.status;
  const hooks = ctx.hooks.get(info.storageKey);
  // kube-apiserver's order: the built-in mutating admission, then the kind's own preparation
  // (the strategy's PrepareForCreate), so a pod's status.qosClass sees LimitRanger's defaults.
  if (!opts.builtinAdmitted) hooks?.admitCreate?.(obj, ctx);
  // As kube's BeforeCreate: the name is generated after admission (whose errors name the
  // object by its generateName; a plugin may have replaced the metadata object).
  const named = obj.metadata ?? meta;
  if (!named.name && typeof named.generateName === "string" && named.generateName) {
    named.name = named.generateName.slice(0, 58) + randomSuffix();
  }
  hooks?.prepareCreate?.(obj, ctx);
  const { object, warnings } = admit(ctx, info, obj, undefined, opts);
  stampManagedFields(ctx, info, undefined, object, opts);
  const key = storeKey(info, object.metadata!.namespace, object.metadata!.name!);
  return { type: "create", info, namespace, key, object, warnings };
}

const withoutMeta = (o: KubeObject, dropStatus: boolean) => {
  const { metadata: _m, status, ...rest } = o;
  return dropStatus ? rest : { ...rest, status };
};

/** Update options: which subresource is written and whether PUT semantics apply. */
export interface UpdateOptions extends WriteOptions, AdmissionDone {
  readonly subresource?: "status";
  /** Whether the request may omit resourceVersion (patches may; PUT of custom resources may not). */
  readonly unconditional?: boolean;
  /**
   * A server-internal write like kube-apiserver's pod binding: spec and status in one commit,
   * outside field management (no managedFields entry).
   */
  readonly storageUpdate?: boolean;
}

/**
 * Replaces an object (PUT, and the second half of every patch): `candidate` is the full
 * new object as the client wants it.
 */
export function updateObject(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  candidate: unknown,
  opts: UpdateOptions = {},
): WriteResult {
  return commitWrite(ctx, prepareUpdate(ctx, info, namespace, name, candidate, opts), opts);
}

/**
 * Checks an update without storing it. `opts.oldView` is the stored object as `info`'s
 * version when a conversion webhook made it (default: the stored object as presented).
 */
export function prepareUpdate(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  candidate: unknown,
  opts: UpdateOptions & { readonly oldView?: KubeObject } = {},
): PreparedWrite {
  const body = checkTypeMeta(info, candidate);
  const meta = body.metadata!;
  if (meta.name !== undefined && meta.name !== name) {
    fail(
      "BadRequest",
      `the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`,
    );
  }
  if (info.namespaced && meta.namespace && meta.namespace !== namespace) {
    fail(
      "BadRequest",
      "the namespace of the provided object does not match the namespace sent on the request",
    );
  }
  const stored = getStored(ctx, info, namespace, name);
  // The stored object as this version (built-ins with a stored form work in that form).
  const old = opts.oldView ?? (info.convert ? stored : present(info, stored));
  const oldMeta = old.metadata!;
  // kube parses the resourceVersion as a number: "0" is unset (an unconditional update).
  if (meta.resourceVersion && meta.resourceVersion !== "0") {
    if (meta.resourceVersion !== oldMeta.resourceVersion) throw conflict(info, name);
  } else if (!opts.unconditional && !info.allowUnconditionalUpdate) {
    // kube names the resource here (a GroupKind built from the group and the plural).
    throw new ApiFailure(invalid(info.plural, info.group, name, [{
      type: "FieldValueInvalid",
      field: "metadata.resourceVersion",
      detail: "Invalid value: 0x0: must be specified for an update",
    }]));
  }
  if (meta.uid && meta.uid !== oldMeta.uid) {
    throw conflict(
      info,
      name,
      `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${oldMeta.uid}`,
    );
  }
  let next: KubeObject;
  if (opts.subresource === "status") {
    next = { ...old, status: body.status, metadata: { ...oldMeta } };
  } else {
    next = { ...body, metadata: { ...meta } };
    if (info.hasStatus && !opts.storageUpdate) {
      if (old.status === undefined) delete next.status;
      else next.status = old.status;
    }
    const m = next.metadata!;
    m.name = oldMeta.name;
    if (info.namespaced) m.namespace = oldMeta.namespace;
    else delete m.namespace;
    m.uid = oldMeta.uid;
    m.creationTimestamp = oldMeta.creationTimestamp;
    if (oldMeta.deletionTimestamp) {
      m.deletionTimestamp = oldMeta.deletionTimestamp;
      m.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    } else {
      delete m.deletionTimestamp;
      delete m.deletionGracePeriodSeconds;
    }
    // Managed fields the client sends are taken (or reset) by stampManagedFields.
    if (meta.managedFields === undefined || meta.managedFields === null) {
      if (oldMeta.managedFields) m.managedFields = oldMeta.managedFields;
      else delete m.managedFields;
    }
    if (oldMeta.generation !== undefined) m.generation = oldMeta.generation;
    else delete m.generation;
  }
  next.metadata!.resourceVersion = oldMeta.resourceVersion;
  if (opts.subresource !== "status" && !opts.storageUpdate) {
    const hooks = ctx.hooks.get(info.storageKey);
    const admitUpdate = opts.builtinAdmitted ? undefined : hooks?.admitUpdate;
    if (hooks && (hooks.prepareUpdate || admitUpdate)) {
      hooks.defaults?.(next);
      hooks.prepareUpdate?.(next, old, ctx);
      admitUpdate?.(next, old, ctx);
    }
  }
  const { object, warnings } = admit(ctx, info, next, old, opts);
  const m = object.metadata!;
  if (oldMeta.deletionTimestamp) {
    const before = new Set(oldMeta.finalizers ?? []);
    if ((m.finalizers ?? []).some((f) => !before.has(f))) {
      rejectInvalid(info, name, [{
        type: "FieldValueForbidden",
        field: "metadata.finalizers",
        detail: "Forbidden: no new finalizers can be added if the object is being deleted",
      }]);
    }
  }
  if (
    opts.subresource !== "status" && m.generation !== undefined &&
    !deepEqual(
      withoutMeta(old, info.hasStatus || !info.isCustom),
      withoutMeta(object, info.hasStatus || !info.isCustom),
    )
  ) m.generation = (m.generation ?? 0) + 1;
  if (!opts.storageUpdate) stampManagedFields(ctx, info, old, object, opts, opts.subresource);
  const key = storeKey(info, namespace, name);
  const sub = opts.subresource ? { subresource: opts.subresource } : {};
  return {
    type: "update",
    info,
    namespace,
    key,
    object,
    old: stored,
    oldView: old,
    warnings,
    ...sub,
  };
}
