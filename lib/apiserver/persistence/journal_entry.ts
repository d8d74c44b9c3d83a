/**
 * The committed writes of {@link ObjectStorage} as data: what the write-ahead log records.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";

/**
 * One committed mutation of the object storage.
 *
 * - `put`: create or update; `object` carries its new resourceVersion `rv`.
 * - `remove`: deletion of the object at `key`, committed at `rv`.
 * - `drop`: a whole resource's table forgotten (its CRD is gone); no rv of its own.
 *
 * @example
 * ```ts
 * import type { JournalEntry } from "./journal_entry.ts";
 * const e: JournalEntry = { type: "remove", rv: 7, storageKey: "/configmaps", key: "default/a" };
 * e.type; // "remove"
 * ```
 */
export type JournalEntry =
  | {
    readonly type: "put";
    readonly rv: number;
    readonly storageKey: string;
    readonly key: string;
    readonly object: KubeObject;
  }
  | {
    readonly type: "remove";
    readonly rv: number;
    readonly storageKey: string;
    readonly key: string;
  }
  | { readonly type: "drop"; readonly storageKey: string };

/**
 * Receives every committed mutation of the storage before it becomes visible. `append` must
 * make the entry durable before it returns, and throw when it cannot (the write then fails).
 *
 * @example
 * ```ts
 * import type { JournalEntry, StorageJournal } from "./journal_entry.ts";
 * const seen: JournalEntry[] = [];
 * const journal: StorageJournal = { append: (e) => void seen.push(e) };
 * journal.append({ type: "drop", storageKey: "example.com/widgets" });
 * seen.length; // 1
 * ```
 */
export interface StorageJournal {
  /** `objectJson`: the put's object already serialized (saves serializing it again). */
  append(entry: JournalEntry, objectJson?: string): void;
}

/** An object loaded from disk into the storage at start. */
export interface RestoredObject {
  readonly storageKey: string;
  readonly key: string;
  readonly object: KubeObject;
}

/** Where persistence reports what it recovered from (e.g. a torn last record). */
export interface PersistenceLogger {
  /** Reports something recovered from, e.g. a torn last log record dropped at start. */
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}
