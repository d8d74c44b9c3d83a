/**
 * The manager's view of its shared informers: every informer a controller asks for is
 * tracked, so the manager can wait until all have synced, say in `/readyz` which have not and
 * why, and report objects, bytes and lag in `/metrics`.
 *
 * @module
 */
import type { Subscription } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Informer, InformerFactory } from "../informer/create_informers.ts";
import type { InformerReport } from "./manager_metrics.ts";

/** The tracked informers of a manager (see {@link trackInformers}). */
export interface TrackedInformers {
  /** The factory the controllers get: the base factory's informers, tracked. */
  readonly factory: InformerFactory;
  /** Resolves once every informer tracked so far has synced; the resources, for the log. */
  whenSynced(): Promise<readonly string[]>;
  /** Why the tracked informers are not all synced (`[]` when they are). */
  unsynced(): string[];
  /** Objects, bytes and seconds since the last change, per informer. */
  reports(): InformerReport[];
  /** Stops following the informers' changes. */
  close(): void;
}

interface Tracked {
  readonly resource: string;
  readonly informer: Informer<HasMetadata>;
  last?: number;
}

// Cached objects are immutable: serialize each one once for the bytes-held metric, not on
// every scrape.
const sizes = new WeakMap<object, number>();
function jsonSize(obj: object): number {
  let n = sizes.get(obj);
  if (n === undefined) sizes.set(obj, n = JSON.stringify(obj).length);
  return n;
}

/**
 * Wraps an informer factory so that every informer it hands out is tracked; `defaultTransform`
 * applies to informers that ask for no transform of their own.
 *
 * @example
 * ```ts
 * import { createInformers } from "../../mod.ts";
 * import { createTestApi } from "../testing/mod.ts";
 * import { trackInformers } from "./tracked_informers.ts";
 * const api = createTestApi();
 * const tracked = trackInformers(createInformers(api.client()), { now: Date.now });
 * tracked.factory.informer({ apiVersion: "v1", kind: "Pod" });
 * tracked.unsynced(); // ["informer v1/Pod not synced"]
 * tracked.close();
 * ```
 */
export function trackInformers(
  base: InformerFactory,
  options: {
    readonly now: () => number;
    readonly defaultTransform?: (object: KubeObject) => KubeObject;
  },
): TrackedInformers {
  const tracked: Tracked[] = [];
  const subs: Subscription[] = [];
  const factory: InformerFactory = {
    informer(resource, o) {
      const t = options.defaultTransform;
      const inf = base.informer(resource, t && !o?.transform ? { ...o, transform: t as never } : o);
      if (!tracked.some((m) => m.informer === inf)) {
        const entry: Tracked = {
          resource: "plural" in resource
            ? resource.plural
            : `${resource.apiVersion}/${resource.kind}`,
          informer: inf,
        };
        tracked.push(entry);
        subs.push(
          inf.deltas$.subscribe({ next: () => void (entry.last = options.now()), error: () => {} }),
        );
      }
      return inf;
    },
    get size() {
      return base.size;
    },
  };
  return {
    factory,
    whenSynced: async () => {
      await Promise.all(tracked.map((m) =>
        new Promise<void>((resolve) => {
          const s = m.informer.synced$.subscribe(() => {
            resolve();
            queueMicrotask(() => s.unsubscribe());
          });
        })
      ));
      return tracked.map((m) => m.resource);
    },
    unsynced: () =>
      tracked.filter((m) => !m.informer.hasSynced()).map((m) => {
        const why = m.informer.lastError();
        return `informer ${m.resource} not synced${why ? `: ${why}` : ""}`;
      }),
    reports: () =>
      tracked.map((m) => {
        let bytes = 0;
        for (const o of m.informer.store.list()) bytes += jsonSize(o);
        return {
          resource: m.resource,
          objects: m.informer.store.size,
          bytes,
          lagSeconds: m.last === undefined ? undefined : (options.now() - m.last) / 1000,
        };
      }),
    close: () => {
      for (const s of subs) s.unsubscribe();
    },
  };
}
