/**
 * A minimal DER (ASN.1 distinguished encoding) writer: just the types an X.509 certificate
 * needs.
 *
 * @module
 */

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function tlv(tag: number, content: Uint8Array): Uint8Array {
  const n = content.length;
  let len: number[];
  if (n < 0x80) len = [n];
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = [0x80 | bytes.length, ...bytes];
  }
  return concat([new Uint8Array([tag, ...len]), content]);
}

const ascii = (s: string) => new TextEncoder().encode(s);

/**
 * DER encoders, each returning the complete encoding (tag, length, content).
 *
 * @example
 * ```ts
 * import { der } from "./der.ts";
 * der.seq(der.int(new Uint8Array([0x80])), der.bool(true)); // 30 07 02 02 00 80 01 01 ff
 * der.oid("1.2.840.10045.2.1"); // 06 07 2a 86 48 ce 3d 02 01
 * ```
 */
export const der = {
  /** SEQUENCE of already-encoded items. */
  seq: (...items: Uint8Array[]): Uint8Array => tlv(0x30, concat(items)),
  /** SET of already-encoded items (callers keep DER order: one item per set here). */
  set: (...items: Uint8Array[]): Uint8Array => tlv(0x31, concat(items)),
  /** INTEGER from an unsigned big-endian magnitude. */
  int: (magnitude: Uint8Array): Uint8Array => {
    let i = 0;
    while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
    const m = magnitude.subarray(i);
    return tlv(0x02, m.length && m[0] & 0x80 ? concat([new Uint8Array([0]), m]) : m);
  },
  /** Small non-negative INTEGER. */
  small: (n: number): Uint8Array => der.int(new Uint8Array([n >> 8 & 0xff, n & 0xff])),
  /** BOOLEAN. */
  bool: (b: boolean): Uint8Array => tlv(0x01, new Uint8Array([b ? 0xff : 0])),
  /** OBJECT IDENTIFIER from dotted form. */
  oid: (dotted: string): Uint8Array => {
    const [a, b, ...rest] = dotted.split(".").map(Number);
    const out = [40 * a + b];
    for (const v of rest) {
      const groups = [v & 0x7f];
      for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) {
        groups.unshift(0x80 | (x & 0x7f));
      }
      out.push(...groups);
    }
    return tlv(0x06, new Uint8Array(out));
  },
  /** UTF8String. */
  utf8: (s: string): Uint8Array => tlv(0x0c, new TextEncoder().encode(s)),
  /** UTCTime (years 1950–2049) at second precision. */
  utcTime: (d: Date): Uint8Array => {
    const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
    return tlv(0x17, ascii(iso.slice(2, 19).replace(/[-T:]/g, "") + "Z"));
  },
  /** BIT STRING of whole bytes, or with `unusedBits` trailing bits unused. */
  bits: (bytes: Uint8Array, unusedBits = 0): Uint8Array =>
    tlv(0x03, concat([new Uint8Array([unusedBits]), bytes])),
  /** OCTET STRING. */
  octets: (bytes: Uint8Array): Uint8Array => tlv(0x04, bytes),
  /** `[n] EXPLICIT` wrapper of one encoded item. */
  explicit: (n: number, item: Uint8Array): Uint8Array => tlv(0xa0 | n, item),
  /** `[n] IMPLICIT` primitive value. */
  implicit: (n: number, bytes: Uint8Array): Uint8Array => tlv(0x80 | n, bytes),
};
