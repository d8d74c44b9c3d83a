/**
 * The generic create and update paths: metadata ownership, optimistic concurrency,
 * generation, status subresource rules, schema admission, validation, no-op detection.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { type FieldError, invalid } from "../core/status.ts";
import { formatTime } from "../core/time.ts";
import { ApiFailure, fail } from "./http_util.ts";
import { groupVersion, qualifiedResource, type ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext, storeKey } from "./context.ts";
import { validateMeta } from "./validate_meta.ts";
import { finishIfDone } from "./object_delete.ts";
import { conflict, getStored } from "./object_errors.ts";
import { stampManagedFields } from "./managed_fields_stamp.ts";
import type { ManagedFieldsEntry } from "./apply/mod.ts";
import { putObject } from "./put_object.ts";
import {
  builtinSchemaOf,
  decodeBuiltin,
  type RequestDecode,
  strictFieldErrors,
  validateBuiltin,
} from "./builtin_admission.ts";

export { conflict, getStored, notFound } from "./object_errors.ts";
export { applySchemaOf } from "./managed_fields_stamp.ts";

/** Options every write takes. */
export interface WriteOptions {
  readonly dryRun?: boolean;
  readonly fieldValidation?: "Strict" | "Warn" | "Ignore";
  readonly fieldManager?: string;
  /** The writer when no fieldManager is given (from the User-Agent). */
  readonly userAgentManager?: string;
  /** Managed fields computed by server-side apply (other writes record theirs). */
  readonly managedFields?: readonly ManagedFieldsEntry[];
  /**
   * Set for writes a client sent (absent for the server's own): how the object came, for
   * decoding and strict field validation (built-ins are then checked against their schema).
   */
  readonly request?: RequestDecode;
}

/** A write's outcome: the object as stored (or as it would be, for dry runs). */
export interface WriteResult {
  readonly object: KubeObject;
  readonly created: boolean;
  readonly warnings: readonly string[];
  /** The stored revision (absent for dry runs), in the storage version. */
  readonly stored?: KubeObject;
  /** `object` serialized, when the commit already did it. */
  readonly json?: string;
}

/**
 * A create or update checked and ready to store (see {@link commitWrite}): what admission
 * webhooks validate between the two.
 */
export interface PreparedWrite {
  readonly type: "create" | "update";
  readonly info: ResourceInfo;
  readonly namespace: string | undefined;
  readonly key: string;
  /** The object to store, in `info`'s version (built-ins with a stored form: that form). */
  readonly object: KubeObject;
  /** The stored revision an update is based on (the commit fails if it changed meanwhile). */
  readonly old?: KubeObject;
  /** `old` as `info`'s version. */
  readonly oldView?: KubeObject;
  readonly warnings: string[];
}

/** Options of {@link commitWrite}. */
export interface CommitOptions extends WriteOptions {
  /** The object in the storage version when a conversion webhook made it. */
  readonly stored?: KubeObject;
}

/** Thrown by {@link commitWrite} when the stored object changed since the write was prepared. */
export class WriteRaced extends Error {
  constructor() {
    super("the object changed while the write was being admitted");
  }
}

/**
 * The form an object is stored in: custom resources in the CRD's storage version (with
 * strategy None, a rewrite of `apiVersion`; with Webhook, as the caller converted it).
 */
function storedForm(info: ResourceInfo, object: KubeObject, stored?: KubeObject): KubeObject {
  if (stored) return stored;
  const conv = info.crdConversion;
  if (!conv || conv.strategy !== "None" || conv.storageVersion === info.version) return object;
  return { ...object, apiVersion: `${info.group}/${conv.storageVersion}` };
}

const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789";

function randomSuffix(): string {
  let s = "";
  for (let i = 0; i < 5; i++) s += nameAlphabet[Math.floor(Math.random() * nameAlphabet.length)];
  return s;
}

function checkTypeMeta(info: ResourceInfo, body: unknown): KubeObject {
  if (!isPlainObject(body)) fail("BadRequest", "the request body must be a JSON object");
  const obj = body as KubeObject;
  const gv = groupVersion(info);
  if (obj.apiVersion !== undefined && obj.apiVersion !== gv) {
    const other = typeof obj.apiVersion === "string"
      ? obj.apiVersion
      : JSON.stringify(obj.apiVersion);
    fail(
      "BadRequest",
      `the API version in the data (${other}) does not match the expected API version (${gv})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== info.kind) {
    fail(
      "BadRequest",
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${info.kind})`,
    );
  }
  if (obj.metadata !== undefined && !isPlainObject(obj.metadata)) {
    fail("BadRequest", "metadata must be an object");
  }
  const typed = { ...obj, apiVersion: gv, kind: info.kind, metadata: { ...(obj.metadata ?? {}) } };
  return info.convert ? info.convert.toStored(typed) : typed;
}

function rejectInvalid(info: ResourceInfo, name: string, errors: FieldError[]): void {
  if (errors.length) throw new ApiFailure(invalid(info.kind, info.group, name, errors));
}

