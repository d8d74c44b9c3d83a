/**
 * The caches a controller reads: the informers of its primary, owned and watched resources,
 * their stores by cache name, the reconciler's {@link CacheView}, and the {@link CacheLookup}
 * its expectations check.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Informer, InformerFactory } from "../informer/create_informers.ts";
import type { StoreReader } from "../store/create_store.ts";
import { byControllerOwnerUid } from "../store/by_controller_owner_uid.ts";
import { worldFromStore } from "../reconcile/world.ts";
import type {
  CacheView,
  ControllerSpec,
  Kind,
  TriggerOptions,
  WatchTrigger,
} from "./controller_spec.ts";
import type { CacheLookup } from "../apply/expectations.ts";
import { cacheName } from "../apply/plan_expectations.ts";

/** One informer of a controller, with what it is for. */
export interface ControllerInformer {
  /** `primary`, `owns` or `watches`. */
  readonly role: "primary" | "owns" | "watches";
  /** The kind. */
  readonly kind: Kind<HasMetadata>;
  /** The shared informer. */
  readonly informer: Informer<KubeObject>;
}

/** A controller's informers and its views of them. */
export interface ControllerCaches {
  readonly primary: Informer<KubeObject>;
  readonly owned: readonly (ControllerInformer & { readonly options: TriggerOptions })[];
  readonly watched: readonly (ControllerInformer & { readonly w: WatchTrigger })[];
  /** Every informer, primary first. */
  readonly all: readonly ControllerInformer[];
  /** Stores by cache name (`apiVersion/kind`). */
  readonly stores: ReadonlyMap<string, StoreReader<KubeObject>>;
  readonly view: CacheView;
  readonly lookup: CacheLookup;
}

/**
 * Requests (or shares) the informers of `spec` and builds its views. Owned informers carry the
 * `controller` index (by controller owner uid); metadata-only kinds get metadata informers.
 *
 * @example
 * ```ts ignore
 * const caches = controllerCaches(spec, createInformers(client));
 * caches.view.store({ apiVersion: "v1", kind: "Pod" }).list();
 * ```
 */
export function controllerCaches<P extends HasMetadata, W>(
  spec: ControllerSpec<P, W>,
  informers: InformerFactory,
): ControllerCaches {
  const scope = spec.namespace !== undefined ? { namespace: spec.namespace } : {};
  const meta = (o: TriggerOptions) => (o.metadataOnly ? { metadataOnly: true } : {});
  const primary = informers.informer<KubeObject>(spec.for, {
    ...scope,
    ...(spec.indexers ? { indexers: spec.indexers } : {}),
  });
  const indexers = { indexers: { controller: byControllerOwnerUid } };
  const owned = (spec.owns ?? []).map((o) => ({
    role: "owns" as const,
    kind: { apiVersion: o.apiVersion, kind: o.kind },
    options: o,
    informer: informers.informer<KubeObject>(
      { apiVersion: o.apiVersion, kind: o.kind },
      { ...scope, ...indexers, ...meta(o) },
    ),
  }));
  const watched = (spec.watches ?? []).map((w) => ({
    role: "watches" as const,
    kind: w.resource,
    w,
    informer: informers.informer<KubeObject>(w.resource, { ...scope, ...meta(w) }),
  }));
  const all: ControllerInformer[] = [
    { role: "primary", kind: spec.for, informer: primary },
    ...owned,
    ...watched,
  ];
  const stores = new Map<string, StoreReader<HasMetadata>>();
  for (const i of all) {
    if (!stores.has(cacheName(i.kind))) stores.set(cacheName(i.kind), i.informer.store);
  }
  const store = <T extends HasMetadata>(resource: Kind<T>): StoreReader<T> => {
    const s = stores.get(cacheName(resource));
    if (!s) {
      throw new Error(
        `Cannot read ${cacheName(resource)}: controller ${spec.name} does not watch it`,
      );
    }
    // The store holds the objects of `resource`'s kind (stores are keyed by it): T is the type
    // the caller named for them, narrowed from HasMetadata in one step.
    return s as StoreReader<T>;
  };
  const view: CacheView = { store, world: (resource) => worldFromStore(store(resource)) };
  const lookup: CacheLookup = (cache, key) => {
    if (key === undefined) {
      const rv = stores.get(cache)?.resourceVersion;
      return rv === undefined ? undefined : { resourceVersion: rv, terminating: false };
    }
    const o = stores.get(cache)?.get(key);
    return o
      ? {
        uid: o.metadata?.uid,
        resourceVersion: o.metadata?.resourceVersion,
        terminating: !!o.metadata?.deletionTimestamp,
      }
      : undefined;
  };
  return { primary, owned, watched, all, stores, view, lookup };
}
