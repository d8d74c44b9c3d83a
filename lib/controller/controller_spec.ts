/**
 * What a controller is: the primary resource, the resources it owns or watches, the pure
 * reconciler, and its tuning. Like controller-runtime's builder, but a plain value.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { ObjectKey } from "../core/key.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { StoreReader } from "../store/create_store.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { ReconcileContext, Reconciler } from "../reconcile/reconciler.ts";
import type { EventFilter } from "./triggers.ts";
import type { Op } from "../reconcile/op.ts";

/** A resource named by apiVersion and kind. */
export interface Kind {
  readonly apiVersion: string;
  readonly kind: string;
}

/** Read access to the caches a controller's informers keep. */
export interface CacheView {
  /** The store of a resource the controller reads (`for`, `owns` or `watches`). */
  store(resource: Kind): StoreReader<KubeObject>;
}

/** A watched resource whose events map to primary keys through a pure function. */
export interface WatchTrigger {
  readonly resource: Kind;
  readonly keys: (obj: DeepReadonly<KubeObject>) => readonly ObjectKey[];
}

/** The type of a plan op: `create`, `apply`, `patch`, `delete` or `status`. */
export type OpType = Op["type"];

/**
 * The writes a controller's plans may make to one kind (any version of its group). The
 * verbs they need: `create` -> create, `apply` and `patch` -> patch, `delete` -> delete,
 * `status` -> patch of the `/status` subresource.
 */
export interface WriteDeclaration {
  readonly resource: Kind;
  readonly ops: readonly OpType[];
}

/** A controller, as data. */
export interface ControllerSpec<P extends HasMetadata = KubeObject, W = CacheView> {
  /** Name used in logs, metrics and the field manager (`kubefold-<name>`). */
  readonly name: string;
  /** The primary resource. */
  readonly for: Kind;
  /** Child resources: their events trigger the controller owner's key. */
  readonly owns?: readonly Kind[];
  /** Other resources whose events map to keys. */
  readonly watches?: readonly WatchTrigger[];
  /** The pure reconciler. */
  readonly reconcile: Reconciler<P, W, ReconcileContext>;
  /** Builds the reconciler's read-only world from the caches (default: the cache view itself). */
  readonly world?: (cache: CacheView) => W;
  /** Filters primary events (default: every change). */
  readonly filter?: EventFilter;
  /** Reconciles running at once (default 1). */
  readonly concurrency?: number;
  /** Periodic resync of every primary key in ms (default: off). */
  readonly resyncMs?: number;
  /**
   * A plan that writes children does not write the primary's status beside them: a later
   * reconcile writes it, once the cache shows those writes and has caught up with the
   * controller's own latest writes (at most 1 s) — one status write from what was observed,
   * instead of a prediction plus a correction (default true). See `holdStatus`.
   */
  readonly deferStatus?: boolean;
  /**
   * With `deferStatus`, how long after the first unreported child write the status waits,
   * coalescing a burst of child changes into one write (default 100 ms; 0: no wait).
   */
  readonly statusBatchMs?: number;
  /**
   * Every write its plans may make, per kind. `kubefold manifests` derives the controller's
   * least-privilege RBAC from these and from `for` / `owns` / `watches` (list, watch); at run
   * time a plan with an op outside them is not applied: the reconcile fails, naming the
   * controller, kind and verb. Default: undeclared (plans unchecked, and `manifests` refuses
   * to derive RBAC for the controller).
   */
  readonly writes?: readonly WriteDeclaration[];
  /** Restricts the primary and children to one namespace (default: all). */
  readonly namespace?: string;
}

/**
 * Declares a controller (identity: it documents and type-checks the spec).
 *
 * @example
 * ```ts
 * import { controller, E } from "../../mod.ts";
 * const spec = controller({
 *   name: "noop",
 *   for: { apiVersion: "v1", kind: "ConfigMap" },
 *   reconcile: () => E.right({ ops: [] }),
 * });
 * ```
 */
export function controller<P extends HasMetadata, W = CacheView>(
  spec: ControllerSpec<P, W>,
): ControllerSpec<P, W> {
  return spec;
}
