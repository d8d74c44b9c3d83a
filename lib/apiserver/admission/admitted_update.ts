/**
 * An update through the webhooks (PUT, PATCH, apply, status and scale), kube-apiserver's
 * order: the candidate made from the current revision goes through the built-in mutating
 * plugins and the mutating webhooks, the server's checks, the validating webhooks, then into
 * storage; an update that raced with another write is tried again from the new revision.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import type { ServerContext } from "../context.ts";
import { present, storeKey } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import {
  commitWrite,
  conflict,
  getStored,
  prepareUpdate,
  updateObject,
  type UpdateOptions,
  WriteRaced,
  type WriteResult,
} from "../object_write.ts";
import { scaleOf, withScale } from "../scale.ts";
import type { ManagedFieldsEntry } from "../apply/mod.ts";
import { admitValidating } from "./dispatch_webhooks.ts";
import { admitMutating } from "./mutating_dispatch.ts";
import { admitBuiltinUpdate } from "./builtin_mutating.ts";
import {
  attributes,
  defaulter,
  respondAs,
  storageInfo,
  webhookCr,
  webhooksConcern,
  withWarnings,
} from "./webhook_write_path.ts";

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
        oldObject: scaled ? scaleOf(info, view) : view,
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
        object: scaled ? scaleOf(info, prepared.object) : prepared.object,
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
