/**
 * Storage sizes: a resource quantity (`"1Gi"`, `"500M"`) as bytes, and bytes as the shortest
 * exact binary quantity — what a snapshot's `restoreSize` carries.
 *
 * @module
 */

import { quantityValue } from "../storage/quantity.ts";

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
  const value = quantityValue(quantity ?? "");
  return Number.isFinite(value) && value >= 0 ? Math.ceil(value) : undefined;
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
  const units = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i];
    const f = 2 ** (10 * (i + 1));
    if (bytes >= f && bytes % f === 0) return `${bytes / f}${unit}`;
  }
  return String(bytes);
}
