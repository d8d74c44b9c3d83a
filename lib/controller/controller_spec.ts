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
import type { Indexer } from "../store/indexer.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { ReconcileContext, Reconciler } from "../reconcile/reconciler.ts";
import type { EventFilter } from "./triggers.ts";
import type { World } from "../reconcile/world.ts";
import type { Op } from "../reconcile/op.ts";

/**
 * A kind descriptor: an `apiVersion` and a `kind`, carrying the TypeScript type of the
 * kind's objects, so that stores and worlds read through it are typed without casts.
 *
 * A plain `{ apiVersion, kind }` is a `Kind` of any object with metadata; {@link kind} makes
 * typed ones (a store read through a plain one holds `KubeObject`s).
 *
 * @typeParam T the type of the kind's objects
 * @example
 * ```ts
 * import { type corev1, kind, type Kind } from "../../mod.ts";
 * const pods: Kind<corev1.Pod> = kind<corev1.Pod>("v1", "Pod");
 * const configMaps: Kind = { apiVersion: "v1", kind: "ConfigMap" };
 * ```
 */
export interface Kind<T extends HasMetadata = HasMetadata> {
  /** `group/version`, or `version` for the core group (`v1`). */
  readonly apiVersion: string;
  /** The kind, e.g. `Pod`. */
  readonly kind: string;
  /** Type-level only: the type of the kind's objects. Never set. */
  readonly objectType?: T;
}

/**
 * A typed kind descriptor.
 *
 * Like controller-runtime's `&corev1.Pod{}` passed to `For` / `Owns`, but a value naming the
 * kind, with the object type as a type parameter.
 *
 * @param apiVersion `group/version`, or `v1` for the core group
 * @param kindName the kind, e.g. `Pod`
 * @returns the descriptor
 * @example
 * ```ts
 * import { type corev1, kind } from "../../mod.ts";
 * const pods = kind<corev1.Pod>("v1", "Pod");
 * pods.kind; // "Pod"
 * ```
 */
export function kind<T extends HasMetadata = KubeObject>(
  apiVersion: string,
  kindName: string,
): Kind<T> {
  return { apiVersion, kind: kindName };
}

/** Read access to the caches a controller's informers keep. */
export interface CacheView {
  /** The store of a resource the controller reads (`for`, `owns` or `watches`); throws for
   * another. */
  store<T extends HasMetadata = KubeObject>(resource: Kind<T>): StoreReader<T>;
  /** The {@link World} over that store (`ownedBy` reads the controller-owner index that owned
   * kinds' stores carry). */
  world<T extends HasMetadata = KubeObject>(resource: Kind<T>): World<T>;
}

/**
 * How a controller reads a kind besides its primary: which events trigger it and whether it
 * caches whole objects or only their metadata.
 */
export interface TriggerOptions {
  /** Drops events that should not trigger a reconcile (default: every change triggers). */
  readonly filter?: EventFilter;
  /**
   * Cache only the objects' metadata (`PartialObjectMetadata`: apiVersion, kind, metadata),
   * for kinds the reconciler reads only by metadata — much less memory per object
   * (default false).
   */
  readonly metadataOnly?: boolean;
}

/**
 * A child kind, with options: its events trigger the controller owner's key. A plain kind is
 * one; add options by spreading it: `{ ...pods, filter: generationChanged }`.
 */
export interface OwnedResource extends Kind<HasMetadata>, TriggerOptions {}

/** A watched resource whose events map to primary keys through a pure function. */
export interface WatchTrigger extends TriggerOptions {
  /** The watched kind. */
  readonly resource: Kind<HasMetadata>;
  /** The primary keys an object's event triggers (pure). */
  readonly keys: (obj: DeepReadonly<KubeObject>) => readonly ObjectKey[];
}

/** The type of a plan's write op: `create`, `apply`, `patch`, `delete` or `status` (event ops
 * are recorded by the event recorder, not written by the plan). */
export type OpType = Exclude<Op["type"], "event">;

/**
 * The writes a controller's plans may make to one kind (any version of its group). The
 * verbs they need: `create` -> create, `apply` and `patch` -> patch, `delete` -> delete,
 * `status` -> patch of the `/status` subresource.
 */
