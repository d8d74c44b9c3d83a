/**
 * The delta stream and the indexed store: watch events folded into `Delta`s and into one
 * indexed, read-only cache of objects.
 *
 * @example
 * ```ts
 * import { byLabel, byNamespace, createStore, reflect } from "./mod.ts";
 * import { from } from "../deps.ts";
 * import type { KubeObject } from "../core/object.ts";
 * const { reader, writer } = createStore<KubeObject>({
 *   indexers: { namespace: byNamespace, app: byLabel("app") },
 * });
 * from([
 *   { type: "Init" } as const,
 *   { type: "InitApply", object: { metadata: { namespace: "d", name: "a", labels: { app: "w" } } } } as const,
 *   { type: "InitDone", resourceVersion: "1" } as const,
 * ]).pipe(reflect(writer)).subscribe();
 * reader.byIndex("app", "w").length; // 1
 * ```
 *
 * @module
 */
export type { Delta } from "./delta.ts";
export type { DeepReadonly } from "./deep_readonly.ts";
export type { Indexer } from "./indexer.ts";
export { byNamespace } from "./by_namespace.ts";
export { byControllerOwnerUid } from "./by_controller_owner_uid.ts";
export { byLabel } from "./by_label.ts";
export { stripManagedFields } from "./strip_managed_fields.ts";
export { shareManagedFields, type ShareManagedFieldsOptions } from "./share_managed_fields.ts";
export {
  type FoldCache,
  type FoldOptions,
  type FoldState,
  foldWatchEvent,
} from "./fold_watch_event.ts";
export type { HasMetadata } from "./has_metadata.ts";
export {
  createStore,
  type StoreOptions,
  type StoreReader,
  type StoreWriter,
} from "./create_store.ts";
export { reflect } from "./reflect.ts";
export { applyDelta } from "./apply_delta.ts";
