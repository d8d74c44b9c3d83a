/**
 * The store key of any object with metadata.
 *
 * @module
 */
import { type ObjectKey, objectKey } from "../core/key.ts";
import type { HasMetadata } from "../core/has_metadata.ts";

/** `objectKey()` for {@link HasMetadata} (same format: `namespace/name` or `name`). */
export function keyOfObject(obj: HasMetadata): ObjectKey {
  const meta = obj.metadata;
  return objectKey(meta?.namespace, meta?.name ?? "");
}
