/**
 * The record frame of the write-ahead log (format v2): a header that states the record's
 * length and checksum, then the JSON, then a line break:
 *
 * ```
 * <crc32: 8 hex> <length: 8 hex> <json>\n
 * ```
 *
 * The checksum covers everything after it (the length field, the space and the JSON), so a
 * damaged length is caught like damaged data. JSON text holds no raw line break and no zero
 * byte, so a valid record has exactly one `\n` (its last byte) and no zero byte: the log's
 * zero-filled free space can never be mistaken for data.
 *
 * @module
 */
import { crc32 } from "./crc32.ts";

/** Bytes before the JSON: checksum, space, length, space. */
export const WAL_HEADER_BYTES = 18;

/** The unit a crash persists or loses as a whole (a disk sector). */
export const SECTOR_BYTES = 512;

const encoder = new TextEncoder();

const hex8 = (n: number) => n.toString(16).padStart(8, "0");

/**
 * Serializes one value into a v2 log record (UTF-8 bytes).
 *
 * @example
 * ```ts
 * import { walFrame } from "./wal_frame.ts";
 * new TextDecoder().decode(walFrame({ a: 1 })).slice(8); // " 00000007 {\"a\":1}\n"
 * ```
 */
export function walFrame(value: unknown): Uint8Array {
  return walFrameOfJson(JSON.stringify(value));
}

/** {@link walFrame} of an already serialized JSON text. */
export function walFrameOfJson(json: string): Uint8Array {
  const body = encoder.encode(json);
  const out = new Uint8Array(body.length + WAL_HEADER_BYTES + 1);
  out.set(encoder.encode(` ${hex8(body.length)} `), 8);
  out.set(body, WAL_HEADER_BYTES);
  out[out.length - 1] = 0x0a;
  out.set(encoder.encode(hex8(crc32(out, 8, out.length - 1))), 0);
  return out;
}

function hexDigit(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x61 + 10;
  return -1;
}

function hexAt(bytes: Uint8Array, at: number): number | undefined {
  let n = 0;
  for (let i = 0; i < 8; i++) {
    const d = hexDigit(bytes[at + i]);
    if (d < 0) return undefined;
    n = n * 16 + d;
  }
  return n;
}

/**
 * The checksum and length a record header at `at` states, or `undefined` when the bytes
 * there are not a well-formed header (or the file ends inside it).
 *
 * @example
 * ```ts
 * import { readWalHeader, walFrame } from "./wal_frame.ts";
 * readWalHeader(walFrame([1]), 0)?.length; // 3
 * ```
 */
export function readWalHeader(
  bytes: Uint8Array,
  at: number,
): { readonly crc: number; readonly length: number } | undefined {
  if (at + WAL_HEADER_BYTES > bytes.length) return undefined;
  if (bytes[at + 8] !== 0x20 || bytes[at + 17] !== 0x20) return undefined;
  const crc = hexAt(bytes, at);
  const length = hexAt(bytes, at + 9);
  return crc === undefined || length === undefined ? undefined : { crc, length };
}

/**
 * Whether the record at `at`, whose header states `crc` and `length`, is intact: its checksum
 * matches, it ends in its line break, and holds no other.
 */
export function walRecordIntact(
  bytes: Uint8Array,
  at: number,
  header: { readonly crc: number; readonly length: number },
): boolean {
  const end = at + WAL_HEADER_BYTES + header.length;
  if (end >= bytes.length || bytes[end] !== 0x0a) return false;
  if (bytes.subarray(at, end).includes(0x0a)) return false;
  return crc32(bytes, at + 8, end) === header.crc;
}
