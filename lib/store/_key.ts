/**
 * The store key of any object with metadata.
 *
 * @module
 */
import { keyOf, type ObjectKey } from "../core/key.ts";
import type { HasMetadata } from "./has_metadata.ts";

/** `objectKey()` for {@link HasMetadata} (same format: `namespace/name` or `name`). */
export function keyOfObject(obj: HasMetadata): ObjectKey {
  const meta = obj.metadata;
  return keyOf(meta?.namespace, meta?.name ?? "");
}
