/**
 * Runs the mutating webhooks of a request as kube-apiserver does: one after another, each
 * seeing the previous one's patch (defaulted again); when one changed the object, the chain
 * runs a second time ({@link afterWebhook}): the in-tree mutating plugins again, then the
 * `reinvocationPolicy: IfNeeded` webhooks called before a later change.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import { ApiFailure } from "../http_util.ts";
import type { ServerContext } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import { applyJsonPatch } from "../patch/mod.ts";
import type { AdmissionAttributes } from "./admission_attributes.ts";
import { webhooksOf } from "./compiled_webhooks.ts";
import { matchWebhook } from "./match_webhook.ts";
import { decodePatched } from "./patched_object.ts";
import {
  type AdmissionRuntime,
  asVersion,
  call,
  callFailure,
  exempt,
  internal,
  prepare,
} from "./dispatch_webhooks.ts";
import { afterBuiltins, afterWebhook, noReinvocation, type Reinvocation } from "./reinvocation.ts";

/** The result of the mutating phase: the object as the webhooks left it, and warnings. */
export interface Mutated {
  readonly object?: KubeObject;
  readonly warnings: readonly string[];
}

/** A pass over the webhooks: the object after it and the reinvocation state. */
async function pass(
  ctx: ServerContext,
  rt: AdmissionRuntime,
  a: AdmissionAttributes,
  defaults: (info: ResourceInfo) => (o: KubeObject) => KubeObject,
  warnings: string[],
  start: { object: KubeObject | undefined; state: Reinvocation; second: boolean },
): Promise<{ object: KubeObject | undefined; state: Reinvocation }> {
  let { object, state } = start;
  for (const w of webhooksOf(ctx, "mutating")) {
    const inv = matchWebhook(ctx, w, { ...a, object });
    if (!inv) continue;
    const prepared = await prepare(rt, a, inv, object);
    if (prepared.type === "skip") continue;
    // In the second pass only the webhooks due for it are called (never one for the first time).
    if (start.second && !state.reinvoke.has(w.uid)) continue;
    const r = await call(rt, a, inv, prepared);
    if (r.type !== "callFailed") warnings.push(...r.warnings);
    if (r.type === "callFailed") {
      if (w.failurePolicy === "Ignore") continue;
      throw callFailure(w, r.reason);
    }
    if (r.type === "rejected") throw new ApiFailure(r.status);
    let changed = false;
    if (r.patch !== undefined && Array.isArray(r.patch) && r.patch.length) {
      if (!prepared.object) {
        throw internal(
          `admission webhook ${
            JSON.stringify(w.name)
          } attempted to modify the object, which is not supported for this operation`,
        );
      }
      const patched = applyJsonPatch(prepared.object, r.patch);
      if (patched._tag === "Left") throw internal(patched.left.message);
      // A patch may have made it something else than a Kubernetes object: kube's decode error.
      const decoded = decodePatched(patched.right, inv.info, prepared.object);
      if (decoded._tag === "Left") throw internal(decoded.left);
      const next = defaults(inv.info)(decoded.right);
      changed = !deepEqual(prepared.object, next);
      object = inv.info === a.info ? next : await asVersion(rt, inv.info, a.info, next);
    }
    state = afterWebhook(state, w.uid, w.reinvocationPolicy === "IfNeeded", changed);
  }
  return { object, state };
}

/**
 * Runs the mutating webhooks; throws the `ApiFailure` of a denial or a failed call (with
 * failure policy Fail). `defaults` fills a version's defaults after each patch; webhooks'
 * warnings are added to `warnings` (also when a later one denies). When a webhook changed the
 * object, `builtins` (the in-tree mutating plugins, mutating a copy in place; they may throw
 * their 403) runs on it before the second pass.
 *
 * @example
 * ```ts ignore
 * const { object } = await admitMutating(ctx, rt, attributes, defaults, warnings, (o) => o);
 * ```
 */
export async function admitMutating(
  ctx: ServerContext,
  rt: AdmissionRuntime,
  a: AdmissionAttributes,
  defaults: (info: ResourceInfo) => (o: KubeObject) => KubeObject,
  warnings: string[],
  builtins?: (o: KubeObject) => void,
): Promise<Mutated> {
  if (exempt(a.info) || !webhooksOf(ctx, "mutating").length) return { object: a.object, warnings };
  const first = await pass(ctx, rt, a, defaults, warnings, {
    object: a.object,
    state: noReinvocation,
    second: false,
  });
  if (!first.state.shouldReinvoke) return { object: first.object, warnings };
  let object = first.object;
  if (builtins && object) {
    const again = structuredClone(object);
    builtins(again);
    if (!deepEqual(again, object)) object = again;
  }
  const state = afterBuiltins(first.state, object !== first.object);
  const second = await pass(ctx, rt, a, defaults, warnings, { object, state, second: true });
  return { object: second.object, warnings };
}
