/**
 * The UTF-8 length of a string without encoding it (no allocation).
 *
 * @module
 */

/** Any character outside ASCII. */
const nonAscii = /[\u0080-\uffff]/;

/**
 * Bytes `text` takes in UTF-8 (Go's `len` of the same string), computed without encoding.
 *
 * @example
 * ```ts
 * import { utf8Length } from "./utf8_length.ts";
 * utf8Length("héllo"); // 6
 * ```
 */
export function utf8Length(text: string): number {
  if (!nonAscii.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) (n += 4, i++);
      else n += 3;
    } else n += 3;
  }
  return n;
}
