/**
 * Storing a prepared write: the optimistic-concurrency check, no-op detection, dry runs, the
 * stored form (a CRD's storage version) and the commit hooks.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { fail } from "./http_util.ts";
import { qualifiedResource, type ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext } from "./context.ts";
import { finishIfDone } from "./object_delete.ts";
import type { ManagedFieldsEntry } from "./apply/mod.ts";
import { putObject } from "./put_object.ts";
import { validateResourceQuota } from "./admission/resource_quota.ts";
import type { RequestDecode } from "./builtin_admission.ts";

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
  /** The subresource an update writes (`status`). */
  readonly subresource?: string;
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
    // ResourceQuota, kube's last validating admission plugin: here, after the validating
    // webhooks and with nothing awaited before the commit, two creates cannot both take the
    // last unit of a quota.
    validateResourceQuota(ctx, info, object, undefined, undefined);
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
  // ResourceQuota on the updates it checks (a claim's resize, a service's type), as on creates.
  validateResourceQuota(ctx, info, object, oldView, prepared.subresource);
  if (opts.dryRun) return { object: present(info, object), created: false, warnings };
  const done = finishIfDone(ctx, info, key, object);
  if (done) return { object: present(info, done), created: false, warnings };
  const c = putObject(ctx, info.storageKey, key, storedForm(info, object, opts.stored));
  ctx.hooks.get(info.storageKey)?.afterCommit?.("MODIFIED", c.stored, old);
  return committed(info, c, false, warnings);
}
