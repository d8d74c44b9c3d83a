/**
 * File operations of the v2 write-ahead log: creating a preallocated log atomically,
 * growing it, and the file modes of a data directory (private to its owner).
 *
 * @module
 */
import { walFrame } from "./wal_frame.ts";

/** The log file is preallocated in multiples of this; its size is always one. */
export const WAL_SEGMENT_BYTES = 1024 * 1024;

/** The format name in the log's header record. */
export const WAL_FORMAT = "kubefold-wal/v2";

/** Mode of data files: readable by the owner only (they hold Secrets). */
export const FILE_MODE = 0o600;

/** Mode of a data directory the server creates. */
export const DIR_MODE = 0o700;

/** Writes all of `bytes` at the file's current position. */
export function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length;) off += file.writeSync(bytes.subarray(off));
}

/** fsyncs a directory so a rename in it is durable (best effort where unsupported). */
export function syncDir(dir: string): void {
  try {
    using d = Deno.openSync(dir, { read: true });
    d.syncSync();
  } catch {
    // Not every platform can sync a directory; the rename is still atomic.
  }
}

/** The smallest log size (a multiple of the segment) with room for `needed` bytes. */
export function walSizeFor(needed: number, current = 0): number {
  let size = Math.max(current, WAL_SEGMENT_BYTES);
  while (size < needed) size *= 2;
  return Math.ceil(size / WAL_SEGMENT_BYTES) * WAL_SEGMENT_BYTES;
}

/**
 * Replaces `path` atomically by a new log: its header record (`base`: the log record the
 * snapshot beside it ends with; `rvFloor`: resourceVersions up to it may have been handed
 * out, after a repair dropped records), then `records` (already framed), then zeros up to a
 * whole number of segments; written to a temporary file, synced, renamed, the directory
 * synced.
 *
 * @example
 * ```ts
 * import { createWalFile } from "./wal_file.ts";
 * const dir = await Deno.makeTempDir();
 * createWalFile(`${dir}/wal.log`, dir, 0);
 * Deno.statSync(`${dir}/wal.log`).size; // 1048576
 * ```
 */
export function createWalFile(
  path: string,
  dir: string,
  base: number,
  records: readonly Uint8Array[] = [],
  rvFloor?: number,
): void {
  const tmp = `${path}.tmp`;
  const header = walFrame({ format: WAL_FORMAT, base, ...(rvFloor ? { rvFloor } : {}) });
  let used = header.length;
  {
    using f = Deno.openSync(tmp, { write: true, create: true, truncate: true, mode: FILE_MODE });
    writeAll(f, header);
    for (const r of records) {
      writeAll(f, r);
      used += r.length;
    }
    f.truncateSync(walSizeFor(used + 1));
    f.syncSync();
  }
  Deno.renameSync(tmp, path);
  syncDir(dir);
}

/**
 * Makes a data directory's own files private (0600) if an older version left them
 * readable by others.
 */
export function restrictModes(paths: readonly string[]): void {
  if (Deno.build.os === "windows") return;
  for (const p of paths) {
    try {
      if (((Deno.statSync(p).mode ?? 0) & 0o077) !== 0) Deno.chmodSync(p, FILE_MODE);
    } catch {
      // Missing, or not ours to change: nothing to tighten.
    }
  }
}
