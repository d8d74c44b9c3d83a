/**
 * The applier: executes a reconcile plan against the API server. Deletes go first; every op
 * is attempted even when another fails (Metacontroller's rule); creates and applies get the
 * controller owner reference; "already done" answers (404 on delete, 409 AlreadyExists on
 * create, a uid precondition failure on delete) count as done; a create by apply is a
 * server-side apply without `force`, whose 409 conflict counts as done like AlreadyExists.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { ownerReference } from "../reconcile/owner_reference.ts";
import type { Client } from "../client/client_types.ts";
import type { ApiError } from "../client/api_error.ts";
import { isAlreadyExists, isConflict, isNotFound } from "../client/is_api_error.ts";
import type { Op } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";
import type { EventRecorder } from "./event_recorder.ts";
import { opEvent } from "./_op_event.ts";

/** What happened to one op: written, already so (nothing to do), or failed. */
export type OpOutcome =
  | { readonly type: "done"; readonly op: Op; readonly object?: KubeObject }
  | { readonly type: "already"; readonly op: Op }
  | { readonly type: "failed"; readonly op: Op; readonly error: ApiError };

/** The outcome of a whole plan. */
export interface PlanOutcome {
  /** One outcome per op, in the order the ops ran (deletes, writes, status). */
  readonly outcomes: readonly OpOutcome[];
  /** Whether any op failed. */
  readonly failed: boolean;
  /** Whether a failure was an optimistic-concurrency conflict (requeue soon, no backoff). */
  readonly conflict: boolean;
}

/** Options of {@link applyPlan}. */
export interface ApplyPlanOptions {
  /** The client every write goes through. */
  readonly client: Client;
  /** Field manager of every write: `kubefold-<controller>`. */
  readonly fieldManager: string;
  /**
   * The primary object: children created or applied get its controller owner reference
   * (cluster-scoped children of a namespaced primary get none), and events are about it.
   */
  readonly owner?: KubeObject;
  /**
   * Records `event` ops, and an event on `owner` for each create and delete: `SuccessfulCreate`,
   * `SuccessfulDelete`, `FailedCreate`, `FailedDelete`, and `ApplyFailed` for other failed
   * writes (as kube-controller-manager's controllers do). Without it, event ops are skipped.
   */
  readonly events?: EventRecorder;
  /** Aborts the writes in flight. */
  readonly signal?: AbortSignal;
}

function withOwner(obj: KubeObject, owner: KubeObject | undefined): KubeObject {
  if (!owner?.metadata?.uid) return obj;
  // A cluster-scoped object may not have a namespaced owner (Kubernetes treats such a
  // reference as unresolvable): a PersistentVolume provisioned for a claim gets none.
  if (owner.metadata.namespace && !obj.metadata?.namespace) return obj;
  const refs = obj.metadata?.ownerReferences ?? [];
  if (refs.some((r) => r.controller)) return obj;
  return {
    ...obj,
    metadata: { ...obj.metadata, ownerReferences: [...refs, ownerReference(owner)] },
  };
}

