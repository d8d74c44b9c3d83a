/**
 * `withFinalizer()`: a reconciler combinator that keeps a finalizer on the primary while it
 * lives and runs cleanup before letting it go.
 *
 * @module
 */
import { E } from "../deps.ts";
import type { JsonPatchOperation } from "../client/client_types.ts";
import type { JsonObject } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import { type Op, refOf } from "./op.ts";
import { isEmptyPlan, type Plan } from "./plan.ts";
import { terminal } from "./reconcile_error.ts";
import type { ReconcileContext, Reconciler } from "./reconciler.ts";

/** The metadata {@link withFinalizer} reads from a primary. */
export interface FinalizerTarget {
  /** `group/version` of the object. */
  readonly apiVersion?: string;
  /** Its kind. */
  readonly kind?: string;
  /** Its name, namespace, finalizers and deletion timestamp. */
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
    readonly deletionTimestamp?: string;
    readonly finalizers?: readonly string[];
  };
}

/** The two reconcilers {@link withFinalizer} chooses between. */
export interface FinalizerReconcilers<P, W, C extends ReconcileContext = ReconcileContext> {
  /** Runs while the primary lives (and carries the finalizer). */
  readonly apply: Reconciler<P, W, C>;
  /**
   * Runs while the primary is being deleted (and still carries the finalizer). It must be
   * idempotent and return an empty plan (no op, no requeue) once nothing is left to clean up:
   * that empty plan is what lets the finalizer go.
   */
  readonly cleanup: Reconciler<P, W, C>;
}

/** Options of {@link withFinalizer}. */
export interface WithFinalizerOptions {
  /**
   * Requeue delay added to a non-empty cleanup plan that sets none, so cleanup is retried even
   * when its writes trigger no event on the primary; default 5,000 ms.
   */
  readonly cleanupRequeueAfterMs?: number;
}

/** A `patch` op (JSON patch) on the primary. */
function jsonPatch(p: DeepReadonly<FinalizerTarget>, ops: JsonObject[]): Op {
  return { type: "patch", ref: refOf(p), patchType: "json", patch: ops };
}

/** A JSON patch operation, checked as one and kept as JSON (its literal type is both). */
const patchOp = <O extends JsonObject & JsonPatchOperation>(o: O): O => o;

/** The patch adding `name`, guarded by the resourceVersion the plan was computed from. */
function addFinalizer(p: DeepReadonly<FinalizerTarget>, name: string): Op {
  const rv = p.metadata?.resourceVersion;
  const current = p.metadata?.finalizers ?? [];
  const guard = rv ? [patchOp({ op: "test", path: "/metadata/resourceVersion", value: rv })] : [];
  const add = current.length > 0
    ? patchOp({ op: "add", path: "/metadata/finalizers/-", value: name })
    : patchOp({ op: "add", path: "/metadata/finalizers", value: [name] });
  return jsonPatch(p, [...guard, add]);
}

/** The patch removing the finalizer at `index`, guarded by a `test` of that very entry. */
function removeFinalizer(p: DeepReadonly<FinalizerTarget>, name: string, index: number): Op {
  const path = `/metadata/finalizers/${index}`;
  return jsonPatch(p, [
    patchOp({ op: "test", path, value: name }),
    patchOp({ op: "remove", path }),
  ]);
}

/**
 * Wraps an `apply` and a `cleanup` reconciler so the primary carries finalizer `name` while it
 * lives and loses it only once cleanup has nothing left to do.
 *
 * Like kube-rs `finalizer()`, but pure: instead of patching, it returns the patch as a plan
 * op, and "cleanup finished" is level-based (cleanup's plan is empty) rather than a callback
 * result. By state of the primary:
 *
 * | deleting | has `name` | result |
 * | --- | --- | --- |
 * | no  | no  | only a JSON patch adding `name` (the change it causes triggers the next reconcile, which runs `apply`) |
 * | no  | yes | `apply`'s result |
 * | yes | yes | `cleanup`'s result while non-empty; once empty, a JSON patch removing `name` |
 * | yes | no  | an empty plan (nothing of ours holds the object) |
 *
 * Guarantees: the add patch tests `/metadata/resourceVersion`, so a plan computed from a stale
 * object (e.g. one deleted meanwhile, or already given the finalizer) is rejected by the
 * server (422) instead of adding the finalizer twice or to a deleting object; the remove
 * patch tests the entry at the index it removes, so it never removes another controller's
 * finalizer. Assumptions: `cleanup` converges to an empty plan; the primary carries
 * `apiVersion`, `kind` and `metadata.name` (else a terminal error). Caveats: the
 * finalizer change bumps no `generation`, so a controller filtering primary events with
 * `generationChanged` alone will not see it; a primary read without `resourceVersion` gets an
 * unguarded add.
 *
 * @param name the finalizer, a qualified name such as `example.com/cleanup`
 * @param reconcilers `apply` (object alive) and `cleanup` (object being deleted)
 * @param options see {@link WithFinalizerOptions}
 * @returns a reconciler over the same primary, world and context
 *
 * @example
 * ```ts
 * import { E, withFinalizer } from "../../mod.ts";
 * const reconcile = withFinalizer("example.com/cleanup", {
 *   apply: () => E.right({ ops: [] }),
 *   cleanup: () => E.right({ ops: [] }),
 * });
 * const plan = reconcile(
 *   { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", resourceVersion: "7" } },
 *   {},
 *   { now: 0 },
 * );
 * // right({ ops: [{ type: "patch", patchType: "json", patch: [test rv "7", add finalizer], ... }] })
 * ```
 */
export function withFinalizer<
  P extends FinalizerTarget,
  W,
  C extends ReconcileContext = ReconcileContext,
>(
  name: string,
  reconcilers: FinalizerReconcilers<P, W, C>,
  options: WithFinalizerOptions = {},
): Reconciler<P, W, C> {
  if (name === "") throw new Error("Cannot build withFinalizer(): the finalizer name is empty");
  const cleanupRequeueAfterMs = options.cleanupRequeueAfterMs ?? 5_000;
  return (primary, world, ctx) => {
    const p = primary as DeepReadonly<FinalizerTarget>;
    const ref = refOf(p);
    if (!ref.apiVersion || !ref.kind || !ref.name) {
      const what = `${ref.kind || "<kind>"} "${
        ref.namespace ? `${ref.namespace}/` : ""
      }${ref.name}"`;
      return E.left(
        terminal(
          `Cannot manage finalizer ${name} of ${what}: apiVersion, kind or metadata.name missing`,
        ),
      );
    }
    const index = (p.metadata?.finalizers ?? []).indexOf(name);
    const deleting = !!p.metadata?.deletionTimestamp;
    if (!deleting) {
      return index < 0
        ? E.right({ ops: [addFinalizer(p, name)] })
        : reconcilers.apply(primary, world, ctx);
    }
    if (index < 0) return E.right({ ops: [] });
    const cleaned = reconcilers.cleanup(primary, world, ctx);
    if (E.isLeft(cleaned)) return cleaned;
    const plan: Plan = cleaned.right;
    if (isEmptyPlan(plan)) return E.right({ ops: [removeFinalizer(p, name, index)] });
    return E.right(
      plan.requeueAfterMs === undefined ? { ...plan, requeueAfterMs: cleanupRequeueAfterMs } : plan,
    );
  };
}
