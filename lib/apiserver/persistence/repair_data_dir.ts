/**
 * The recovery command for a data directory {@link openDataDir} refuses: an explicit,
 * logged decision to drop what is damaged, after copying the log aside.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { isPlainObject } from "../../core/object.ts";
import { decodeWal } from "./decode_wal.ts";
import {
  type DataDirError,
  dataDirPaths,
  INITIALIZED,
  lockDataDir,
  releaseDataDirLock,
} from "./data_dir_lock.ts";
import { repairCommand } from "./open_data_dir.ts";
import { decodeSnapshot } from "./snapshot_codec.ts";
import { createWalFile, FILE_MODE } from "./wal_file.ts";

/** How far past the highest resourceVersion found the counter resumes after a repair. */
export const RV_MARGIN = 1000;

/** The highest `"rv":N` in the bytes of a log (its records, damaged or not). */
function highestRv(bytes: Uint8Array): number {
  let max = 0;
  const text = new TextDecoder().decode(bytes);
  for (const m of text.matchAll(/"rv":(\d{1,15})/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/**
 * What to drop: the log from a byte offset on (the records before it are kept), or the
 * whole log (start from the snapshot alone, or from nothing if there is none).
 */
export type RepairAction =
  | { readonly type: "truncate"; readonly offset: number }
  | { readonly type: "snapshot" };

/**
 * Parses the `--repair-wal` value: a byte offset or `snapshot`.
 *
 * @example
 * ```ts
 * import { parseRepairAction } from "./repair_data_dir.ts";
 * parseRepairAction("1234"); // { type: "truncate", offset: 1234 }
 * parseRepairAction("snapshot"); // { type: "snapshot" }
 * ```
 */
export function parseRepairAction(value: string): RepairAction | undefined {
  if (value === "snapshot") return { type: "snapshot" };
  const n = Number(value);
  return /^\d+$/.test(value) && Number.isSafeInteger(n)
    ? { type: "truncate", offset: n }
    : undefined;
}

/**
 * Repairs a data directory as the refusal message of {@link openDataDir} proposed: copies
 * `wal.log` to `wal.log.damaged-<time>`, then rewrites the log keeping only the intact
 * records before the offset (or none, for `snapshot`). The resourceVersion counter resumes
 * 1,000 past the highest one the old files mention, so a version clients saw from a dropped
 * write is never handed out again. Returns what it did, to print.
 *
 * Like `etcdctl snapshot restore` or PostgreSQL's `pg_resetwal`: the writes dropped here
 * are lost for good; it is the operator's call, never automatic.
 *
 * @example
 * ```ts
 * import { repairDataDir } from "./repair_data_dir.ts";
 * const r = repairDataDir(await Deno.makeTempDir(), { type: "snapshot" });
 * r._tag; // "Right": an empty directory gets an empty log
 * ```
 */
export function repairDataDir(
  dir: string,
  action: RepairAction,
  now: () => number = Date.now,
): Either<DataDirError, string> {
  const paths = dataDirPaths(dir);
  const bad = (message: string) => E.left<DataDirError>({ type: "corrupt", message });
  let lock: Deno.FsFile | undefined;
  try {
    const locked = lockDataDir(dir);
    if (E.isLeft(locked)) return locked;
    lock = locked.right;
    let base = 0;
    let kept: Uint8Array[] = [];
    let records = 0;
    /** The highest resourceVersion the snapshot or the old log mentions. */
    let seenRv = 0;
    let walBytes: Uint8Array | undefined;
    try {
      walBytes = Deno.readFileSync(paths.wal);
      seenRv = highestRv(walBytes);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    if (action.type === "snapshot") {
      try {
        const s = decodeSnapshot(Deno.readFileSync(paths.snapshot));
        if (E.isLeft(s)) return bad(`snapshot ${paths.snapshot}: ${s.left}`);
        base = s.right.seq;
        seenRv = Math.max(seenRv, s.right.rv);
      } catch (e) {
        if (!(e instanceof Deno.errors.NotFound)) throw e;
      }
    } else {
      const bytes = walBytes ?? new Uint8Array();
      const prefix = new Uint8Array(action.offset + 1);
      prefix.set(bytes.subarray(0, action.offset));
      const d = decodeWal(prefix);
      if (d.type === "corrupt" || d.torn || d.end !== action.offset || d.values.length === 0) {
        return bad(
          `byte ${action.offset} of ${paths.wal} is not the end of an intact record; ` +
            `use the offset the refusal named (or ${repairCommand(dir, "snapshot")})`,
        );
      }
      const header = d.values[0];
      base = isPlainObject(header) && typeof header.base === "number" ? header.base : 0;
      const headerEnd = bytes.indexOf(0x0a) + 1;
      kept = [bytes.slice(headerEnd, action.offset)];
      records = d.values.length - 1;
    }
    let copy = "";
    try {
      copy = `${paths.wal}.damaged-${new Date(now()).toISOString().replaceAll(":", "")}`;
      Deno.copyFileSync(paths.wal, copy);
      Deno.chmodSync(copy, FILE_MODE);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
      copy = "";
    }
    // The dropped records may have handed out resourceVersions (even ones damaged past
    // reading): the next one starts well above anything the old files mention.
    createWalFile(paths.wal, dir, base, kept, seenRv + RV_MARGIN);
    lock.truncateSync(0);
    lock.writeSync(new TextEncoder().encode(INITIALIZED));
    lock.syncSync();
    const what = action.type === "snapshot"
      ? `started a new write-ahead log after log record ${base} (the snapshot's)`
      : `kept the ${records} records before byte ${action.offset} of the write-ahead log`;
    return E.right(`repaired data dir ${dir}: ${what}${copy ? `; the old log is ${copy}` : ""}`);
  } catch (cause) {
    const message = `cannot repair data dir ${dir}: ${
      cause instanceof Error ? cause.message : cause
    }`;
    return E.left({ type: "io", message, cause });
  } finally {
    if (lock) releaseDataDirLock(lock);
  }
}
