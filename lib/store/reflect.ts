/**
 * `reflect()`: the RxJS operator that writes watch events into a store and emits deltas.
 *
 * @module
 */
import type { WatchEvent } from "../watch/watch_event.ts";
import { Observable, type OperatorFunction } from "../deps.ts";
import type { Delta } from "./delta.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { StoreWriter } from "./create_store.ts";

/**
 * Folds each watch event into the store behind `writer` and emits the deltas it caused.
 *
 * Like kube-rs `reflector(writer, stream)`, but it emits deltas instead of passing the watch
 * events through. Each delta is emitted after the store reflects it, so a subscriber may read
 * the store (`writer.reader`) at every delta. Errors and completion pass through; the store
 * keeps its contents. Subscribe once per writer: two subscriptions would fold every event twice.
 *
 * ```
 * events: --Init--InitApply(a)--InitDone(5)--Apply(a')--Delete(a')--|
 * deltas: ----------------------Added(a),Synced(5)--Updated(a,a')--Deleted(a')--|
 * ```
 *
 * @example
 * ```ts
 * import { from } from "../deps.ts";
 * import { createStore, type KubeObject, reflect, type WatchEvent } from "../../mod.ts";
 * const { reader, writer } = createStore<KubeObject>();
 * const events: WatchEvent<KubeObject>[] = [
 *   { type: "Init" },
 *   { type: "InitApply", object: { metadata: { name: "a", resourceVersion: "1" } } },
 *   { type: "InitDone", resourceVersion: "1" },
 * ];
 * from(events).pipe(reflect(writer)).subscribe((d) => {
 *   if (d.type === "Synced") console.log(reader.size); // 1
 * });
 * ```
 */
export function reflect<K, T>(
  writer: StoreWriter<K, T>,
): OperatorFunction<WatchEvent<K>, Delta<DeepReadonly<T>>> {
  return (source) =>
    new Observable<Delta<DeepReadonly<T>>>((subscriber) => {
      const emit = (delta: Delta<DeepReadonly<T>>) => subscriber.next(delta);
      return source.subscribe({
        next: (event) => writer.applyTo(event, emit),
        error: (err) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
    });
}
