/**
 * Storage sizes: a resource quantity (`"1Gi"`, `"500M"`) as bytes, and bytes as the shortest
 * exact binary quantity — what a snapshot's `restoreSize` carries.
 *
 * @module
 */

const SUFFIX: Readonly<Record<string, number>> = {
  "": 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * The bytes a storage quantity stands for (rounded up), or undefined when it is not one.
 *
 * @example
 * ```ts
 * import { storageBytes } from "./storage_bytes.ts";
 * storageBytes("1Gi"); // 1073741824
 * storageBytes("1.5k"); // 1500
 * storageBytes("lots"); // undefined
 * ```
 */
export function storageBytes(quantity: string | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)([kMGTPE]i?|Ki)?\s*$/.exec(quantity ?? "");
  if (!m) return undefined;
  const factor = SUFFIX[m[2] ?? ""];
  return factor === undefined ? undefined : Math.ceil(Number(m[1]) * factor);
}

/**
 * Bytes as the largest binary unit that divides them exactly (`"1Gi"`, `"1536Mi"`, `"1000"`).
 *
 * @example
 * ```ts
 * import { formatBytes } from "./storage_bytes.ts";
 * formatBytes(1073741824); // "1Gi"
 * formatBytes(1000); // "1000"
 * ```
 */
export function formatBytes(bytes: number): string {
  for (const unit of ["Ei", "Pi", "Ti", "Gi", "Mi", "Ki"]) {
    const f = SUFFIX[unit];
    if (bytes >= f && bytes % f === 0) return `${bytes / f}${unit}`;
  }
  return String(bytes);
}
