/**
 * Opens a data directory: restores the objects and resourceVersion counter it holds and
 * returns a write-ahead {@link StorageJournal} that makes every later write durable.
 *
 * Files: `wal.log` (one framed record per committed write, fdatasync'ed before `append`
 * returns) and `snapshot.jsonl` (all objects as of log record `seq`, replaced atomically by
 * write-to-temp, fsync, rename). The directory is locked (flock) while open.
 *
 * Guarantees: a write whose `append` returned survives a kill -9 or power loss; a torn last
 * record (an append cut short) is dropped with a warning and cut off the file. Damage
 * anywhere else is refused, never silently skipped.
 * Caveats: compaction runs synchronously in the write that crosses the threshold, so that
 * write pays for serializing every object once.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import type { PersistenceLogger, RestoredObject, StorageJournal } from "./journal_entry.ts";
import { decodeFrames } from "./decode_frames.ts";
import { frameRecord } from "./frame_record.ts";
import { toLogRecord } from "./log_record.ts";
import { PersistedState } from "./persisted_state.ts";
import { decodeSnapshot, encodeSnapshot } from "./snapshot_codec.ts";

/** Options of {@link openDataDir}. */
export interface DataDirOptions {
  /** Receives recovery warnings (a dropped torn record, a failed compaction); default: none. */
  readonly logger?: PersistenceLogger;
  /**
   * The log is compacted into a snapshot once it is larger than this and than the last
   * snapshot (so rewriting costs at most twice the writes); default 8 MiB.
   */
  readonly compactAfterBytes?: number;
}

/** Why a data directory could not be opened. */
export type DataDirError =
  | { readonly type: "locked"; readonly message: string }
  | { readonly type: "corrupt"; readonly message: string }
  | { readonly type: "io"; readonly message: string; readonly cause: unknown };

/** An open data directory. */
export interface DataDir {
  /** The last resourceVersion handed out before the restart. */
  readonly rv: number;
  /** The objects it holds. */
  readonly restored: readonly RestoredObject[];
  /** Hands every committed write to the log (pass it to the storage). */
  readonly journal: StorageJournal;
  /** Log size and compactions so far. */
  readonly stats: () => { walBytes: number; snapshotBytes: number; compactions: number };
  /** Writes a snapshot now and empties the log. */
  readonly compact: () => void;
  /** Releases the lock and closes the log. */
  readonly close: () => void;
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length;) off += file.writeSync(bytes.subarray(off));
}

function syncDir(dir: string): void {
  try {
    using d = Deno.openSync(dir, { read: true });
    d.syncSync();
  } catch {
    // Not every platform can sync a directory; the rename is still atomic.
  }
}

