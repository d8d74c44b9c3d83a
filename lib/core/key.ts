/**
 * One key format everywhere (queue, store, plan, logs, metrics): `namespace/name` for
 * namespaced objects, `name` for cluster-scoped ones.
 *
 * @module
 */
import type { HasMetadata } from "./has_metadata.ts";

/** `namespace/name` or `name`. */
export type ObjectKey = string;

/**
 * The key of an object (`namespace/name`, or `name` when it has no namespace), or the key
 * built from a namespace and a name.
 *
 * Like client-go's `cache.MetaNamespaceKeyFunc` and `types.NamespacedName.String()` in one
 * function; {@link splitKey} is its inverse.
 *
 * @param obj an object with metadata (or the namespace, possibly undefined, when `name` is given)
 * @param name the name, when the first argument is a namespace
 * @returns the key
 * @example
 * ```ts
 * import { objectKey } from "../../mod.ts";
 * objectKey({ metadata: { namespace: "default", name: "web" } }); // "default/web"
 * objectKey({ metadata: { name: "node-1" } }); // "node-1"
 * objectKey("default", "web"); // "default/web"
 * objectKey(undefined, "node-1"); // "node-1"
 * ```
 */
export function objectKey(obj: HasMetadata): ObjectKey;
/**
 * The key of the object named `name` in `namespace` (undefined or `""` for a cluster-scoped
 * object).
 *
 * @param namespace the namespace
 * @param name the name
 * @returns the key
 * @example
 * ```ts
 * import { objectKey } from "../../mod.ts";
 * objectKey("default", "web"); // "default/web"
 * ```
 */
export function objectKey(namespace: string | undefined, name: string): ObjectKey;
export function objectKey(first: HasMetadata | string | undefined, name?: string): ObjectKey {
  if (typeof first === "object") {
    const ns = first.metadata?.namespace;
    const n = first.metadata?.name ?? "";
    return ns ? `${ns}/${n}` : n;
  }
  return first ? `${first}/${name ?? ""}` : name ?? "";
}

/**
 * Splits a key into namespace (possibly undefined) and name.
 *
 * @example
 * ```ts
 * import { splitKey } from "../../mod.ts";
 * splitKey("default/web"); // { namespace: "default", name: "web" }
 * ```
 */
export function splitKey(key: ObjectKey): { namespace?: string; name: string } {
  const i = key.indexOf("/");
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
