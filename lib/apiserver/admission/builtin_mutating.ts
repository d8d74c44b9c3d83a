/**
 * A kind's built-in mutating admission (`KindHooks.admitCreate` / `admitUpdate`) on the
 * webhook path. kube-apiserver runs its in-tree mutating plugins (LimitRanger, ServiceAccount,
 * Priority, DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, ...)
 * before MutatingAdmissionWebhook, so a webhook sees the LimitRange defaults, the token volume,
 * the priority, the default tolerations, a claim's default class and the protection finalizers. When a
 * webhook changed the object they run once more before the reinvoked webhooks (kube's
 * reinvocation, `mutating_dispatch.ts`); the create or update preparation afterwards is told
 * not to run them again.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import { type AdmissionDone, checkNamespace } from "../object_write.ts";

const hooksOf = (ctx: ServerContext, info: ResourceInfo) =>
  // A version stored as another kind's (events.k8s.io) is admitted in the stored form later.
  info.convert ? undefined : ctx.hooks.get(info.storageKey);

/**
 * Runs the built-in mutating admission of a create on `obj` (the defaulted request object,
 * mutated in place) and says so for `prepareCreate`. The namespace is checked first, as
 * kube's NamespaceLifecycle plugin does (a 404 rather than a ServiceAccount 403); a body
 * naming another namespace than the URL is left to `prepareCreate`'s 400.
 *
 * @example
 * ```ts ignore
 * const done = admitBuiltinCreate(ctx, info, "default", pod); // pod has its tolerations
 * prepareCreate(ctx, info, "default", mutatedPod, { ...opts, ...done });
 * ```
 */
export function admitBuiltinCreate(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  obj: KubeObject,
): AdmissionDone {
  const admit = hooksOf(ctx, info)?.admitCreate;
  if (!admit || !isPlainObject(obj.metadata)) return {};
  const ns = obj.metadata.namespace;
  if (info.namespaced) {
    if (typeof ns !== "string" || !ns || (namespace && ns !== namespace)) return {};
    checkNamespace(ctx, ns);
  }
  admit(obj, ctx);
  return { builtinAdmitted: true };
}

/**
 * Runs the built-in mutating admission of an update of the main resource on `obj` (the
 * defaulted candidate, mutated in place) against the current object `old`.
 *
 * @example
 * ```ts ignore
 * const done = admitBuiltinUpdate(ctx, info, pod, current); // keeps the old priority
 * ```
 */
export function admitBuiltinUpdate(
  ctx: ServerContext,
  info: ResourceInfo,
  obj: KubeObject,
  old: KubeObject,
): AdmissionDone {
  const admit = hooksOf(ctx, info)?.admitUpdate;
  if (!admit) return {};
  admit(obj, old, ctx);
  return { builtinAdmitted: true };
}
