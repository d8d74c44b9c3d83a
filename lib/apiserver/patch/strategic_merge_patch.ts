/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds.
 *
 * @module
 */
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;
import type { Json, JsonObject } from "../../core/object.ts";
import { copyObject, hasKey, isJsonObject, jsonKey, setKey } from "./_json.ts";
import {
  fieldSchema,
  type KeyedListSchema,
  type MergeSchema,
  type StructSchema,
} from "./merge_schema.ts";
import type { PatchError } from "./patch_error.ts";

const retainKeysDirective = "$retainKeys";
const deletePrefix = "$deleteFromPrimitiveList/";
const orderPrefix = "$setElementOrder/";

/** An expected failure inside the recursion; turned into a `PatchError` at the boundary. */
class Fail {
  constructor(readonly message: string) {}
}
const DELETE: unique symbol = Symbol("delete");
type Merged = JsonObject | Fail | typeof DELETE;

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

function at(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

function without(obj: JsonObject, key: string): JsonObject {
  const out = copyObject(obj);
  delete out[key];
  return out;
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
  let retain: Set<string> | undefined;
  let orders: [string, Json[]][] | undefined;
  const keys = Object.keys(body);
  for (const k of keys) {
    if (k[0] !== "$") continue;
    const v = body[k];
    if (k === retainKeysDirective) {
      if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
        return new Fail(
          `invalid patch format of retainKeys at ${path || "<root>"}: want a list of strings`,
        );
      }
      retain = new Set(v as string[]);
    } else if (k.startsWith(deletePrefix)) {
      const field = k.slice(deletePrefix.length);
      if (!Array.isArray(v)) {
        return new Fail(`invalid patch format of ${k} at ${path || "<root>"}: want a list`);
      }
      const cur = hasKey(out, field) ? out[field] : undefined;
      if (Array.isArray(cur)) {
        const drop = new Set(v.map(jsonKey));
        setKey(out, field, cur.filter((x) => !drop.has(jsonKey(x))));
      }
    } else if (k.startsWith(orderPrefix)) {
      if (!Array.isArray(v)) {
        return new Fail(`invalid patch format of ${k} at ${path || "<root>"}: want a list`);
      }
      (orders ??= []).push([k.slice(orderPrefix.length), v]);
    } else {
      return new Fail(`unknown directive ${JSON.stringify(k)} at ${path || "<root>"}`);
    }
  }
  if (retain) {
    for (const k of keys) {
      if (k[0] !== "$" && body[k] !== null && !retain.has(k)) {
        return new Fail(
          `invalid patch format of retainKeys at ${path || "<root>"}: ${
            JSON.stringify(k)
          } is not retained`,
        );
      }
    }
    for (const k of Object.keys(out)) if (!retain.has(k)) delete out[k];
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
      const r = mergeList(Array.isArray(ov) ? ov : [], pv, fs, at(path, k));
      if (r instanceof Fail) return r;
      setKey(out, k, r);
    } else {
      setKey(out, k, pv);
    }
  }
  for (const [field, order] of orders ?? []) {
    const cur = hasKey(out, field) ? out[field] : undefined;
    if (Array.isArray(cur)) setKey(out, field, reorder(cur, order, fieldSchema(schema, field)));
  }
  return out;
}

function mergeList(
  orig: Json[],
  patch: Json[],
  schema: MergeSchema | undefined,
  path: string,
): Json[] | Fail {
  switch (schema?.type) {
    case "keyedList":
      return mergeKeyedList(orig, patch, schema, path);
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

/** Puts the items named in `order` in that order, inside the slots they occupy. */
function reorder(list: Json[], order: Json[], schema: MergeSchema | undefined): Json[] {
  const keyOf = (v: Json): string | undefined => {
    if (schema?.type !== "keyedList") return jsonKey(v);
    return isJsonObject(v) && hasKey(v, schema.mergeKey) ? jsonKey(v[schema.mergeKey]) : undefined;
  };
  const rank = new Map<string, number>();
  order.forEach((v, i) => {
    const k = keyOf(v);
    if (k !== undefined && !rank.has(k)) rank.set(k, i);
  });
  const slots: number[] = [];
  const ranked: { r: number; v: Json }[] = [];
  list.forEach((v, i) => {
    const k = keyOf(v);
    const r = k === undefined ? undefined : rank.get(k);
    if (r !== undefined) {
      slots.push(i);
      ranked.push({ r, v });
    }
  });
  ranked.sort((a, b) => a.r - b.r);
  const out = list.slice();
  slots.forEach((slot, j) => (out[slot] = ranked[j].v));
  return out;
}