async function run(op: Op, o: ApplyPlanOptions): Promise<OpOutcome> {
  const { client, fieldManager, signal } = o;
  const write = { fieldManager, ...(signal ? { signal } : {}) };
  switch (op.type) {
    case "create": {
      const obj = op.owned === false
        ? op.object as KubeObject
        : withOwner(op.object as KubeObject, o.owner);
      // By apply without force: a 409 means someone else's object holds the name's fields.
      const r = op.apply
        ? await client.apply(obj, { ...write, force: false })
        : await client.create(obj, write);
      if (r._tag === "Right") return { type: "done", op, object: r.right };
      return isAlreadyExists(r.left) || (op.apply && isConflict(r.left))
        ? { type: "already", op }
        : { type: "failed", op, error: r.left };
    }
    case "apply": {
      const r = await client.apply(withOwner(op.object as KubeObject, o.owner), {
        ...write,
        force: true,
      });
      return r._tag === "Right"
        ? { type: "done", op, object: r.right }
        : { type: "failed", op, error: r.left };
    }
    case "patch": {
      const { ref } = op;
      const patch = op.patchType === "json"
        ? { type: "json" as const, operations: op.patch as never }
        : { type: op.patchType, body: op.patch };
      const r = await client.patch<KubeObject>(ref, ref.name, {
        ...write,
        namespace: ref.namespace,
        patch,
      });
      return r._tag === "Right"
        ? { type: "done", op, object: r.right }
        : { type: "failed", op, error: r.left };
    }
    case "delete": {
      const { ref } = op;
      const r = await client.delete(ref, ref.name, {
        namespace: ref.namespace,
        ...(ref.uid ? { preconditions: { uid: ref.uid } } : {}),
        ...(signal ? { signal } : {}),
      });
      if (r._tag === "Right") return { type: "done", op };
      // 404: already gone; 409 on a uid precondition: a new object took the name, ours is gone.
      return isNotFound(r.left) || (isConflict(r.left) && ref.uid)
        ? { type: "already", op }
        : { type: "failed", op, error: r.left };
    }
    case "status": {
      const { ref } = op;
      const r = await client.patch<KubeObject>(ref, ref.name, {
        ...write,
        namespace: ref.namespace,
        subresource: "status",
        patch: { type: "merge", body: { status: op.status } },
      });
      return r._tag === "Right"
        ? { type: "done", op, object: r.right }
        : { type: "failed", op, error: r.left };
    }
    case "event": {
      const about: KubeObject | undefined = op.regarding
        ? {
          apiVersion: op.regarding.apiVersion,
          kind: op.regarding.kind,
          metadata: {
            name: op.regarding.name,
            ...(op.regarding.namespace ? { namespace: op.regarding.namespace } : {}),
            ...(op.regarding.uid ? { uid: op.regarding.uid } : {}),
          },
        }
        : o.owner;
      if (!o.events || !about) return { type: "already", op };
      await o.events.record(about, op.event);
      return { type: "done", op };
    }
  }
}

/** The stage an op runs in: deletes, then writes, then status, then events. */
const rank = (op: Op) =>
  op.type === "delete" ? 0 : op.type === "status" ? 2 : op.type === "event" ? 3 : 1;

/**
 * Executes a plan: deletes first, then creates, applies and patches, then status writes, then
 * events; the ops of one stage run at once, and every op is attempted even when another fails.
 *
 * Like Metacontroller's `manageChildren` (deletes first, keep going on partial failure), with
 * client-go's "already done" rules: a 404 on delete, an AlreadyExists on create and a failed
 * uid precondition on delete count as done (`already`); so does a conflict of a create by
 * apply (`apply: true`, a server-side apply without `force`). Creates and applies get the owner's
 * controller reference; `apply` ops are server-side applies with `force` under
 * `fieldManager`, `status` ops merge patches of the `/status` subresource.
 *
 * @param plan the ops to run
 * @param options the client, field manager, owner, event recorder and abort signal
 * @returns one outcome per op, and whether any failed (and whether with a conflict)
 * @example
 * ```ts
 * import { applyPlan, connect } from "../../mod.ts";
 * import { startApiServer } from "../apiserver/mod.ts";
 * const server = await startApiServer();
 * const made = await connect({ kubeconfigYaml: server.kubeconfig });
 * if (made._tag === "Right") {
 *   const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "default", name: "a" } };
 *   const outcome = await applyPlan({ ops: [{ type: "create", object: cm }] }, {
 *     client: made.right,
 *     fieldManager: "kubefold-demo",
 *   });
 *   outcome.failed; // false
 *   made.right.close();
 * }
 * await server.close();
 * ```
 */
export async function applyPlan(plan: Plan, options: ApplyPlanOptions): Promise<PlanOutcome> {
  const ordered = [...plan.ops].sort((a, b) => rank(a) - rank(b));
  const outcomes: OpOutcome[] = [];
  for (const stage of [0, 1, 2, 3]) {
    const ops = ordered.filter((op) => rank(op) === stage);
    outcomes.push(...await Promise.all(ops.map((op) => run(op, options))));
  }
  const { events, owner } = options;
  if (events && owner) {
    for (const outcome of outcomes) {
      const event = opEvent(outcome);
      if (event) await events.record(owner, event);
    }
  }
  const failures = outcomes.filter((o): o is Extract<OpOutcome, { type: "failed" }> =>
    o.type === "failed"
  );
  return {
    outcomes,
    failed: failures.length > 0,
    conflict: failures.some((f) => isConflict(f.error)),
  };
}
