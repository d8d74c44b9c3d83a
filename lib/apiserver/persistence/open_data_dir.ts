/**
 * Opens a data directory: restores the objects and resourceVersion counter it holds and
 * returns a write-ahead {@link StorageJournal} that makes every later write durable.
 *
 * Files (all 0600; a directory it creates is 0700): `wal.log`, the write-ahead log (v2: a
 * header record, then one checksummed, length-prefixed record per committed write, then
 * zero-filled preallocated space; see `decode_wal.ts` for the exact tail rule);
 * `snapshot.jsonl`, all objects as of log record `seq` (replaced atomically by
 * write-to-temp, fsync, rename); `LOCK`, locked (flock) while open and marking the directory
 * as initialized once it holds a log.
 *
 * Guarantees: a write whose `append` returned survives a kill -9 or power loss, unaltered.
 * Only a last record a crash left incomplete (never acknowledged) is dropped, with a
 * warning, and the resourceVersion it would have taken is skipped, so the counter never
 * moves back. Any other damage — a flipped bit, a cut or emptied log, a missing log beside
 * a snapshot, a snapshot older than the log — refuses to open, naming the file, the byte
 * offset and the recovery command (`--repair-wal`, see {@link repairDataDir}).
 * Assumptions: the disk honours fdatasync; nothing else writes the files while it is open.
 * Caveats: compaction runs synchronously in the write that crosses the threshold, so that
 * write pays for serializing every object once. A log of the v1 format (before checksummed
 * lengths) is read with its older rules once and rewritten as v2.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import type { PersistenceLogger, RestoredObject, StorageJournal } from "./journal_entry.ts";
import { decodeFrames } from "./decode_frames.ts";
import { decodeWal } from "./decode_wal.ts";
import { createJournalWriter, type WalPosition, writeSnapshot } from "./journal_writer.ts";
import { toLogRecord } from "./log_record.ts";
import { PersistedState } from "./persisted_state.ts";
import { decodeSnapshot } from "./snapshot_codec.ts";
import { createWalFile, WAL_FORMAT } from "./wal_file.ts";
import {
  type DataDirError,
  dataDirPaths,
  INITIALIZED,
  lockDataDir,
  releaseDataDirLock,
} from "./data_dir_lock.ts";
import { isPlainObject } from "../../core/object.ts";

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

export type { DataDirError };

/** An open data directory. */
export interface DataDir {
  /** The last resourceVersion handed out before the restart (or skipped by a torn write). */
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

/** The command that runs a repair, for messages. */
export function repairCommand(dir: string, what: string): string {
  return `deno task apiserver --data-dir ${dir} --repair-wal=${what}`;
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
  let lock: Deno.FsFile | undefined;
  try {
    const locked = lockDataDir(dir);
    if (E.isLeft(locked)) return locked;
    lock = locked.right;
    const opened = restore(dir, lock, options);
    if (E.isLeft(opened)) releaseDataDirLock(lock);
    return opened;
  } catch (cause) {
    if (lock) releaseDataDirLock(lock);
    const message = `cannot open data dir ${dir}: ${
      cause instanceof Error ? cause.message : cause
    }`;
    return E.left({ type: "io", message, cause });
  }
}

type Restored = { readonly state: PersistedState; readonly wal: WalPosition };

function restore(
  dir: string,
  lock: Deno.FsFile,
  options: DataDirOptions,
): Either<DataDirError, DataDir> {
  const paths = dataDirPaths(dir);
  const corrupt = (message: string) => E.left<DataDirError>({ type: "corrupt", message });
  const initialized = new TextDecoder().decode(Deno.readFileSync(paths.lock)) === INITIALIZED;
  const snapBytes = readIfExists(paths.snapshot);
  let state = new PersistedState(1, 0);
  if (snapBytes) {
    const s = decodeSnapshot(snapBytes);
    if (E.isLeft(s)) {
      return corrupt(
        `snapshot ${paths.snapshot}: ${s.left}; restore it from a backup ` +
          `(a snapshot is written atomically, so this is damage after the fact)`,
      );
    }
    state = s.right;
  }
  const walBytes = readIfExists(paths.wal);
  let restored: Either<string, Restored>;
  if (walBytes === undefined || (walBytes.length === 0 && initialized)) {
    if (snapBytes || initialized) {
      const what = walBytes === undefined ? "is missing" : "is empty";
      return corrupt(
        `write-ahead log ${paths.wal} ${what}` +
          (snapBytes ? ` beside snapshot ${paths.snapshot} (log record ${state.seq})` : "") +
          `, so writes acknowledged after ${
            snapBytes ? "the snapshot" : "the directory was created"
          } may be lost. To start from ${snapBytes ? "the snapshot" : "nothing"} anyway: ${
            repairCommand(dir, "snapshot")
          }`,
      );
    }
    createWalFile(paths.wal, dir, 0);
    restored = E.right({ state, wal: openWal(paths.wal) });
  } else if (!initialized && (walBytes.length === 0 || !isV2(walBytes))) {
    restored = restoreLegacy(dir, walBytes, state, options);
  } else {
    restored = restoreV2(dir, walBytes, state, !!snapBytes, options);
  }
  if (E.isLeft(restored)) return corrupt(restored.left);
  const { wal } = restored.right;
  state = restored.right.state;
  const restoredRv = state.rv;
  const objects = [...state.objects()];
  const writer = createJournalWriter({
    dir,
    walPath: paths.wal,
    snapPath: paths.snapshot,
    state,
    wal,
    snapshotBytes: snapBytes?.length ?? 0,
    compactAfterBytes: options.compactAfterBytes ?? 8 * 1024 * 1024,
    logger: options.logger,
  });
  try {
    Deno.removeSync(`${paths.snapshot}.tmp`);
  } catch {
    // No leftover of an interrupted compaction.
  }
  if (!initialized) {
    lock.truncateSync(0);
    lock.writeSync(new TextEncoder().encode(INITIALIZED));
    lock.syncSync();
  }
  return E.right({
    rv: restoredRv,
    restored: objects,
    journal: writer.journal,
    stats: writer.stats,
    compact: writer.compact,
    close: () => {
      writer.close();
      releaseDataDirLock(lock);
    },
  });
}

const v2Prefix = new TextEncoder().encode(`{"format":"${WAL_FORMAT}"`);

function isV2(bytes: Uint8Array): boolean {
  const at = 18;
  return v2Prefix.every((b, i) => bytes[at + i] === b);
}

function openWal(path: string): WalPosition {
  const file = Deno.openSync(path, { read: true, write: true });
  const size = file.statSync().size;
  const head = new Uint8Array(Math.min(size, 4096));
  file.readSync(head);
  return { file, size, end: head.indexOf(0x0a) + 1 };
}

function restoreV2(
  dir: string,
  bytes: Uint8Array,
  state: PersistedState,
  hasSnapshot: boolean,
  options: DataDirOptions,
): Either<string, Restored> {
  const { wal: path } = dataDirPaths(dir);
  const d = decodeWal(bytes);
  if (d.type === "corrupt") {
    return E.left(
      `write-ahead log ${path}: damaged at byte ${d.offset} (${d.reason}); refusing to start ` +
        `rather than lose acknowledged writes silently. To start anyway, keeping the records ` +
        `before byte ${d.offset} and dropping the rest (the log is copied aside first): ` +
        repairCommand(dir, String(d.offset)),
    );
  }
  const [header, ...records] = d.values;
  if (!isPlainObject(header) || typeof header.base !== "number") {
    return E.left(`write-ahead log ${path}: the header record at byte 0 is not a log header`);
  }
  const base = header.base;
  if (base > state.seq) {
    return E.left(
      `write-ahead log ${path} starts after log record ${base}, but ${
        hasSnapshot ? `the snapshot holds records up to ${state.seq}` : "there is no snapshot"
      }: records ${state.seq + 1}..${base} are missing. Restore the snapshot from a backup, ` +
        `or start from what is left: ${repairCommand(dir, "snapshot")}`,
    );
  }
  let offsetRecord = 0;
  for (const value of records) {
    offsetRecord++;
    const rec = toLogRecord(value);
    if (!rec) return E.left(`write-ahead log ${path}: record ${offsetRecord} is not a log record`);
    if (rec.seq <= state.seq) continue; // already in the snapshot
    if (rec.seq !== state.seq + 1) {
      return E.left(
        `write-ahead log ${path}: record ${offsetRecord} has seq ${rec.seq}, ` +
          `expected ${state.seq + 1}`,
      );
    }
    state.apply(rec);
    state.seq = rec.seq;
  }
  // A repair that dropped records keeps the next resourceVersion above what they handed out.
  if (typeof header.rvFloor === "number") state.rv = Math.max(state.rv, header.rvFloor);
  const wal = openWal(path);
  if (d.torn) {
    options.logger?.warn("dropped a torn last record of the write-ahead log", {
      file: path,
      offset: d.torn.offset,
      reason: d.torn.reason,
    });
    // Zero the free space again, and never hand out the rv the dropped write took.
    wal.file.truncateSync(d.end);
    wal.file.truncateSync(wal.size);
    wal.file.syncSync();
    state.rv += 1;
  }
  return E.right({ state, wal: { ...wal, end: d.end } });
}

/** A v1 log is read with its own rules, then rewritten as a snapshot and a v2 log. */
function restoreLegacy(
  dir: string,
  bytes: Uint8Array,
  state: PersistedState,
  options: DataDirOptions,
): Either<string, Restored> {
  const paths = dataDirPaths(dir);
  const path = paths.wal;
  const frames = decodeFrames(bytes);
  if (frames.type === "corrupt") {
    return E.left(
      `write-ahead log ${path} (v1): damaged record at byte ${frames.offset} ` +
        `(${frames.reason}) followed by more records`,
    );
  }
  for (const [i, value] of frames.values.entries()) {
    const rec = toLogRecord(value);
    if (!rec) return E.left(`write-ahead log ${path}: record ${i + 1} is not a log record`);
    if (rec.seq <= state.seq) continue;
    if (rec.seq !== state.seq + 1) {
      return E.left(
        `write-ahead log ${path}: record ${i + 1} has seq ${rec.seq}, expected ${state.seq + 1}`,
      );
    }
    state.apply(rec);
    state.seq = rec.seq;
  }
  if (frames.torn) {
    options.logger?.warn("dropped a torn last record of a v1 write-ahead log", {
      file: path,
      offset: frames.torn.offset,
      reason: frames.torn.reason,
    });
    state.rv += 1;
  }
  writeSnapshot(dir, paths.snapshot, state);
  createWalFile(path, dir, state.seq);
  return E.right({ state, wal: openWal(path) });
}
