/**
 * Reads back a file of {@link frameRecord} lines, telling a torn last record (an interrupted
 * append: dropped) from damage in the middle of the file (refused).
 *
 * @module
 */
import { crc32 } from "./crc32.ts";

/** Outcome of {@link decodeFrames}. */
export type DecodedFrames =
  | {
    readonly type: "ok";
    /** The parsed JSON values of the intact records, in order. */
    readonly values: readonly unknown[];
    /** Length of the intact prefix in bytes: the file is valid up to here. */
    readonly validBytes: number;
    /** The dropped last record, when the file ends in an incomplete or damaged one. */
    readonly torn?: { readonly offset: number; readonly length: number; readonly reason: string };
  }
  | { readonly type: "corrupt"; readonly offset: number; readonly reason: string };

const decoder = new TextDecoder("utf-8", { fatal: true });

function hexDigit(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x61 + 10;
  return -1;
}

function checkLine(bytes: Uint8Array, start: number, end: number): unknown | string {
  if (end - start < 10 || bytes[start + 8] !== 0x20) return "bad framing";
  let want = 0;
  for (let i = 0; i < 8; i++) {
    const d = hexDigit(bytes[start + i]);
    if (d < 0) return "bad framing";
    want = want * 16 + d;
  }
  if (crc32(bytes, start + 9, end) !== want) return "checksum mismatch";
  try {
    return { value: JSON.parse(decoder.decode(bytes.subarray(start + 9, end))) };
  } catch {
    return "invalid JSON";
  }
}

/**
 * Decodes framed records. The last record may be torn (no newline, bad checksum): it is left
 * out and reported in `torn`; a bad record followed by more data is `corrupt`.
 *
 * @example
 * ```ts
 * import { decodeFrames } from "./decode_frames.ts";
 * import { frameRecord } from "./frame_record.ts";
 * const bytes = new Uint8Array([...frameRecord(1), ...frameRecord(2)]);
 * const d = decodeFrames(bytes.subarray(0, bytes.length - 3));
 * d.type === "ok" && d.values; // [1]
 * ```
 */
export function decodeFrames(bytes: Uint8Array): DecodedFrames {
  const values: unknown[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const nl = bytes.indexOf(0x0a, pos);
    const end = nl < 0 ? bytes.length : nl;
    const checked = nl < 0 ? "missing newline" : checkLine(bytes, pos, end);
    if (typeof checked === "string") {
      if (nl >= 0 && nl + 1 < bytes.length) {
        return { type: "corrupt", offset: pos, reason: checked };
      }
      return {
        type: "ok",
        values,
        validBytes: pos,
        torn: { offset: pos, length: bytes.length - pos, reason: checked },
      };
    }
    values.push((checked as { value: unknown }).value);
    pos = end + 1;
  }
  return { type: "ok", values, validBytes: pos };
}
