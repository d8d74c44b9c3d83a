/**
 * RFC 7386 JSON Merge Patch (`application/merge-patch+json`) and its inverse.
 *
 * @module
 */
import type { Json, JsonObject } from "../../core/object.ts";
import { copyObject, deepEqual, hasKey, isJsonObject, setKey } from "./_json.ts";

/**
 * Applies an RFC 7386 merge patch: objects merge recursively, `null` deletes a key, arrays
 * and every other non-object patch value replace the target wholesale.
 *
 * Like `jsonpatch.MergePatch` in kube-apiserver; works for every kind including custom
 * resources. Never fails: any JSON value is a valid merge patch.
 *
 * Guarantees: never mutates its inputs. Caveat: the result shares unchanged subtrees with
 * `doc` and inserted subtrees with `patch` (structural sharing, linear in the patch size);
 * deep-clone it before mutating.
 *
 * @param doc the current object
 * @param patch the merge patch
 * @returns the patched value
 *
 * @example
 * ```ts
 * import { applyMergePatch } from "./merge_patch.ts";
 * applyMergePatch({ metadata: { labels: { env: "a", tier: "x" } } }, {
 *   metadata: { labels: { env: null, tier: "web" } },
 * });
 * // { metadata: { labels: { tier: "web" } } }
 * ```
 */
export function applyMergePatch(doc: Json | undefined, patch: Json): Json {
  if (!isJsonObject(patch)) return patch;
  const out: JsonObject = isJsonObject(doc) ? copyObject(doc) : {};
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete out[k];
    } else if (isJsonObject(v)) {
      setKey(out, k, applyMergePatch(hasKey(out, k) ? out[k] : undefined, v));
    } else {
      setKey(out, k, v);
    }
  }
  return out;
}

/**
 * The minimal merge patch that turns `from` into `to`: unchanged keys are left out, removed
 * keys become `null`, changed objects recurse, anything else is replaced.
 *
 * Guarantees: `applyMergePatch(from, createMergePatch(from, to))` deep-equals `to`, provided
 * no object inside `to` holds a `null` value (merge patch cannot express a stored `null`).
 * When `from` equals `to`, the patch is `{}`.
 *
 * @param from the current value
 * @param to the desired value
 * @returns a merge patch (shares subtrees with `to`)
 *
 * @example
 * ```ts
 * import { createMergePatch } from "./merge_patch.ts";
 * createMergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 5 } });
 * // { b: { c: 5, d: null } }
 * ```
 */
export function createMergePatch(from: Json, to: Json): Json {
  if (!isJsonObject(from) || !isJsonObject(to)) return to;
  const patch: JsonObject = {};
  for (const k of Object.keys(from)) if (!hasKey(to, k)) setKey(patch, k, null);
  for (const k of Object.keys(to)) {
    const t = to[k];
    if (!hasKey(from, k)) {
      setKey(patch, k, t);
      continue;
    }
    const f = from[k];
    if (isJsonObject(f) && isJsonObject(t)) {
      const sub = createMergePatch(f, t) as JsonObject;
      if (Object.keys(sub).length > 0) setKey(patch, k, sub);
    } else if (!deepEqual(f, t)) {
      setKey(patch, k, t);
    }
  }
  return patch;
}
