/**
 * The ready-made transform that drops `metadata.managedFields`.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";

/**
 * Returns the object without `metadata.managedFields` (often a third of an object's size).
 *
 * Like controller-runtime's `TransformStripManagedFields`, but pure: it makes a shallow copy of
 * the object and of its metadata instead of mutating its input (the original becomes garbage
 * right away, so the heap holds only the smaller copy). Objects without managed fields are
 * returned as they are.
 *
 * @example
 * ```ts
 * import { stripManagedFields } from "../../mod.ts";
 * const slim = stripManagedFields({
 *   metadata: { name: "a", managedFields: [{ manager: "kubectl" }] },
 * });
 * slim.metadata?.managedFields; // undefined
 * ```
 */
export function stripManagedFields<T extends HasMetadata>(obj: T): T {
  const meta = obj.metadata;
  if (meta === undefined || meta.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest } as T;
}
