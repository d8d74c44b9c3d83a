/**
 * Internal: the map-level directives of strategic merge patch: `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`.
 *
 * @module
 */
import type { Json, JsonObject } from "../../core/object.ts";
import { hasKey, isJsonObject, jsonKey, setKey } from "./_json.ts";
import { fieldSchema, type MergeSchema, type StructSchema } from "./merge_schema.ts";
import { Fail } from "./_merge_result.ts";

const retainKeysDirective = "$retainKeys";
const deletePrefix = "$deleteFromPrimitiveList/";
const orderPrefix = "$setElementOrder/";

/**
 * The directives of one patch map that act after its fields are merged.
 *
 * @example
 * ```ts
 * import type { Directives } from "./_patch_directives.ts";
 * const d: Directives = { retain: new Set(["type"]), orders: [["finalizers", ["b", "a"]]] };
 * ```
 */
export interface Directives {
  /** `$retainKeys`: the only keys the merged map may keep. */
  readonly retain: Set<string> | undefined;
  /** `$setElementOrder/<field>` entries, in patch order. */
  readonly orders: [string, Json[]][] | undefined;
}

const noDirectives: Directives = { retain: undefined, orders: undefined };

/**
 * Reads the `$`-prefixed keys of patch map `body` (whose keys are `keys`) in order:
 * `$deleteFromPrimitiveList/<field>` removes its values from `out[field]` at once (`out` is
 * the copy being merged into, mutated); `$retainKeys` and `$setElementOrder/<field>` are
 * returned for later; any other `$` key is an unknown directive.
 *
 * @param body the patch map (without `$patch`)
 * @param keys `Object.keys(body)`
 * @param out the copy of the original map being merged into
 * @param path the map's path, for error messages (`""` = root)
 * @returns the deferred directives, or a `Fail` naming the directive
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDirectives } from "./_patch_directives.ts";
 * const out = { finalizers: ["a", "b"] };
 * const body = { "$deleteFromPrimitiveList/finalizers": ["a"], "$retainKeys": ["finalizers"] };
 * const d = readDirectives(body, Object.keys(body), out, "metadata");
 * assert.deepEqual(out, { finalizers: ["b"] });
 * assert.deepEqual(d, { retain: new Set(["finalizers"]), orders: undefined });
 * ```
 */
export function readDirectives(
  body: JsonObject,
  keys: readonly string[],
  out: JsonObject,
  path: string,
): Directives | Fail {
  let retain: Set<string> | undefined;
  let orders: [string, Json[]][] | undefined;
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
  return retain === undefined && orders === undefined ? noDirectives : { retain, orders };
}

/**
 * Applies `$retainKeys`: fails when the patch sets a key not retained, else deletes from `out`
 * every key not in `retain`.
 *
 * @param out the copy of the original map being merged into (mutated)
 * @param body the patch map
 * @param keys `Object.keys(body)`
 * @param retain the retained keys
 * @param path the map's path, for error messages
 * @returns a `Fail` naming the key, or `undefined`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retainKeys } from "./_patch_directives.ts";
 * const out = { type: "Recreate", rollingUpdate: { maxSurge: 1 } };
 * const body = { type: "Recreate" };
 * assert.equal(retainKeys(out, body, Object.keys(body), new Set(["type"]), "spec"), undefined);
 * assert.deepEqual(out, { type: "Recreate" });
 * ```
 */
export function retainKeys(
  out: JsonObject,
  body: JsonObject,
  keys: readonly string[],
  retain: Set<string>,
  path: string,
): Fail | undefined {
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
  return undefined;
}

/**
 * Applies `$setElementOrder/<field>` entries to the merged map `out` (mutated): the listed
 * items are put in the listed order, within the positions they occupy.
 *
 * @param out the merged map
 * @param orders the `[field, order]` entries
 * @param schema the map's schema (keyed lists are matched on their merge key)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { setElementOrders } from "./_patch_directives.ts";
 * const out = { finalizers: ["a", "x", "b"] };
 * setElementOrders(out, [["finalizers", ["b", "a"]]], undefined);
 * assert.deepEqual(out, { finalizers: ["b", "x", "a"] });
 * ```
 */
export function setElementOrders(
  out: JsonObject,
  orders: readonly (readonly [string, Json[]])[],
  schema: StructSchema | undefined,
): void {
  for (const [field, order] of orders) {
    const cur = hasKey(out, field) ? out[field] : undefined;
    if (Array.isArray(cur)) setKey(out, field, reorder(cur, order, fieldSchema(schema, field)));
  }
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