function admit(
  ctx: ServerContext,
  info: ResourceInfo,
  obj: KubeObject,
  old: KubeObject | undefined,
  opts: WriteOptions,
): { object: KubeObject; warnings: string[] } {
  const mode = opts.fieldValidation ?? "Warn";
  const request = opts.request;
  let object = obj;
  let warnings: string[] = [];
  const builtin = request ? builtinSchemaOf(info) : undefined;
  if (builtin && request) ({ object, warnings } = decodeBuiltin(info, builtin, obj, mode, request));
  ctx.hooks.get(info.storageKey)?.defaults?.(object);
  const errors: FieldError[] = [];
  if (info.schema) {
    const r = info.schema.admit(object, mode, old);
    const req = request ?? { style: "body" as const, duplicates: [] };
    if (!r.ok && r.reason === "BadRequest") {
      strictFieldErrors(info, "Strict", req, r.errors.map((e) => e.field));
    }
    if (!r.ok) errors.push(...r.errors);
    else {
      object = r.object;
      warnings = [...strictFieldErrors(info, mode, req, []), ...r.warnings];
    }
  }
  if (builtin) errors.push(...validateBuiltin(builtin, object));
  errors.push(...validateMeta(object, info));
  errors.push(...(ctx.hooks.get(info.storageKey)?.validate?.(object, old) ?? []));
  rejectInvalid(info, object.metadata?.name ?? "", errors);
  return { object, warnings };
}

/** The result of a commit: the object as `info`'s version, with its JSON when it is the same. */
function committed(
  info: ResourceInfo,
  c: { stored: KubeObject; json?: string },
  created: boolean,
  warnings: readonly string[],
): WriteResult {
  const object = present(info, c.stored);
  const json = object === c.stored && c.json ? { json: c.json } : {};
  return { object, created, warnings, stored: c.stored, ...json };
}

function checkNamespace(ctx: ServerContext, namespace: string): void {
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

/** Checks a create (POST) without storing it: metadata, defaults, schema, validation. */
export function prepareCreate(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  body: unknown,
  opts: WriteOptions = {},
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
  if (!meta.name && typeof meta.generateName === "string" && meta.generateName) {
    meta.name = meta.generateName.slice(0, 58) + randomSuffix();
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
  ctx.hooks.get(info.storageKey)?.prepareCreate?.(obj, ctx);
  const { object, warnings } = admit(ctx, info, obj, undefined, opts);
  stampManagedFields(ctx, info, undefined, object, opts);
  const key = storeKey(info, object.metadata!.namespace, object.metadata!.name!);
  return { type: "create", info, namespace, key, object, warnings };
}

/**
 * Stores a prepared write: a create fails when the name is taken, an update when the object
 * changed since it was prepared ({@link WriteRaced}); unchanged updates and dry runs store
 * nothing.
 */
export function commitWrite(
  ctx: ServerContext,
  prepared: PreparedWrite,
  opts: CommitOptions = {},
): WriteResult {
  const { info, key, object, warnings } = prepared;
  const current = ctx.storage.get(info.storageKey, key)?.object;
  if (prepared.type === "create") {
    if (current) {
      const name = object.metadata!.name!;
      fail("AlreadyExists", `${qualifiedResource(info)} "${name}" already exists`, {
        name,
        ...(info.group ? { group: info.group } : {}),
        kind: info.plural,
      });
    }
    if (opts.dryRun) return { object, created: true, warnings };
    const c = putObject(ctx, info.storageKey, key, storedForm(info, object, opts.stored));
    ctx.hooks.get(info.storageKey)?.afterCommit?.("ADDED", c.stored, undefined);
    return committed(info, c, true, warnings);
  }
  const old = prepared.old!;
  if (current !== old) throw new WriteRaced();
  const oldView = prepared.oldView ?? old;
  if (deepEqual(oldView, object)) {
    return { object: present(info, old), created: false, warnings, stored: old };
  }
  if (opts.dryRun) return { object: present(info, object), created: false, warnings };
  const done = finishIfDone(ctx, info, key, object);
  if (done) return { object: present(info, done), created: false, warnings };
  const c = putObject(ctx, info.storageKey, key, storedForm(info, object, opts.stored));
  ctx.hooks.get(info.storageKey)?.afterCommit?.("MODIFIED", c.stored, old);
  return committed(info, c, false, warnings);
}

const withoutMeta = (o: KubeObject, dropStatus: boolean) => {
  const { metadata: _m, status, ...rest } = o;
  return dropStatus ? rest : { ...rest, status };
};

/** Update options: which subresource is written and whether PUT semantics apply. */
export interface UpdateOptions extends WriteOptions {
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
    if (hooks?.prepareUpdate) {
      hooks.defaults?.(next);
      hooks.prepareUpdate(next, old, ctx);
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
  return { type: "update", info, namespace, key, object, old: stored, oldView: old, warnings };
}
