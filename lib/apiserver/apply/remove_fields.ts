/**
 * `removeFields`: the prune step of apply: fields a manager applied before and no longer
 * applies, that nobody else owns, are taken out of the object.
 *
 * @module
 */
import {
  type ApplySchema,
  fieldApplySchema,
  type ListMapApplySchema,
  shapeOf,
} from "./apply_schema.ts";
import { childSet, emptyFieldSet, type FieldSet, isEmptyFieldSet } from "./field_set.ts";
import { itemElement } from "./_list_items.ts";
import { elementKey } from "./path_element.ts";

/** Marks a container that held something and lost all of it. */
const EMPTIED = Symbol("emptied");

function removeIn(
  v: unknown,
  rm: FieldSet,
  schema: ApplySchema | undefined,
  owned: FieldSet,
): unknown {
  const shape = shapeOf(schema, v);
  if (shape === "leaf" || isEmptyFieldSet(rm)) return v;
  if (shape === "struct") {
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 0) return v;
    const out: Record<string, unknown> = {};
    let changed = false;
    for (const k of keys) {
      const key = `f:${k}`;
      if (rm.members.has(key)) {
        changed = true;
        // Like structured-merge-diff's prune: what others still own below it stays.
        const below = childSet(owned, key);
        if (isEmptyFieldSet(below)) continue;
        const kept = ownedPart(obj[k], fieldApplySchema(schema, k), below);
        Object.defineProperty(out, k, {
          value: kept === EMPTIED ? (Array.isArray(obj[k]) ? [] : {}) : kept,
          writable: true,
          enumerable: true,
          configurable: true,
        });
        continue;
      }
      const sub = rm.children.get(key);
      if (!sub) {
        Object.defineProperty(out, k, {
          value: obj[k],
          writable: true,
          enumerable: true,
          configurable: true,
        });
        continue;
      }
      const next = removeIn(obj[k], sub.set, fieldApplySchema(schema, k), childSet(owned, key));
      if (next !== obj[k]) changed = true;
      if (next === EMPTIED && !owned.members.has(key)) continue;
      const kept = next === EMPTIED ? (Array.isArray(obj[k]) ? [] : {}) : next;
      Object.defineProperty(out, k, {
        value: kept,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    if (!changed) return v;
    return Object.keys(out).length === 0 ? EMPTIED : out;
  }
  const lm = shape === "listMap" ? schema as ListMapApplySchema : undefined;
  const items = v as unknown[];
  if (items.length === 0) return v;
  const out: unknown[] = [];
  let changed = false;
  for (const item of items) {
    const e = itemElement(item, lm);
    const key = e ? elementKey(e) : undefined;
    if (key === undefined) {
      out.push(item);
      continue;
    }
    if (rm.members.has(key)) {
      changed = true;
      const below = lm ? childSet(owned, key) : emptyFieldSet;
      if (!isEmptyFieldSet(below)) {
        const kept = ownedPart(item, lm!.items, below);
        out.push(kept === EMPTIED ? {} : kept);
      }
      continue;
    }
    const sub = lm ? rm.children.get(key) : undefined;
    if (!sub) {
      out.push(item);
      continue;
    }
    const next = removeIn(item, sub.set, lm!.items, childSet(owned, key));
    if (next !== item) changed = true;
    out.push(next === EMPTIED ? {} : next);
  }
  if (!changed) return v;
  return out.length === 0 ? EMPTIED : out;
}

/** Only the parts of `v` that `owned` holds (members whole, children recursively). */
function ownedPart(v: unknown, schema: ApplySchema | undefined, owned: FieldSet): unknown {
  const shape = shapeOf(schema, v);
  if (shape === "leaf") return v;
  if (shape === "struct") {
    const obj = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(obj)) {
      const key = `f:${k}`;
      const below = childSet(owned, key);
      const kept = isEmptyFieldSet(below)
        ? (owned.members.has(key) ? obj[k] : EMPTIED)
        : ownedPart(obj[k], fieldApplySchema(schema, k), below);
      if (kept === EMPTIED && !owned.members.has(key)) continue;
      Object.defineProperty(out, k, {
        value: kept === EMPTIED ? (Array.isArray(obj[k]) ? [] : {}) : kept,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return Object.keys(out).length === 0 ? EMPTIED : out;
  }
  const lm = shape === "listMap" ? schema as ListMapApplySchema : undefined;
  const out: unknown[] = [];
  for (const item of v as unknown[]) {
    const e = itemElement(item, lm);
    if (!e) continue;
    const key = elementKey(e);
    const below = lm ? childSet(owned, key) : emptyFieldSet;
    if (!isEmptyFieldSet(below)) {
      const kept = ownedPart(item, lm!.items, below);
      out.push(kept === EMPTIED ? {} : kept);
    } else if (owned.members.has(key)) out.push(item);
  }
  return out.length === 0 ? EMPTIED : out;
}

/**
 * The object without the fields in `toRemove` (each with everything below it). An object or
 * list that loses all its content this way is removed as well, unless `owned` holds it as a
 * member, so re-applying without `metadata.labels` leaves no empty `labels: {}` behind.
 * Unchanged subtrees are shared with the input.
 *
 * @param obj the merged object
 * @param toRemove the fields to take out
 * @param options `schema`, and `owned`: the fields some manager still owns
 * @returns the pruned object
 *
 * @example
 * ```ts
 * import { removeFields } from "./remove_fields.ts";
 * import { fieldSetOf } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * removeFields({ data: { a: "1" }, x: 1 }, fieldSetOf([[f("data"), f("a")]])); // { x: 1 }
 * ```
 */
export function removeFields<T extends Readonly<Record<string, unknown>>>(
  obj: T,
  toRemove: FieldSet,
  options: { readonly schema?: ApplySchema; readonly owned?: FieldSet } = {},
): T {
  const out = removeIn(
    obj,
    toRemove,
    options.schema ?? { type: "struct" },
    options.owned ?? emptyFieldSet,
  );
  return (out === EMPTIED ? {} : out) as T;
}
