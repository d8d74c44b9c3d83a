/**
 * Frames one JSON value as a self-checking line: `<crc32 as 8 hex digits> <json>\n`.
 * JSON text never holds a raw newline, so records split on `\n`, and a record cut short
 * by a crash fails its checksum or lacks its newline.
 *
 * @module
 */
import { crc32 } from "./crc32.ts";

const encoder = new TextEncoder();

/**
 * Serializes a value into one framed record line (UTF-8 bytes).
 *
 * @example
 * ```ts
 * import { frameRecord } from "./frame_record.ts";
 * new TextDecoder().decode(frameRecord({ a: 1 })); // "561bacaf {\"a\":1}\n"
 * ```
 */
export function frameRecord(value: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(value));
  const out = new Uint8Array(body.length + 10);
  out.set(encoder.encode(crc32(body).toString(16).padStart(8, "0")), 0);
  out[8] = 0x20;
  out.set(body, 9);
  out[out.length - 1] = 0x0a;
  return out;
}
