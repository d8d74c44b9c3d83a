/**
 * Reads back a v2 write-ahead log file (see {@link walFrame}): a preallocated, zero-filled
 * file whose records are followed by free space.
 *
 * The tail rule, which tells an append a crash interrupted (never acknowledged: dropped)
 * from damage to acknowledged data (refused):
 * - A record is acknowledged only after all its bytes are written and fdatasync'ed, and the
 *   file is extended (and synced) before a record that would not fit. So a crash can leave
 *   at most the last record incomplete, and only as whole sectors that still read as zeros;
 *   the file never ends inside a record and always ends in free (zero) space.
 * - The last record is *torn* (dropped) only if it is followed by nothing but zeros, has no
 *   line break before its end, and one of its sectors is all zeros: with its length
 *   readable, any sector's share of it; with its header cut by a lost sector, that sector.
 * - Anything else is *damage*, refused with its byte offset: a complete record with a wrong
 *   checksum, a record running past the end of the file, data after the end of the log, a
 *   file without free space at its end, a malformed header without zero bytes.
 *
 * A single flipped bit can never pass for a torn record (a zero sector needs two zero bytes,
 * or one where a record can only hold a hex digit or its line break, which have two bits
 * set), and a cut file always shows.
 *
 * @module
 */
import { readWalHeader, SECTOR_BYTES, WAL_HEADER_BYTES, walRecordIntact } from "./wal_frame.ts";

/** Outcome of {@link decodeWal}. */
export type DecodedWal =
  | {
    readonly type: "ok";
    /** The JSON values of the intact records, in order (the log's header record first). */
    readonly values: readonly unknown[];
    /** Where the free space starts: records end here. */
    readonly end: number;
    /** The dropped torn last record, if any (its bytes lie in `[offset, file end)`). */
    readonly torn?: { readonly offset: number; readonly reason: string };
  }
  | { readonly type: "corrupt"; readonly offset: number; readonly reason: string };

const decoder = new TextDecoder("utf-8", { fatal: true });

function allZero(bytes: Uint8Array, from: number, to = bytes.length): boolean {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Whether some sector's share of `[from, to)` is all zeros. */
function hasZeroSector(bytes: Uint8Array, from: number, to: number): boolean {
  for (let s = from - (from % SECTOR_BYTES); s < to; s += SECTOR_BYTES) {
    if (allZero(bytes, Math.max(s, from), Math.min(s + SECTOR_BYTES, to))) return true;
  }
  return false;
}

/**
 * An unreadable header at `at` is torn if a sector was lost inside it: from its first zero
 * byte (the record's first byte, or a sector's) to that sector's end all is zero, and what
 * follows holds at most one line break, at the end of the data.
 */
function tornWithoutHeader(bytes: Uint8Array, at: number): boolean {
  const z = at + bytes.subarray(at, at + WAL_HEADER_BYTES).indexOf(0);
  if (z < at || (z > at && z % SECTOR_BYTES !== 0)) return false;
  const sectorEnd = (Math.floor(z / SECTOR_BYTES) + 1) * SECTOR_BYTES;
  if (!allZero(bytes, z, Math.min(sectorEnd, bytes.length))) return false;
  const nl = bytes.indexOf(0x0a, at);
  return nl < 0 || allZero(bytes, nl + 1);
}

/**
 * Decodes a v2 log file: its intact records, where its free space starts, and a torn last
 * record if there is one; or the first damage, with its byte offset.
 *
 * @example
 * ```ts
 * import { decodeWal } from "./decode_wal.ts";
 * import { walFrame } from "./wal_frame.ts";
 * const file = new Uint8Array(1024);
 * file.set(walFrame({ a: 1 }));
 * const d = decodeWal(file);
 * d.type === "ok" && d.values; // [{ a: 1 }]
 * ```
 */
export function decodeWal(bytes: Uint8Array): DecodedWal {
  const values: unknown[] = [];
  const corrupt = (offset: number, reason: string): DecodedWal => ({
    type: "corrupt",
    offset,
    reason,
  });
  let pos = 0;
  for (;;) {
    if (pos >= bytes.length) {
      return corrupt(pos, "the file ends without free space after its last record (cut?)");
    }
    const header = readWalHeader(bytes, pos);
    if (!header) {
      if (allZero(bytes, pos)) return { type: "ok", values, end: pos };
      if (tornWithoutHeader(bytes, pos)) {
        return { type: "ok", values, end: pos, torn: { offset: pos, reason: "partial header" } };
      }
      return corrupt(
        pos,
        allZero(bytes, pos, pos + 1) ? "data after the end of the log" : "bad record header",
      );
    }
    const end = pos + WAL_HEADER_BYTES + header.length;
    if (end >= bytes.length) {
      return corrupt(
        pos,
        `the record's ${header.length} bytes run past the end of the file (cut?)`,
      );
    }
    if (walRecordIntact(bytes, pos, header)) {
      try {
        values.push(JSON.parse(decoder.decode(bytes.subarray(pos + WAL_HEADER_BYTES, end))));
      } catch {
        return corrupt(pos, "the record is not JSON although its checksum matches");
      }
      pos = end + 1;
      continue;
    }
    const torn = hasZeroSector(bytes, pos, end + 1) &&
      !bytes.subarray(pos, end).includes(0x0a) && allZero(bytes, end + 1);
    if (torn) {
      return { type: "ok", values, end: pos, torn: { offset: pos, reason: "zero-filled sector" } };
    }
    const reason = bytes[end] !== 0x0a || bytes.subarray(pos, end).includes(0x0a)
      ? "the record's length does not match its line break"
      : "checksum mismatch";
    return corrupt(pos, reason);
  }
}
