/**
 * Persistence of the embedded API server: a write-ahead log of committed writes, compacted
 * into snapshots, restored at start.
 *
 * @example
 * ```ts
 * import { openDataDir } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * const opened = openDataDir(dir);
 * if (opened._tag === "Right") {
 *   opened.right.journal.append({
 *     type: "put", rv: 2, storageKey: "/namespaces", key: "a", object: { metadata: { name: "a" } },
 *   });
 *   opened.right.close();
 * }
 * const again = openDataDir(dir);
 * again._tag === "Right" && again.right.restored.length; // 1
 * ```
 *
 * @module
 */
export {
  type DataDir,
  type DataDirError,
  type DataDirOptions,
  openDataDir,
} from "./open_data_dir.ts";
export { parseRepairAction, type RepairAction, repairDataDir } from "./repair_data_dir.ts";
export { type DecodedWal, decodeWal } from "./decode_wal.ts";
export { readWalHeader, SECTOR_BYTES, WAL_HEADER_BYTES, walFrame } from "./wal_frame.ts";
export { WAL_SEGMENT_BYTES } from "./wal_file.ts";
export type {
  JournalEntry,
  PersistenceLogger,
  RestoredObject,
  StorageJournal,
} from "./journal_entry.ts";
export { type LogRecord, toLogRecord } from "./log_record.ts";
export { PersistedState } from "./persisted_state.ts";
export { decodeSnapshot, encodeSnapshot } from "./snapshot_codec.ts";
export { frameRecord } from "./frame_record.ts";
export { type DecodedFrames, decodeFrames } from "./decode_frames.ts";
export { crc32 } from "./crc32.ts";
export { restoreCrds } from "./restore_crds.ts";
