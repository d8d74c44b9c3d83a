/**
 * `Reconciler`: the pure function at the heart of every controller.
 *
 * @module
 */
import type { Either } from "../deps.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { Plan } from "./plan.ts";
import type { ReconcileError } from "./reconcile_error.ts";

/** What every reconciler gets besides the primary and the world. */
export interface ReconcileContext {
  /** The current time, epoch milliseconds (the only clock a reconciler may read). */
  readonly now: number;
  /**
   * The field manager the applier writes this controller's plans under
   * (`kubefold-<controller>`, see `fieldManagerOf`), for reading its own
   * `metadata.managedFields` entries (`planChildren`'s `fieldManager`). Set by the
   * controller runtime; absent when a test calls the reconciler with `{ now }` only.
   */
  readonly fieldManager?: string;
}

/**
 * A reconciler: the primary object and a read-only view of the cache in, a plan out.
 *
 * Like controller-runtime's `Reconciler`, but pure: it performs no I/O, reads no clock and no
 * randomness (they come in through `ctx`), and never learns *why* it runs (level-based). It
 * returns the complete desired state as a {@link Plan} of writes; expected failures are
 * `Left` values, never exceptions.
 *
 * @typeParam P the primary's type
 * @typeParam W the world view (e.g. `{ pods: World<Pod> }`)
 * @typeParam C the context (extends {@link ReconcileContext})
 *
 * @example
 * ```ts
 * import { E, type Reconciler } from "../../mod.ts";
 * const noop: Reconciler<{ metadata?: { name?: string } }, unknown> = () => E.right({ ops: [] });
 * ```
 */
export type Reconciler<P, W, C extends ReconcileContext = ReconcileContext> = (
  primary: DeepReadonly<P>,
  world: W,
  ctx: C,
) => Either<ReconcileError, Plan>;
