/**
 * The append side of an open v2 write-ahead log: frames each committed write, grows the
 * preallocated file when needed, fdatasyncs before returning, and compacts the log into a
 * snapshot once it is large.
 *
 * @module
 */
import type { PersistenceLogger, StorageJournal } from "./journal_entry.ts";
import type { PersistedState } from "./persisted_state.ts";
import { encodeSnapshot } from "./snapshot_codec.ts";
import { walFrame, walFrameOfJson } from "./wal_frame.ts";
import { createWalFile, FILE_MODE, syncDir, walSizeFor, writeAll } from "./wal_file.ts";

/** Where an open log stands. */
export interface WalPosition {
  /** The open log file. */
  readonly file: Deno.FsFile;
  /** Where the free space starts. */
  readonly end: number;
  /** The file's (preallocated) size. */
  readonly size: number;
}

/** What {@link createJournalWriter} needs. */
export interface JournalWriterInit {
  readonly dir: string;
  readonly walPath: string;
  readonly snapPath: string;
  readonly state: PersistedState;
  readonly wal: WalPosition;
  readonly snapshotBytes: number;
  readonly compactAfterBytes: number;
  readonly logger?: PersistenceLogger;
}

/** The journal of a data dir with its maintenance operations. */
export interface JournalWriter {
  readonly journal: StorageJournal;
  readonly stats: () => { walBytes: number; snapshotBytes: number; compactions: number };
  readonly compact: () => void;
  readonly close: () => void;
}

/**
 * Creates the writer of an open log.
 *
 * Rules: a record is acknowledged (`append` returns) only after it is written in full and
 * fdatasync'ed; the file is grown (zeros, fsync'ed) *before* a record that would not fit, so
 * a crash can only leave the last record incomplete and never cuts the file short. After a
 * failed append the log's free space may hold a partial record: the next append first zeros
 * it again (and fails too while it cannot), so no record is ever written after garbage.
 */
export function createJournalWriter(init: JournalWriterInit): JournalWriter {
  const { dir, walPath, snapPath, state } = init;
  let { file, end, size } = init.wal;
  let snapshotBytes = init.snapshotBytes;
  let nextCompaction = Math.max(init.compactAfterBytes, snapshotBytes);
  let compactions = 0;
  let closed = false;
  /** End of a partial record a failed append may have left. */
  let dirtyUpTo = 0;

  const heal = () => {
    if (dirtyUpTo <= end) return;
    file.seekSync(end, Deno.SeekMode.Start);
    writeAll(file, new Uint8Array(Math.min(dirtyUpTo, size) - end));
    file.syncDataSync();
    dirtyUpTo = 0;
  };

  const compact = () => {
    heal();
    const bytes = writeSnapshot(dir, snapPath, state);
    // A crash from here on leaves a log the snapshot already holds: skipped by seq.
    createWalFile(walPath, dir, state.seq);
    const next = Deno.openSync(walPath, { read: true, write: true });
    file.close();
    file = next;
    size = file.statSync().size;
    end = walHeaderEnd(file);
    snapshotBytes = bytes;
    nextCompaction = Math.max(init.compactAfterBytes, snapshotBytes);
    compactions++;
  };

  return {
    journal: {
      append(entry, objectJson) {
        if (closed) throw new Error(`data dir ${dir} is closed`);
        heal();
        const seq = state.seq + 1;
        const bytes = entry.type === "put" && objectJson !== undefined
          ? walFrameOfJson(
            `{"seq":${seq},"type":"put","rv":${entry.rv},"storageKey":${
              JSON.stringify(entry.storageKey)
            },"key":${JSON.stringify(entry.key)},"object":${objectJson}}`,
          )
          : walFrame({ seq, ...entry });
        if (end + bytes.length + 1 > size) {
          const grown = walSizeFor(end + bytes.length + 1, size * 2);
          file.truncateSync(grown);
          file.syncSync();
          size = grown;
        }
        dirtyUpTo = end + bytes.length;
        file.seekSync(end, Deno.SeekMode.Start);
        writeAll(file, bytes);
        file.syncDataSync();
        dirtyUpTo = 0;
        end += bytes.length;
        state.apply(entry);
        state.seq = seq;
        if (end < nextCompaction) return;
        try {
          compact();
        } catch (e) {
          nextCompaction = end + init.compactAfterBytes;
          init.logger?.warn("compaction of the write-ahead log failed; retrying later", {
            dir,
            error: e instanceof Error ? e.message : String(e),
          });
        }
      },
    },
    stats: () => ({ walBytes: end, snapshotBytes, compactions }),
    compact,
    close: () => {
      if (closed) return;
      closed = true;
      file.close();
    },
  };
}

/**
 * Writes a snapshot of `state` atomically (temporary file, fsync, rename, directory fsync);
 * returns its size in bytes.
 */
export function writeSnapshot(dir: string, snapPath: string, state: PersistedState): number {
  const tmp = `${snapPath}.tmp`;
  let bytes = 0;
  {
    using f = Deno.openSync(tmp, { write: true, create: true, truncate: true, mode: FILE_MODE });
    for (const chunk of encodeSnapshot(state)) {
      writeAll(f, chunk);
      bytes += chunk.length;
    }
    f.syncSync();
  }
  Deno.renameSync(tmp, snapPath);
  syncDir(dir);
  return bytes;
}

/** The end of the header record of a freshly created log. */
function walHeaderEnd(file: Deno.FsFile): number {
  const head = new Uint8Array(256);
  file.seekSync(0, Deno.SeekMode.Start);
  const n = file.readSync(head) ?? 0;
  const nl = head.subarray(0, n).indexOf(0x0a);
  if (nl < 0) throw new Error("the new write-ahead log has no header record");
  return nl + 1;
}
