/**
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial), to detect torn or damaged log records.
 *
 * @module
 */

let table: Uint32Array | undefined;

/** The byte table, computed on first use (not at import: most servers keep no log). */
function crcTable(): Uint32Array {
  if (table) return table;
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return table = t;
}

/**
 * The CRC-32 of some bytes, as an unsigned 32-bit number.
 *
 * @example
 * ```ts
 * import { crc32 } from "./crc32.ts";
 * crc32(new TextEncoder().encode("123456789")).toString(16); // "cbf43926"
 * ```
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
