/**
 * `controllerKeys()`: the keys a controller reconciles, from its informers' deltas (the
 * primary's, its children's through their controller owner, watched kinds' through their
 * `keys` function), keys woken by its status batcher, and periodic resyncs.
 *
 * @module
 */
import {
  EMPTY,
  merge,
  mergeMap,
  type Observable,
  type SchedulerLike,
  tap,
  timer,
} from "../deps.ts";
import type { ObjectKey } from "../core/key.ts";
import type { KubeObject } from "../core/object.ts";
import { apiGroupOf } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Delta } from "../store/delta.ts";
import type { QueueInput } from "../queue/run_outcome.ts";
import type { ControllerSpec } from "./controller_spec.ts";
import type { ControllerCaches } from "./controller_caches.ts";
import { type EventFilter, ownerKeys, primaryKeys } from "./triggers.ts";

/** What {@link controllerKeys} needs besides the spec and caches. */
export interface ControllerKeysOptions {
  /** Tags keys with their priority (and notes when each was first seen). */
  readonly tag: (keys: readonly ObjectKey[]) => QueueInput[];
  /** Keys to reconcile again (their caches caught up with a held status). */
  readonly woken$: Observable<ObjectKey>;
  /** Called on every delta of a child or watched kind (the caches moved). */
  readonly cacheAdvanced: () => void;
  /** Timer of resyncs. */
  readonly scheduler: SchedulerLike;
}

const passes = (filter: EventFilter | undefined, d: Delta<DeepReadonly<KubeObject>>) =>
  d.type === "Synced" || filter === undefined || filter(d);

/**
 * The keys of a controller, as a cold Observable (each subscription subscribes the informers'
 * deltas anew). Events of a kind with a `filter` that the filter drops trigger nothing.
 *
 * @example
 * ```ts ignore
 * const keys$ = controllerKeys(spec, caches, { tag, woken$, cacheAdvanced, scheduler });
 * ```
 */
export function controllerKeys<P extends HasMetadata, W>(
  spec: ControllerSpec<P, W>,
  caches: ControllerCaches,
  o: ControllerKeysOptions,
): Observable<QueueInput> {
  const ownerGroup = apiGroupOf(spec.for.apiVersion);
  const { tag } = o;
  return merge(
    caches.primary.deltas$.pipe(mergeMap((d) => tag(primaryKeys(d, spec.filter)))),
    ...caches.owned.map((c) =>
      c.informer.deltas$.pipe(
        tap(() => o.cacheAdvanced()),
        mergeMap((d) =>
          passes(c.options.filter, d) ? tag(ownerKeys(d, ownerGroup, spec.for.kind)) : []
        ),
      )
    ),
    ...caches.watched.map((c) =>
      c.informer.deltas$.pipe(
        tap(() => o.cacheAdvanced()),
        mergeMap((d) =>
          d.type === "Synced" || !passes(c.w.filter, d) ? [] : tag(c.w.keys(d.object))
        ),
      )
    ),
    o.woken$.pipe(mergeMap((key) => tag([key]))),
    spec.resyncMs
      ? timer(spec.resyncMs, spec.resyncMs, o.scheduler).pipe(
        mergeMap(() =>
          caches.primary.store.keys().map((key) => ({ key, priority: "initial" as const }))
        ),
      )
      : EMPTY,
  );
}
