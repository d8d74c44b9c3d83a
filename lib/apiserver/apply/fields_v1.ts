/**
 * FieldsV1: the JSON form of a {@link FieldSet} stored in `metadata.managedFields`.
 *
 * Every path element becomes a key (`f:`, `k:`, `v:`, `i:`); a member without children maps
 * to `{}`; a member with children gets a `".": {}` entry after its children. Keys are
 * written in kube's element order so the JSON text matches kube-apiserver's byte for byte.
 *
 * @module
 */
import type { Json, JsonObject } from "../../core/object.ts";
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;
import { descend, type FieldSet, type MutableFieldSet, mutableFieldSet } from "./field_set.ts";
import { compareElements, elementKey, parseElementKey, type PathElement } from "./path_element.ts";

function emit(set: FieldSet, includeSelf: boolean): JsonObject {
  const entries: { element: PathElement; key: string; member: boolean; sub?: FieldSet }[] = [];
  for (const [key, element] of set.members) {
    const child = set.children.get(key);
    entries.push({ element, key, member: true, sub: child?.set });
  }
  for (const [key, child] of set.children) {
    if (!set.members.has(key)) {
      entries.push({ element: child.element, key, member: false, sub: child.set });
    }
  }
  entries.sort((a, b) => compareElements(a.element, b.element));
  const out: JsonObject = {};
  for (const e of entries) {
    out[e.key] = e.sub ? emit(e.sub, e.member) : {};
  }
  if (includeSelf && entries.length > 0) out["."] = {};
  return out;
}

/**
 * The FieldsV1 JSON of a set.
 *
 * @example
 * ```ts
 * import { toFieldsV1 } from "./fields_v1.ts";
 * import { fieldSetOf } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * toFieldsV1(fieldSetOf([[f("data"), f("a")]])); // { "f:data": { "f:a": {} } }
 * ```
 */
export function toFieldsV1(set: FieldSet): JsonObject {
  let json = encoded.get(set);
  if (!json) {
    json = emit(set, false);
    encoded.set(set, json);
    decoded.set(json, right(set));
  }
  return json;
}

// Field sets and their FieldsV1 JSON are immutable once built, and every write re-reads the
// stored managed fields: remember both directions by identity.
const encoded = new WeakMap<FieldSet, JsonObject>();
const decoded = new WeakMap<object, Either<FieldsV1Error, FieldSet>>();

/** Why FieldsV1 JSON could not be read. */
export interface FieldsV1Error {
  readonly type: "invalidFieldsV1";
  readonly detail: string;
}

/**
 * Reads FieldsV1 JSON into a set (unknown key types are skipped, as kube does).
 *
 * @example
 * ```ts
 * import { fromFieldsV1 } from "./fields_v1.ts";
 * const r = fromFieldsV1({ "f:metadata": { "f:labels": { ".": {}, "f:app": {} } } });
 * r._tag; // "Right"
 * ```
 */
export function fromFieldsV1(json: unknown): Either<FieldsV1Error, FieldSet> {
  const known = typeof json === "object" && json !== null ? decoded.get(json) : undefined;
  if (known) return known;
  const result = readFieldsV1(json);
  if (typeof json === "object" && json !== null) decoded.set(json, result);
  return result;
}

function readFieldsV1(json: unknown): Either<FieldsV1Error, FieldSet> {
  const root = mutableFieldSet();
  const read = (obj: unknown, node: MutableFieldSet, at: string): string | undefined => {
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
      return `expected an object at ${at || "the root"}`;
    }
    for (const [key, sub] of Object.entries(obj as Record<string, Json>)) {
      if (key === ".") continue;
      const parsed = parseElementKey(key);
      if (parsed.type === "unknown") continue;
      if (parsed.type === "error") return parsed.detail;
      const e = parsed.element;
      const k = elementKey(e);
      if (typeof sub !== "object" || sub === null || Array.isArray(sub)) {
        return `expected an object at ${at}${key}`;
      }
      const keys = Object.keys(sub);
      const hasChildren = keys.some((x) => x !== ".");
      if (!hasChildren || keys.includes(".")) node.members.set(k, e);
      if (hasChildren) {
        const child = descend(node, e, k);
        const err = read(sub, child, `${at}${key}/`);
        if (err) return err;
        if (child.members.size === 0 && child.children.size === 0) {
          node.children.delete(k);
          node.members.set(k, e);
        }
      }
    }
    return undefined;
  };
  const err = read(json, root, "");
  return err ? left({ type: "invalidFieldsV1", detail: err }) : right(root);
}
