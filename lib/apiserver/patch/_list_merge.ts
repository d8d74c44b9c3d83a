/**
 * Internal: the list strategies of strategic merge patch: keyed lists merged item by item on
 * their merge key (with the `$patch` item directives), primitive set lists unioned, and every
 * other list replaced wholesale.
 *
 * @module
 */
import type { Json, JsonObject } from "../../core/object.ts";
import { hasKey, isJsonObject, jsonKey } from "./_json.ts";
import type { KeyedListSchema, MergeSchema } from "./merge_schema.ts";
import { DELETE, Fail, type MergeObject, without } from "./_merge_result.ts";

/**
 * Merges patch list `patch` onto `orig` following the field's `schema`: keyed lists merge by
 * merge key (matched items through `mergeObject`), set lists union, other lists are replaced.
 * Never mutates its inputs.
 *
 * @param orig the current list (`[]` when the field is absent)
 * @param patch the patch's list
 * @param schema the field's merge schema, if any
 * @param path the field's path, for error messages
 * @param mergeObject the map merge used for matched and new keyed-list items
 * @returns the merged list, or a `Fail` naming the item
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeList } from "./_list_merge.ts";
 * import { keyedList, setList } from "./merge_schema.ts";
 * import type { MergeObject } from "./_merge_result.ts";
 * const shallow: MergeObject = (orig, patch) => ({ ...orig, ...patch });
 * assert.deepEqual(mergeList(["a"], ["b", "a"], setList, "finalizers", shallow), ["a", "b"]);
 * assert.deepEqual(
 *   mergeList([{ name: "x", v: 1 }], [{ name: "x", w: 2 }], keyedList("name"), "env", shallow),
 *   [{ name: "x", v: 1, w: 2 }],
 * );
 * assert.deepEqual(mergeList([1, 2], [3], undefined, "args", shallow), [3]);
 * ```
 */
export function mergeList(
  orig: Json[],
  patch: Json[],
  schema: MergeSchema | undefined,
  path: string,
  mergeObject: MergeObject,
): Json[] | Fail {
  switch (schema?.type) {
    case "keyedList":
      return mergeKeyedList(orig, patch, schema, path, mergeObject);
    case "setList": {
      const seen = new Set(orig.map(jsonKey));
      const out = orig.slice();
      for (const v of patch) {
        const k = jsonKey(v);
        if (!seen.has(k)) {
          seen.add(k);
          out.push(v);
        }
      }
      return out;
    }
    case "struct":
    case "atomicList":
    case undefined:
      return patch;
  }
}

function mergeKeyedList(
  orig: Json[],
  patch: Json[],
  schema: KeyedListSchema,
  path: string,
  mergeObject: MergeObject,
): Json[] | Fail {
  const key = schema.mergeKey;
  let replaceAll = false;
  const deletes = new Set<string>();
  const merges: JsonObject[] = [];
  for (let i = 0; i < patch.length; i++) {
    let item = patch[i];
    if (!isJsonObject(item)) {
      return new Fail(
        `${path}[${i}]: list item must be an object with merge key ${JSON.stringify(key)}`,
      );
    }
    if (hasKey(item, "$patch")) {
      const d = item.$patch;
      if (d === "replace") {
        replaceAll = true;
        continue;
      }
      if (d !== "delete" && d !== "merge") {
        return new Fail(`unknown patch type: ${JSON.stringify(d)} in list ${path}[${i}]`);
      }
      if (d === "delete") {
        if (!hasKey(item, key)) return missingKey(item, key, path, i);
        deletes.add(jsonKey(item[key]));
        continue;
      }
      item = without(item, "$patch");
    }
    if (!hasKey(item, key)) return missingKey(item, key, path, i);
    merges.push(item);
  }
  const out = replaceAll
    ? []
    : deletes.size === 0
    ? orig.slice()
    : orig.filter((x) => !(isJsonObject(x) && hasKey(x, key) && deletes.has(jsonKey(x[key]))));
  const pos = new Map<string, number>();
  for (let i = 0; i < out.length; i++) {
    const x = out[i];
    if (isJsonObject(x) && hasKey(x, key)) {
      const k = jsonKey(x[key]);
      if (!pos.has(k)) pos.set(k, i);
    }
  }
  for (const item of merges) {
    const k = jsonKey(item[key]);
    const i = pos.get(k);
    const itemPath = `${path}[${key}=${JSON.stringify(item[key])}]`;
    const r = mergeObject(
      i === undefined ? undefined : out[i] as JsonObject,
      item,
      schema.items,
      itemPath,
    );
    if (r instanceof Fail) return r;
    if (r === DELETE) continue;
    if (i === undefined) {
      pos.set(k, out.length);
      out.push(r);
    } else {
      out[i] = r;
    }
  }
  return out;
}

function missingKey(item: JsonObject, key: string, path: string, i: number): Fail {
  return new Fail(
    `${path}[${i}]: map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`,
  );
}
