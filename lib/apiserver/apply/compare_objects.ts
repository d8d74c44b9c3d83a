/**
 * `compareObjects`: which fields a write added, modified and removed (kube's
 * `typed.Comparison`), the input of ownership updates and conflict detection.
 *
 * @module
 */
import { deepEqual } from "../../core/deep_equal.ts";
import {
  type ApplySchema,
  fieldApplySchema,
  type ListMapApplySchema,
  shapeOf,
} from "./apply_schema.ts";
import {
  compactFieldSet,
  descend,
  type FieldSet,
  type MutableFieldSet,
  mutableFieldSet,
} from "./field_set.ts";
import { itemElement } from "./_list_items.ts";
import { elementKey, fieldElement, type PathElement } from "./path_element.ts";

/** The fields a write changed. */
export interface FieldChanges {
  /** Present only in the new object; a new object or list item is added with its contents. */
  readonly added: FieldSet;
  /** Leaves (scalars, atomic values) present in both with different values. */
  readonly modified: FieldSet;
  /** Present only in the old object. */
  readonly removed: FieldSet;
}

type Sinks = { a: MutableFieldSet; m: MutableFieldSet; r: MutableFieldSet };

const own = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k) ? o[k] : undefined;

function addAll(
  v: unknown,
  schema: ApplySchema | undefined,
  e: PathElement,
  node: MutableFieldSet,
) {
  const key = elementKey(e);
  node.members.set(key, e);
  const shape = shapeOf(schema, v);
  if (shape === "leaf") return;
  if (shape === "struct") {
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
    if (keys.length === 0) return;
    const child = descend(node, e, key);
    for (const k of keys) addAll(obj[k], fieldApplySchema(schema, k), fieldElement(k), child);
    return;
  }
  const items = v as unknown[];
  if (items.length === 0) return;
  const child = descend(node, e, key);
  const lm = shape === "listMap" ? schema as ListMapApplySchema : undefined;
  for (const item of items) {
    const ie = itemElement(item, lm);
    if (ie) addAll(item, lm ? lm.items : undefined, ie, child);
  }
}

function indexItems(items: unknown[], lm: ListMapApplySchema | undefined) {
  const out = new Map<string, { e: PathElement; item: unknown }>();
  for (const item of items) {
    const e = itemElement(item, lm);
    if (!e) continue;
    const k = elementKey(e);
    if (!out.has(k)) out.set(k, { e, item });
  }
  return out;
}

function compareValue(
  o: unknown,
  n: unknown,
  schema: ApplySchema | undefined,
  e: PathElement,
  s: Sinks,
) {
  // Unchanged subtrees are shared by reference between the stored and the next object.
  if (o === n) return;
  if (o === undefined) return addAll(n, schema, e, s.a);
  if (n === undefined) return addAll(o, schema, e, s.r);
  const so = shapeOf(schema, o), sn = shapeOf(schema, n);
  if (so !== sn || so === "leaf") {
    if (!deepEqual(o, n)) s.m.members.set(elementKey(e), e);
    return;
  }
  const key = elementKey(e);
  const sub = { a: descend(s.a, e, key), m: descend(s.m, e, key), r: descend(s.r, e, key) };
  compareContainer(o, n, schema, so, sub);
}

function compareContainer(
  o: unknown,
  n: unknown,
  schema: ApplySchema | undefined,
  shape: "struct" | "listMap" | "listSet",
  s: Sinks,
) {
  if (shape === "struct") {
    const oo = o as Record<string, unknown>, no = n as Record<string, unknown>;
    for (const k of Object.keys(oo)) {
      compareValue(oo[k], own(no, k), fieldApplySchema(schema, k), fieldElement(k), s);
    }
    for (const k of Object.keys(no)) {
      if (!Object.hasOwn(oo, k)) {
        compareValue(undefined, no[k], fieldApplySchema(schema, k), fieldElement(k), s);
      }
    }
    return;
  }
  const lm = shape === "listMap" ? schema as ListMapApplySchema : undefined;
  const oi = indexItems(o as unknown[], lm), ni = indexItems(n as unknown[], lm);
  const itemSchema = lm?.items;
  for (const [k, { e, item }] of oi) compareValue(item, ni.get(k)?.item, itemSchema, e, s);
  for (const [k, { e, item }] of ni) {
    if (!oi.has(k)) compareValue(undefined, item, itemSchema, e, s);
  }
}

/**
 * The fields that differ between two objects under a schema: added (with every field of an
 * added object or list item, the container itself included), modified leaves, removed.
 *
 * @param old the object before the write (`{}` for a create)
 * @param next the object after the write
 * @param schema the objects' schema
 * @returns the {@link FieldChanges}
 *
 * @example
 * ```ts
 * import { compareObjects } from "./compare_objects.ts";
 * import { formatFieldSet } from "./field_set.ts";
 * const c = compareObjects({ data: { a: "1", b: "1" } }, { data: { a: "2", c: "1" } }, undefined);
 * formatFieldSet(c.modified); // [".data.a"]
 * formatFieldSet(c.added); // [".data.c"]
 * formatFieldSet(c.removed); // [".data.b"]
 * ```
 */
export function compareObjects(
  old: Readonly<Record<string, unknown>>,
  next: Readonly<Record<string, unknown>>,
  schema: ApplySchema | undefined,
): FieldChanges {
  const s = { a: mutableFieldSet(), m: mutableFieldSet(), r: mutableFieldSet() };
  compareContainer(old, next, schema, "struct", s);
  // ObjectMeta is always there in kube's typed objects: it is never added or removed itself.
  s.a.members.delete("f:metadata");
  s.r.members.delete("f:metadata");
  return {
    added: compactFieldSet(s.a),
    modified: compactFieldSet(s.m),
    removed: compactFieldSet(s.r),
  };
}
