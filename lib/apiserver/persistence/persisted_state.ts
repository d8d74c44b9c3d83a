/**
 * The state a data directory holds (all objects and the resourceVersion counter), rebuilt by
 * folding log records over a snapshot.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { JournalEntry, RestoredObject } from "./journal_entry.ts";

/**
 * Objects by storage key and key, the last resourceVersion and the last applied log `seq`.
 *
 * Stored objects are shared, never copied: the storage never mutates committed objects.
 *
 * @example
 * ```ts
 * import { PersistedState } from "./persisted_state.ts";
 * const s = new PersistedState(1, 0);
 * s.apply({ type: "put", rv: 2, storageKey: "/namespaces", key: "a", object: { metadata: { name: "a" } } });
 * s.apply({ type: "remove", rv: 3, storageKey: "/namespaces", key: "a" });
 * [s.rv, s.count()]; // [3, 0]
 * ```
 */
export class PersistedState {
  readonly #tables = new Map<string, Map<string, KubeObject>>();

  /**
   * @param rv the last resourceVersion handed out
   * @param seq the last log record folded in
   */
  constructor(public rv: number, public seq: number) {}

  /** Folds one committed mutation in. */
  apply(entry: JournalEntry): void {
    switch (entry.type) {
      case "put": {
        let t = this.#tables.get(entry.storageKey);
        if (!t) this.#tables.set(entry.storageKey, t = new Map());
        t.set(entry.key, entry.object);
        this.rv = Math.max(this.rv, entry.rv);
        return;
      }
      case "remove": {
        const t = this.#tables.get(entry.storageKey);
        t?.delete(entry.key);
        if (t?.size === 0) this.#tables.delete(entry.storageKey);
        this.rv = Math.max(this.rv, entry.rv);
        return;
      }
      case "drop":
        this.#tables.delete(entry.storageKey);
        return;
      default:
        throw new Error(`unknown journal entry ${JSON.stringify(entry satisfies never)}`);
    }
  }

  /** Number of objects. */
  count(): number {
    let n = 0;
    for (const t of this.#tables.values()) n += t.size;
    return n;
  }

  /** All objects, grouped by storage key. */
  *objects(): IterableIterator<RestoredObject> {
    for (const [storageKey, t] of this.#tables) {
      for (const [key, object] of t) yield { storageKey, key, object };
    }
  }
}