export interface WriteDeclaration {
  /** The kind written (any version of its group). */
  readonly resource: Kind<HasMetadata>;
  /** The write ops the plans may make to it. */
  readonly ops: readonly OpType[];
}

/**
 * A typed {@link WatchTrigger}: `keys` gets the watched kind's objects as their own type.
 *
 * Like controller-runtime's `Watches(&Kind{}, handler.EnqueueRequestsFromMapFunc(fn))`, but
 * the map function is pure and typed by the kind descriptor.
 *
 * @param resource the watched kind
 * @param keys the primary keys an object's event triggers (pure)
 * @param options an event filter, metadata-only caching
 * @returns the trigger, for `ControllerSpec.watches`
 * @example
 * ```ts
 * import { type corev1, kind, watch } from "../../mod.ts";
 * const services = kind<corev1.Service>("v1", "Service");
 * const trigger = watch(services, (svc) => svc.spec?.selector?.app ? [`default/${svc.spec.selector.app}`] : []);
 * trigger.resource.kind; // "Service"
 * ```
 */
export function watch<T extends HasMetadata>(
  resource: Kind<T>,
  keys: (obj: DeepReadonly<T>) => readonly ObjectKey[],
  options: TriggerOptions = {},
): WatchTrigger {
  // The informer of `resource` holds objects of that kind, so `keys` only ever sees a T (the
  // type the caller named): widening its parameter is sound, one step through unknown.
  const ofAnyObject = keys as (obj: unknown) => readonly ObjectKey[];
  return { ...options, resource, keys: ofAnyObject };
}

/**
 * The concurrency of a controller that sets none: how many keys it reconciles at once.
 *
 * Like controller-runtime's `MaxConcurrentReconciles`, but not 1: a pure reconciler with
 * per-key exclusivity (the workqueue never runs a key twice at once) is safe to run
 * concurrently, and on one JavaScript thread concurrency overlaps the requests' round trips.
 * Chosen from the benchmark's concurrency sweep (scenario 8: 1,000 PodSets x 3 converge in
 * about 0.8x the time of concurrency 1 from 4 keys at once on, with no gain beyond 8): the
 * smallest value within a few percent of the best, so a manager of many controllers does not
 * multiply its requests in flight for nothing. Reported as
 * `controller_runtime_max_concurrent_reconciles`.
 *
 * @example
 * ```ts
 * import { DEFAULT_CONCURRENCY } from "../../mod.ts";
 * DEFAULT_CONCURRENCY; // 4
 * ```
 */
export const DEFAULT_CONCURRENCY = 4;

/** A controller, as data. */
export interface ControllerSpec<P extends HasMetadata = KubeObject, W = CacheView> {
  /** Name used in logs, metrics and the field manager (`kubefold-<name>`). */
  readonly name: string;
  /** The primary resource. */
  readonly for: Kind<HasMetadata>;
  /** Child resources: their events trigger the controller owner's key. A kind, or a kind with
   * options (an event filter, metadata-only caching). */
  readonly owns?: readonly OwnedResource[];
  /** Other resources whose events map to keys. */
  readonly watches?: readonly WatchTrigger[];
  /**
   * The pure reconciler: the primary, the world (see `world`) and the time in, a plan or an
   * error out. (A method, so that a spec of any primary and world type is a
   * `ControllerSpec<HasMetadata, unknown>`, as `startManager` takes them.)
   */
  reconcile(
    primary: DeepReadonly<P>,
    world: W,
    ctx: ReconcileContext,
  ): ReturnType<Reconciler<P, W, ReconcileContext>>;
  /** Builds the reconciler's read-only world from the caches (default: the cache view itself). */
  readonly world?: (cache: CacheView) => W;
  /** Filters primary events (default: every change); see `generationChanged`. */
  readonly filter?: EventFilter;
  /**
   * Keys reconciled at once (default {@link DEFAULT_CONCURRENCY}); a key never runs twice at
   * once, whatever the concurrency.
   */
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
  /**
   * Extra named indexes of the primary's store (like controller-runtime's `IndexField`), read
   * with `cache.store(spec.for).keysByIndex(name, value)` — e.g. in a watch's `keys`, so an
   * event finds the primaries it concerns without listing them all (default none).
   */
  readonly indexers?: Readonly<Record<string, Indexer<DeepReadonly<KubeObject>>>>;
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
