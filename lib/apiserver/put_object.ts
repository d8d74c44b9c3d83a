/**
 * The storage commit of a write with kube-apiserver's size rule: an object too large to
 * store is retried without its managedFields (which can be large), then refused with 413.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { fail } from "./http_util.ts";
import type { ServerContext } from "./context.ts";
import { ObjectTooLarge } from "./storage.ts";

/**
 * Stores `object` at `key` of `storageKey`; returns the stored object and its JSON (which
 * the commit serialized once, for the response to reuse).
 *
 * @example
 * ```ts ignore
 * const { stored, json } = putObject(ctx, "/configmaps", "default/a", object);
 * ```
 */
export function putObject(
  ctx: ServerContext,
  storageKey: string,
  key: string,
  object: KubeObject,
): { stored: KubeObject; json?: string } {
  const put = (o: KubeObject) => {
    const stored = ctx.storage.put(storageKey, key, o);
    return { stored, json: ctx.storage.get(storageKey, key)?.json };
  };
  try {
    return put(object);
  } catch (e) {
    if (!(e instanceof ObjectTooLarge)) throw e;
    if (object.metadata?.managedFields) {
      const { managedFields: _mf, ...meta } = object.metadata;
      try {
        return put({ ...object, metadata: meta });
      } catch (again) {
        if (!(again instanceof ObjectTooLarge)) throw again;
      }
    }
    fail("RequestEntityTooLarge", e.message);
  }
}
