/**
 * The caches a controller reads: the informers of its primary, owned and watched resources,
 * their stores by cache name, the reconciler's {@link CacheView}, and the {@link CacheLookup}
 * its expectations check.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { Informer, InformerFactory } from "../informer/create_informers.ts";
import type { StoreReader } from "../store/create_store.ts";
import { byControllerOwnerUid } from "../store/by_controller_owner_uid.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { CacheView, ControllerSpec, Kind, WatchTrigger } from "./controller_spec.ts";
import type { CacheLookup } from "../apply/expectations.ts";
import { cacheName } from "../apply/plan_expectations.ts";

/** A controller's informers and its views of them. */
export interface ControllerCaches {
  readonly primary: Informer<KubeObject>;
  readonly owned: readonly { readonly kind: Kind; readonly informer: Informer<KubeObject> }[];
  readonly watched: readonly {
    readonly w: WatchTrigger;
    readonly informer: Informer<KubeObject>;
  }[];
  /** Stores by cache name (`apiVersion/kind`). */
  readonly stores: ReadonlyMap<string, StoreReader<KubeObject>>;
  readonly view: CacheView;
  readonly lookup: CacheLookup;
}

/**
 * Requests (or shares) the informers of `spec` and builds its views. Owned informers carry the
 * `controller` index (by controller owner uid).
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
  const primary = informers.informer<KubeObject>(spec.for, scope);
  const indexers = { indexers: { controller: byControllerOwnerUid } };
  const owned = (spec.owns ?? []).map((k) => ({
    kind: k,
    informer: informers.informer<KubeObject>(k, { ...scope, ...indexers }),
  }));
  const watched = (spec.watches ?? []).map((w) => ({
    w,
    informer: informers.informer<KubeObject>(w.resource, scope),
  }));
  const stores = new Map<string, StoreReader<KubeObject>>([[cacheName(spec.for), primary.store]]);
  for (const o of owned) stores.set(cacheName(o.kind), o.informer.store);
  for (const x of watched) stores.set(cacheName(x.w.resource), x.informer.store);
  const view: CacheView = {
    store(resource) {
      const s = stores.get(cacheName(resource));
      if (!s) {
        throw new Error(
          `Cannot read ${cacheName(resource)}: controller ${spec.name} does not watch it`,
        );
      }
      return s;
    },
  };
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
  return { primary, owned, watched, stores, view, lookup };
}
