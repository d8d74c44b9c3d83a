/**
 * kube-apiserver's size limits of ConfigMap and Secret data (1 MiB of values in total,
 * `core.MaxSecretSize`), with its field errors.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import { utf8Length } from "../core/utf8_length.ts";

/** Most bytes a ConfigMap's or a Secret's values may hold together. */
export const MAX_DATA_BYTES = 1024 * 1024;

/** Bytes a base64 text decodes to. */
export function base64Bytes(text: string): number {
  const pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - pad;
}

function total(map: unknown, size: (v: string) => number): number {
  if (!isPlainObject(map)) return 0;
  let n = 0;
  for (const k in map) {
    const v = map[k];
    if (typeof v === "string") n += size(v);
  }
  return n;
}

const tooLong = (field: string): FieldError => ({
  type: "FieldValueTooLong",
  field,
  detail: `Too long: may not be more than ${MAX_DATA_BYTES} bytes`,
});

/**
 * The size error of a ConfigMap whose `data` and `binaryData` exceed 1 MiB (kube-apiserver
 * reports it at the field `[]`: the whole object).
 *
 * @example
 * ```ts
 * import { configMapSizeErrors } from "./data_size_limits.ts";
 * configMapSizeErrors({ data: { a: "x".repeat(2 ** 20 + 1) } })[0].detail;
 * // "Too long: may not be more than 1048576 bytes"
 * ```
 */
export function configMapSizeErrors(obj: KubeObject): FieldError[] {
  const binary = total(obj.binaryData, base64Bytes);
  const chars = total(obj.data, (v) => v.length);
  // A UTF-16 unit encodes to at most 3 bytes: encode only when the limit could be crossed.
  if (chars * 3 + binary <= MAX_DATA_BYTES) return [];
  const n = total(obj.data, utf8Length) + binary;
  return n > MAX_DATA_BYTES ? [tooLong("[]")] : [];
}

/** The size error of a Secret whose decoded `data` exceeds 1 MiB (at the field `data`). */
export function secretSizeErrors(obj: KubeObject): FieldError[] {
  return total(obj.data, base64Bytes) > MAX_DATA_BYTES ? [tooLong("data")] : [];
}

/** Standard base64 of bytes, in chunks (no call-stack limit on large values). */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}
