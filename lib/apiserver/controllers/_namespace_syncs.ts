/**
 * The scheduling the in-server namespace controllers share: namespaces marked due are synced
 * once each in one microtask after the writes that marked them (a burst of writes in one
 * namespace is one sync).
 *
 * @module
 */

/** Marks namespaces due; `close()` stops further syncs. */
export interface NamespaceSyncs {
  schedule(namespace: string): void;
  close(): void;
}

/**
 * Batches `sync` per namespace into a microtask. A sync that throws (a concurrent change) is
 * left to the event that change sends, which schedules its namespace again.
 *
 * @example
 * ```ts
 * import { namespaceSyncs } from "./_namespace_syncs.ts";
 * const seen: string[] = [];
 * const syncs = namespaceSyncs((ns) => void seen.push(ns));
 * syncs.schedule("a");
 * syncs.schedule("a");
 * await Promise.resolve();
 * // seen: ["a"]
 * ```
 */
export function namespaceSyncs(sync: (namespace: string) => void): NamespaceSyncs {
  const due = new Set<string>();
  let scheduled = false, closed = false;
  const run = () => {
    scheduled = false;
    const names = [...due];
    due.clear();
    for (const n of names) {
      if (closed) return;
      try {
        sync(n);
      } catch { /* a concurrent change: its event schedules another sync */ }
    }
  };
  return {
    schedule(namespace) {
      if (closed) return;
      due.add(namespace);
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(run);
    },
    close() {
      closed = true;
    },
  };
}
