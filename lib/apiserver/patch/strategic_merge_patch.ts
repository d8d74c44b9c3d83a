/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds.
 *
 * @module
 */
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";
import type { Json, JsonObject } from "../../core/object.ts";
import { copyObject, hasKey, isJsonObject, setKey } from "./_json.ts";
import { mergeList } from "./_list_merge.ts";
import { at, DELETE, Fail, type Merged, without } from "./_merge_result.ts";
import { readDirectives, retainKeys, setElementOrders } from "./_patch_directives.ts";
import { fieldSchema, type MergeSchema, type StructSchema } from "./merge_schema.ts";
import type { PatchError } from "./patch_error.ts";

const { left, right } = E;

/**
 * Applies a strategic merge patch to a built-in object, following the list strategies in
 * `schema` (see {@link strategicSchemaFor}).
 *
 * Like kube-apiserver's `strategicpatch.StrategicMergeMapPatch`, with these choices:
 * - maps merge recursively; `null` deletes; `{"$patch":"replace"}` replaces the map,
 *   `{"$patch":"delete"}` removes the field (the root becomes `{}`);
 * - keyed lists merge items by merge key (matched items merge recursively, new ones are
 *   appended); `{"<key>":"x","$patch":"delete"}` removes an item; an element
 *   `{"$patch":"replace"}` replaces the whole list with the other elements;
 * - primitive `setList`s union; `$deleteFromPrimitiveList/<field>` removes values first;
 * - other lists are replaced wholesale;
 * - `$setElementOrder/<field>` IS applied: the listed items are put in the listed order,
 *   within the positions they occupy; items not listed keep their positions;
 * - `$retainKeys` clears the keys of the original not listed (honoured wherever it appears);
 * - values for fields absent from the original are merged onto nothing, so nested `null`s
 *   and directives in them are resolved too;
 * - any other `$`-prefixed key is an unknown directive -> `malformedPatch`.
 *
 * Guarantees: never mutates inputs; linear in the sizes of the patch and the touched lists
 * (keyed lists are indexed once). Caveat: the result shares untouched subtrees with `doc`.
 *
 * @param doc the current object
 * @param patch the decoded patch body
 * @param schema the kind's merge schema
 * @returns the patched object, or a `malformedPatch` error naming the field
 *
 * @example
 * ```ts
 * import { applyStrategicMergePatch } from "./strategic_merge_patch.ts";
 * import { podSchema } from "./strategic_schemas.ts";
 * const pod = { spec: { containers: [{ name: "a", image: "a:1" }, { name: "b", image: "b:1" }] } };
 * applyStrategicMergePatch(pod, { spec: { containers: [{ name: "b", image: "b:2" }] } }, podSchema);
 * // right({ spec: { containers: [{ name: "a", image: "a:1" }, { name: "b", image: "b:2" }] } })
 * ```
 */
export function applyStrategicMergePatch(
  doc: Json,
  patch: unknown,
  schema: MergeSchema,
): Either<PatchError, Json> {
  if (!isJsonObject(patch)) {
    return left({
      type: "malformedPatch",
      message: "strategic merge patch must be a JSON object",
    });
  }
  const r = mergeObject(
    isJsonObject(doc) ? doc : undefined,
    patch,
    schema.type === "struct" ? schema : undefined,
    "",
  );
  if (r instanceof Fail) return left({ type: "malformedPatch", message: r.message });
  return right(r === DELETE ? {} : r);
}

function mergeObject(
  orig: JsonObject | undefined,
  patch: JsonObject,
  schema: StructSchema | undefined,
  path: string,
): Merged {
  let body = patch;
  if (hasKey(patch, "$patch")) {
    const d = patch.$patch;
    if (d === "delete") return DELETE;
    if (d === "replace") return mergeObject(undefined, without(patch, "$patch"), schema, path);
    if (d !== "merge") {
      return new Fail(`unknown patch type: ${JSON.stringify(d)} in map at ${path || "<root>"}`);
    }
    body = without(patch, "$patch");
  }
  const out: JsonObject = orig ? copyObject(orig) : {};
  const keys = Object.keys(body);
  const directives = readDirectives(body, keys, out, path);
  if (directives instanceof Fail) return directives;
  if (directives.retain) {
    const failed = retainKeys(out, body, keys, directives.retain, path);
    if (failed) return failed;
  }
  for (const k of keys) {
    if (k[0] === "$") continue;
    const pv = body[k];
    if (pv === null) {
      delete out[k];
      continue;
    }
    const ov = hasKey(out, k) ? out[k] : undefined;
    const fs = fieldSchema(schema, k);
    if (isJsonObject(pv)) {
      const r = mergeObject(
        isJsonObject(ov) ? ov : undefined,
        pv,
        fs?.type === "struct" ? fs : undefined,
        at(path, k),
      );
      if (r instanceof Fail) return r;
      if (r === DELETE) delete out[k];
      else setKey(out, k, r);
    } else if (Array.isArray(pv)) {
      const r = mergeList(Array.isArray(ov) ? ov : [], pv, fs, at(path, k), mergeObject);
      if (r instanceof Fail) return r;
      setKey(out, k, r);
    } else {
      setKey(out, k, pv);
    }
  }
  if (directives.orders) setElementOrders(out, directives.orders, schema);
  return out;
}
