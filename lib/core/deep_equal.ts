/**
 * Structural equality of JSON values.
 *
 * @module
 */

/**
 * Whether two JSON values are structurally equal (key order ignored; `undefined` object
 * members count as absent).
 *
 * @example
 * ```ts
 * import { deepEqual } from "../../mod.ts";
 * deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); // true
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>, bo = b as Record<string, unknown>;
  let na = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    na++;
    if (!deepEqual(ao[k], bo[k])) return false;
  }
  let nb = 0;
  for (const k in bo) if (bo[k] !== undefined) nb++;
  return na === nb;
}
