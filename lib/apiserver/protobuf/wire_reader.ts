/**
 * `WireReader`: reads the protobuf wire format (varints, fixed 32/64-bit, length-delimited
 * bytes) from a byte array, with 64-bit varints kept exact.
 *
 * @module
 */

/** A protobuf value on the wire, as read (before its field's type gives it meaning). */
export type WireValue =
  | { readonly wire: 0; readonly value: bigint }
  | { readonly wire: 1; readonly bytes: Uint8Array }
  | { readonly wire: 2; readonly bytes: Uint8Array }
  | { readonly wire: 5; readonly bytes: Uint8Array };

/**
 * Reads fields one by one; every read checks bounds and throws an `Error` naming what is
 * malformed.
 *
 * @example
 * ```ts
 * import { WireReader } from "./wire_reader.ts";
 * const r = new WireReader(new Uint8Array([0x08, 0x96, 0x01]));
 * r.field(); // { number: 1, value: { wire: 0, value: 150n } }
 * ```
 */
export class WireReader {
  #pos = 0;
  constructor(readonly buf: Uint8Array) {}

  /** Whether every byte was read. */
  done(): boolean {
    return this.#pos >= this.buf.length;
  }

  /** The next varint (up to 64 bits). */
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.#pos >= this.buf.length) throw new Error("truncated varint");
      const b = this.buf[this.#pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 63n) throw new Error("varint too long");
    }
  }

  #take(n: number): Uint8Array {
    if (n < 0 || this.#pos + n > this.buf.length) throw new Error("truncated field");
    const out = this.buf.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return out;
  }

  /** The next field: its number and raw value. */
  field(): { number: number; value: WireValue } {
    const tag = this.varint();
    const number = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (number === 0) throw new Error("field number 0");
    switch (wire) {
      case 0:
        return { number, value: { wire, value: this.varint() } };
      case 1:
        return { number, value: { wire, bytes: this.#take(8) } };
      case 2:
        return { number, value: { wire, bytes: this.#take(Number(this.varint())) } };
      case 5:
        return { number, value: { wire, bytes: this.#take(4) } };
      default:
        throw new Error(`unsupported wire type ${wire} (field ${number})`);
    }
  }
}
