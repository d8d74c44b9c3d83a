/**
 * Calls the admission webhooks of a request as kube-apiserver does: one webhook's call
 * (objects converted to its version, match conditions, dry run, timeouts, failure policy), and
 * the validating ones all at once. The mutating ones, one after another with reinvocation, are
 * in `mutating_dispatch.ts`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { failure, type Status } from "../../core/status.ts";
import { ApiFailure } from "../http_util.ts";
import type { ServerContext } from "../context.ts";
import { present } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import type { AdmissionAttributes } from "./admission_attributes.ts";
import { type CompiledWebhook, webhooksOf } from "./compiled_webhooks.ts";
import { type Invocation, matchWebhook } from "./match_webhook.ts";
import {
  admissionRequest,
  denialStatus,
  verifyAdmissionResponse,
} from "./admission_review_wire.ts";
import type { WebhookCaller } from "./call_webhook.ts";
import type { ObjectConverter } from "../conversion/object_converter.ts";

/** What the dispatcher needs of the server. */
export interface AdmissionRuntime {
  readonly caller: WebhookCaller;
  readonly converter: ObjectConverter;
}

/** An InternalError Status as an `ApiFailure`. */
export const internal = (message: string): ApiFailure =>
  new ApiFailure(failure("InternalError", `Internal error occurred: ${message}`));

/** Whether `info` is a webhook configuration (never sent to webhooks). */
export const exempt = (info: ResourceInfo) =>
  info.group === "admissionregistration.k8s.io" &&
  /^(validating|mutating)webhookconfigurations$/.test(info.plural);

/** An object of `from`'s version as `to`'s version (built-ins through their stored form). */
export async function asVersion(
  rt: AdmissionRuntime,
  from: ResourceInfo,
  to: ResourceInfo,
  obj: KubeObject | undefined,
): Promise<KubeObject | undefined> {
  if (!obj || from === to) return obj;
  if (to.isCustom) return (await rt.converter.toVersion(to, [obj]))[0];
  const stored = from.convert ? from.convert.toStored(obj) : obj;
  return present(to, stored);
}

/** Whether an invocation is skipped (match conditions) or called, with its objects. */
export type Outcome =
  | { type: "skip" }
  | { type: "call"; object?: KubeObject; oldObject?: KubeObject };

/** Converts the objects for an invocation and evaluates its match conditions. */
export async function prepare(
  rt: AdmissionRuntime,
  a: AdmissionAttributes,
  inv: Invocation,
  object: KubeObject | undefined,
): Promise<Outcome> {
  const sameKind = a.kind.kind === a.info.kind && a.kind.group === a.info.group;
  const convert = (o: KubeObject | undefined) =>
    sameKind ? asVersion(rt, a.info, inv.info, o) : Promise.resolve(o);
  const [obj, old] = await Promise.all([convert(object), convert(a.oldObject)]);
  const w = inv.webhook;
  if (w.matchConditions.length) {
    const request = admissionRequest(a, inv, {});
    const errors: string[] = [];
    for (const c of w.matchConditions) {
      const r = c.program({ object: obj ?? null, oldObject: old ?? null, request });
      if (r._tag === "Right" && r.right === false) return { type: "skip" };
      if (r._tag === "Left") errors.push(r.left);
    }
    if (errors.length) {
      if (w.failurePolicy === "Ignore") return { type: "skip" };
      const gr = a.info.group ? `${a.info.plural}.${a.info.group}` : a.info.plural;
      const text = errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`;
      throw new ApiFailure(
        failure("Forbidden", `${gr} ${JSON.stringify(a.name)} is forbidden: ${text}`, {
          name: a.name,
          ...(a.info.group ? { group: a.info.group } : {}),
          kind: a.info.plural,
        }),
      );
    }
  }
  return { type: "call", object: obj, oldObject: old };
}

/** How a call ended. */
export type CallResult =
  | { type: "ok"; patch?: unknown; warnings: readonly string[] }
  | { type: "callFailed"; reason: string }
  | { type: "rejected"; status: Status; warnings: readonly string[] };

/** Calls one webhook (an AdmissionReview POST) and checks its answer. */
export async function call(
  rt: AdmissionRuntime,
  a: AdmissionAttributes,
  inv: Invocation,
  objects: { object?: KubeObject; oldObject?: KubeObject },
): Promise<CallResult> {
  const w = inv.webhook;
  if (a.dryRun) {
    if (!w.sideEffects) return { type: "callFailed", reason: "Webhook SideEffects is nil" };
    if (w.sideEffects !== "None" && w.sideEffects !== "NoneOnDryRun") {
      throw new ApiFailure(
        failure(
          "BadRequest",
          `admission webhook ${JSON.stringify(w.name)} does not support dry run`,
        ),
      );
    }
  }
  if (!w.admissionReviewVersions.includes("v1")) {
    return {
      type: "callFailed",
      reason: "webhook does not accept known AdmissionReview versions (v1)",
    };
  }
  const uid = crypto.randomUUID();
  const review = {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: admissionRequest(a, inv, objects, uid),
  };
  const posted = await rt.caller.post(w.clientConfig, review, {
    timeoutMs: w.timeoutSeconds * 1000,
  });
  if (posted._tag === "Left") {
    return { type: "callFailed", reason: `failed to call webhook: ${posted.left}` };
  }
  const verified = verifyAdmissionResponse(uid, w.type === "mutating", posted.right);
  if (verified._tag === "Left") {
    return { type: "callFailed", reason: `received invalid webhook response: ${verified.left}` };
  }
  const v = verified.right;
  if (!v.allowed) {
    return { type: "rejected", status: denialStatus(w.name, v.result), warnings: v.warnings };
  }
  return { type: "ok", ...(v.patch !== undefined ? { patch: v.patch } : {}), warnings: v.warnings };
}

/** The error of a failed call with failure policy Fail. */
export const callFailure = (w: CompiledWebhook, reason: string) =>
  internal(`failed calling webhook ${JSON.stringify(w.name)}: ${reason}`);

/**
 * Runs the validating webhooks in parallel; throws the first (in webhook order) denial or
 * failed call; their warnings are added to `warnings`.
 *
 * @example
 * ```ts ignore
 * await admitValidating(ctx, rt, attributes, warnings);
 * ```
 */
export async function admitValidating(
  ctx: ServerContext,
  rt: AdmissionRuntime,
  a: AdmissionAttributes,
  warnings: string[],
): Promise<void> {
  const hooks = exempt(a.info) ? [] : webhooksOf(ctx, "validating");
  const invocations = hooks.map((w) => matchWebhook(ctx, w, a)).filter((i) => i !== undefined);
  if (!invocations.length) return;
  const results = await Promise.all(invocations.map(async (inv) => {
    const prepared = await prepare(rt, a, inv, a.object);
    if (prepared.type === "skip") return undefined;
    return { inv, r: await call(rt, a, inv, prepared) };
  }));
  let error: ApiFailure | undefined;
  for (const x of results) {
    if (!x) continue;
    const { inv, r } = x;
    if (r.type !== "callFailed") warnings.push(...r.warnings);
    if (error) continue;
    if (r.type === "rejected") error = new ApiFailure(r.status);
    else if (r.type === "callFailed" && inv.webhook.failurePolicy !== "Ignore") {
      error = callFailure(inv.webhook, r.reason);
    }
  }
  if (error) throw error;
}
