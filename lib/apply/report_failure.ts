/**
 * What a controller does when the server rejects a plan for good (422 Invalid and other
 * permanent 4xx answers): a Warning event and a `ReconcileFailed` status condition on the
 * primary, instead of retrying in a hot loop. A later fully applied plan clears the condition.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import type { Client } from "../client/client_types.ts";
import type { ApiError } from "../client/api_error.ts";
import { type Condition, setCondition } from "../reconcile/set_condition.ts";
import { deepEqual } from "../core/deep_equal.ts";
import type { OpOutcome } from "./apply_plan.ts";
import type { EventRecorder } from "./event_recorder.ts";
import { failureEvent } from "./_failure_event.ts";

/** The condition type the controller runtime owns on primaries. */
export const reconcileFailedCondition = "ReconcileFailed";

/**
 * Whether an API error is permanent for the same request: retrying without a change cannot
 * succeed (400, 403, 404 on a write, 405, 413, 415, 422).
 *
 * @example
 * ```ts
 * import { isPermanent } from "./report_failure.ts";
 * isPermanent({ type: "status", code: 422 } as never); // true
 * ```
 */
export function isPermanent(error: ApiError): boolean {
  if (error.type !== "status") return false;
  return [400, 403, 404, 405, 413, 415, 422].includes(error.code);
}

function conditionsOf(obj: KubeObject): Condition[] {
  const status = obj.status;
  return isPlainObject(status) && Array.isArray(status.conditions)
    ? status.conditions as Condition[]
    : [];
}

/**
 * The primary's conditions with `ReconcileFailed` set (or cleared), or undefined when they
 * would not change.
 *
 * @example
 * ```ts
 * import { failureConditions } from "./report_failure.ts";
 * failureConditions({ metadata: { generation: 1 } }, "bad", 0)?.[0].type; // "ReconcileFailed"
 * ```
 */
export function failureConditions(
  primary: KubeObject,
  message: string | undefined,
  now: number,
): Condition[] | undefined {
  const current = conditionsOf(primary);
  const had = current.find((c) => c.type === reconcileFailedCondition);
  if (message === undefined && had?.status !== "True") return undefined;
  const gen = primary.metadata?.generation;
  const next = setCondition(current, {
    type: reconcileFailedCondition,
    status: message === undefined ? "False" : "True",
    reason: message === undefined ? "Applied" : "ApplyRejected",
    message: message === undefined ? "" : message.slice(0, 1024),
    ...(gen !== undefined ? { observedGeneration: gen } : {}),
  }, now);
  return deepEqual(next, current) ? undefined : next;
}

/** Records events for rejected ops and updates the primary's `ReconcileFailed` condition. */
export async function reportFailure(
  client: Client,
  primary: KubeObject,
  failed: readonly Extract<OpOutcome, { type: "failed" }>[],
  options: { readonly events?: EventRecorder; readonly fieldManager: string; readonly now: number },
): Promise<void> {
  for (const f of failed) await options.events?.record(primary, failureEvent(f));
  const message = failed.map((f) => f.error.message).join("; ");
  await writeCondition(client, primary, message || undefined, options);
}

/** Clears `ReconcileFailed` after a plan applied fully (no write when it is not set). */
export async function clearFailure(
  client: Client,
  primary: KubeObject,
  options: { readonly fieldManager: string; readonly now: number },
): Promise<void> {
  await writeCondition(client, primary, undefined, options);
}

async function writeCondition(
  client: Client,
  primary: KubeObject,
  message: string | undefined,
  options: { readonly fieldManager: string; readonly now: number },
): Promise<void> {
  const conditions = failureConditions(primary, message, options.now);
  if (!conditions) return;
  const m = primary.metadata ?? {};
  // Best effort: a primary without a status subresource or conditions field just ignores it.
  await client.patch(
    { apiVersion: primary.apiVersion ?? "", kind: primary.kind ?? "" },
    m.name ?? "",
    {
      namespace: m.namespace,
      subresource: "status",
      fieldManager: options.fieldManager,
      patch: { type: "merge", body: { status: { conditions } } },
    },
  );
}
