/**
 * Test helpers that damage a v2 write-ahead log the way a crash (a torn append) or an
 * accident (flipped bits, cut bytes) would.
 *
 * @module
 */
import {
  readWalHeader,
  SECTOR_BYTES,
  WAL_HEADER_BYTES,
} from "../../../lib/apiserver/persistence/mod.ts";

/** Byte ranges `[start, end)` of the records of a log (its header record first). */
export function recordRanges(bytes: Uint8Array): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let pos = 0;;) {
    const h = readWalHeader(bytes, pos);
    if (!h) return out;
    const end = pos + WAL_HEADER_BYTES + h.length + 1;
    out.push({ start: pos, end });
    pos = end;
  }
}

/**
 * A copy of the log as a crash inside the append of its last record could leave it: the
 * record's share of its last sector never reached the disk (zeros). The record must span
 * two sectors or more, so its header survives.
 */
export function tearLastRecord(bytes: Uint8Array): Uint8Array {
  const last = recordRanges(bytes).at(-1)!;
  const from = Math.max(last.start, Math.floor((last.end - 1) / SECTOR_BYTES) * SECTOR_BYTES);
  if (from === last.start) throw new Error("the last record fits in one sector: use a bigger one");
  const out = bytes.slice();
  out.fill(0, from, last.end);
  return out;
}

/** Tears the last record of the log file at `path` in place; returns the record's offset. */
export async function tearLastRecordOf(path: string): Promise<number> {
  const bytes = await Deno.readFile(path);
  await Deno.writeFile(path, tearLastRecord(bytes));
  return recordRanges(bytes).at(-1)!.start;
}

/** The JSON value of the last record of a log. */
export function lastRecordValue(bytes: Uint8Array): unknown {
  const last = recordRanges(bytes).at(-1)!;
  return JSON.parse(
    new TextDecoder().decode(bytes.subarray(last.start + WAL_HEADER_BYTES, last.end - 1)),
  );
}
