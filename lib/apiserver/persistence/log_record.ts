/**
 * A record of the write-ahead log: a {@link JournalEntry} numbered by `seq` (which goes on
 * across compactions, so a snapshot knows which records it already contains).
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { KubeObject } from "../../core/object.ts";
import type { JournalEntry } from "./journal_entry.ts";

/** One log record. */
export type LogRecord = JournalEntry & { readonly seq: number };

const isCount = (v: unknown): v is number =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks the shape of a decoded log value; undefined when it is not a log record.
 *
 * @example
 * ```ts
 * import { toLogRecord } from "./log_record.ts";
 * toLogRecord({ seq: 1, type: "drop", storageKey: "example.com/widgets" })?.type; // "drop"
 * toLogRecord({ seq: 1, type: "put" }); // undefined
 * ```
 */
export function toLogRecord(value: unknown): LogRecord | undefined {
  if (!isPlainObject(value) || !isCount(value.seq) || typeof value.storageKey !== "string") {
    return undefined;
  }
  const { seq, storageKey } = value;
  switch (value.type) {
    case "put":
      if (!isCount(value.rv) || typeof value.key !== "string" || !isPlainObject(value.object)) {
        return undefined;
      }
      return {
        seq,
        type: "put",
        rv: value.rv,
        storageKey,
        key: value.key,
        object: value.object as KubeObject,
      };
    case "remove":
      if (!isCount(value.rv) || typeof value.key !== "string") return undefined;
      return { seq, type: "remove", rv: value.rv, storageKey, key: value.key };
    case "drop":
      return { seq, type: "drop", storageKey };
    default:
      return undefined;
  }
}
