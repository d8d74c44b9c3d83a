/**
 * One key format everywhere (queue, store, plan, logs, metrics): `namespace/name` for
 * namespaced objects, `name` for cluster-scoped ones.
 *
 * @module
 */
import type { KubeObject } from "./object.ts";

/** `namespace/name` or `name`. */
export type ObjectKey = string;

/**
 * The key of an object.
 *
 * @example
 * ```ts
 * import { objectKey } from "./key.ts";
 * objectKey({ metadata: { namespace: "default", name: "web" } }); // "default/web"
 * objectKey({ metadata: { name: "node-1" } }); // "node-1"
 * ```
 */
export function objectKey(obj: KubeObject): ObjectKey {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

/**
 * Builds a key from its parts.
 *
 * @example
 * ```ts
 * import { keyOf } from "./key.ts";
 * keyOf("default", "web"); // "default/web"
 * ```
 */
export function keyOf(namespace: string | undefined, name: string): ObjectKey {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * Splits a key into namespace (possibly undefined) and name.
 *
 * @example
 * ```ts
 * import { splitKey } from "./key.ts";
 * splitKey("default/web"); // { namespace: "default", name: "web" }
 * ```
 */
export function splitKey(key: ObjectKey): { namespace?: string; name: string } {
  const i = key.indexOf("/");
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