function readIfExists(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/**
 * Opens (creating if needed) a data directory and restores its state.
 *
 * @example
 * ```ts
 * import { openDataDir } from "./open_data_dir.ts";
 * const opened = openDataDir(await Deno.makeTempDir());
 * if (opened._tag === "Right") {
 *   opened.right.journal.append({ type: "drop", storageKey: "example.com/widgets" });
 *   opened.right.close();
 * }
 * ```
 */
export function openDataDir(
  dir: string,
  options: DataDirOptions = {},
): Either<DataDirError, DataDir> {
  const walPath = `${dir}/wal.log`;
  const snapPath = `${dir}/snapshot.jsonl`;
  const tmpPath = `${snapPath}.tmp`;
  let wal: Deno.FsFile | undefined;
  try {
    Deno.mkdirSync(dir, { recursive: true });
    wal = Deno.openSync(walPath, { read: true, write: true, create: true });
    if (!wal.tryLockSync(true)) {
      wal.close();
      return E.left({ type: "locked", message: `data dir ${dir} is in use by another server` });
    }
    const opened = restore(dir, wal, walPath, snapPath, tmpPath, options);
    if (opened._tag === "Left") wal.close();
    return opened;
  } catch (cause) {
    wal?.close();
    const message = `cannot open data dir ${dir}: ${
      cause instanceof Error ? cause.message : cause
    }`;
    return E.left({ type: "io", message, cause });
  }
}

function restore(
  dir: string,
  wal: Deno.FsFile,
  walPath: string,
  snapPath: string,
  tmpPath: string,
  options: DataDirOptions,
): Either<DataDirError, DataDir> {
  const corrupt = (message: string) => E.left<DataDirError>({ type: "corrupt", message });
  const snapBytes = readIfExists(snapPath);
  let state = new PersistedState(1, 0);
  if (snapBytes) {
    const s = decodeSnapshot(snapBytes);
    if (s._tag === "Left") return corrupt(`snapshot ${snapPath}: ${s.left}`);
    state = s.right;
  }
  const walBytes = Deno.readFileSync(walPath);
  const frames = decodeFrames(walBytes);
  if (frames.type === "corrupt") {
    return corrupt(
      `write-ahead log ${walPath}: damaged record at byte ${frames.offset} ` +
        `(${frames.reason}) followed by more records`,
    );
  }
  for (const [i, value] of frames.values.entries()) {
    const rec = toLogRecord(value);
    if (!rec) return corrupt(`write-ahead log ${walPath}: record ${i + 1} is not a log record`);
    if (rec.seq <= state.seq) continue; // already in the snapshot
    if (rec.seq !== state.seq + 1) {
      return corrupt(
        `write-ahead log ${walPath}: record ${i + 1} has seq ${rec.seq}, ` +
          `expected ${state.seq + 1}`,
      );
    }
    state.apply(rec);
    state.seq = rec.seq;
  }
  if (frames.torn) {
    options.logger?.warn("dropped a torn last record of the write-ahead log", {
      file: walPath,
      offset: frames.torn.offset,
      bytes: frames.torn.length,
      reason: frames.torn.reason,
    });
    wal.truncateSync(frames.validBytes);
    wal.syncSync();
  }
  try {
    Deno.removeSync(tmpPath);
  } catch {
    // No leftover of an interrupted compaction.
  }
  syncDir(dir);
  wal.seekSync(frames.validBytes, Deno.SeekMode.Start);
  return E.right(
    createJournal(dir, wal, {
      snapPath,
      tmpPath,
      state,
      options,
      walSize: frames.validBytes,
      snapshotSize: snapBytes?.length ?? 0,
    }),
  );
}

function createJournal(
  dir: string,
  wal: Deno.FsFile,
  s: {
    snapPath: string;
    tmpPath: string;
    state: PersistedState;
    options: DataDirOptions;
    walSize: number;
    snapshotSize: number;
  },
): DataDir {
  const { state, snapPath, tmpPath } = s;
  const minBytes = s.options.compactAfterBytes ?? 8 * 1024 * 1024;
  let walSize = s.walSize;
  let snapshotSize = s.snapshotSize;
  let nextCompaction = Math.max(minBytes, snapshotSize);
  let compactions = 0;
  let closed = false;
  const restoredRv = state.rv;
  const restored = [...state.objects()];

  const compact = () => {
    using tmp = Deno.openSync(tmpPath, { write: true, create: true, truncate: true });
    let size = 0;
    for (const chunk of encodeSnapshot(state)) {
      writeAll(tmp, chunk);
      size += chunk.length;
    }
    tmp.syncSync();
    Deno.renameSync(tmpPath, snapPath);
    syncDir(dir);
    // A crash from here on leaves records the snapshot holds: skipped by seq at restore.
    wal.truncateSync(0);
    wal.seekSync(0, Deno.SeekMode.Start);
    wal.syncSync();
    walSize = 0;
    snapshotSize = size;
    nextCompaction = Math.max(minBytes, snapshotSize);
    compactions++;
  };

  return {
    rv: restoredRv,
    restored,
    journal: {
      append(entry) {
        if (closed) throw new Error(`data dir ${dir} is closed`);
        const seq = state.seq + 1;
        const bytes = frameRecord({ seq, ...entry });
        try {
          writeAll(wal, bytes);
          wal.syncDataSync();
        } catch (e) {
          // Cut a partial record off so later appends do not follow garbage.
          try {
            wal.truncateSync(walSize);
            wal.seekSync(walSize, Deno.SeekMode.Start);
          } catch {
            // Restore drops it as a torn record only if nothing follows: best effort.
          }
          throw e;
        }
        walSize += bytes.length;
        state.apply(entry);
        state.seq = seq;
        if (walSize < nextCompaction) return;
        try {
          compact();
        } catch (e) {
          nextCompaction = walSize + minBytes;
          s.options.logger?.warn("compaction of the write-ahead log failed; retrying later", {
            dir,
            error: e instanceof Error ? e.message : String(e),
          });
        }
      },
    },
    stats: () => ({ walBytes: walSize, snapshotBytes: snapshotSize, compactions }),
    compact,
    close: () => {
      if (closed) return;
      closed = true;
      wal.close();
    },
  };
}
