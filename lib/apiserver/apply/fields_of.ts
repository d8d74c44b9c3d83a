/**
 * `fieldsOf`: the set of fields an applied configuration sets.
 *
 * @module
 */
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;
import { type ApplySchema, fieldApplySchema, shapeOf } from "./apply_schema.ts";
import {
  compactFieldSet,
  descend,
  type FieldSet,
  type MutableFieldSet,
  mutableFieldSet,
} from "./field_set.ts";
import { itemKey } from "./_list_items.ts";
import {
  elementKey,
  fieldElement,
  formatPath,
  type PathElement,
  valueElement,
} from "./path_element.ts";
import { chainPath, type PathChain, step } from "./_path_chain.ts";

/** An applied configuration the engine cannot take: a field and what is wrong with it. */
export interface ApplyInvalid {
  readonly type: "invalid";
  /** The field in kube's text form, e.g. `.spec.containers`. */
  readonly field: string;
  readonly detail: string;
}

function walk(
  value: Record<string, unknown>,
  schema: ApplySchema | undefined,
  node: MutableFieldSet,
  path: PathChain,
  errors: ApplyInvalid[],
): void {
  for (const name of Object.keys(value)) {
    const v = value[name];
    if (v === undefined) continue;
    const sub = fieldApplySchema(schema, name);
    const e = fieldElement(name);
    visit(v, sub, node, e, step(path, e), errors);
  }
}

function visit(
  v: unknown,
  schema: ApplySchema | undefined,
  parent: MutableFieldSet,
  e: PathElement,
  path: PathChain,
  errors: ApplyInvalid[],
): void {
  const key = elementKey(e);
  switch (shapeOf(schema, v)) {
    case "leaf":
      parent.members.set(key, e);
      return;
    case "struct":
      if (Object.keys(v as object).length > 0) {
        walk(v as Record<string, unknown>, schema, descend(parent, e, key), path, errors);
      }
      return;
    case "listSet": {
      const items = v as unknown[];
      if (items.length === 0) return;
      const node = descend(parent, e, key);
      for (const item of items) {
        const ve = valueElement(item as never);
        const k = elementKey(ve);
        if (node.members.has(k)) {
          errors.push({
            type: "invalid",
            field: formatPath(chainPath(path)),
            detail: `duplicate entries for key ${formatPath([ve])}`,
          });
        }
        node.members.set(k, ve);
      }
      return;
    }
    case "listMap": {
      const items = v as unknown[];
      if (items.length === 0) return;
      const lm = schema as Extract<ApplySchema, { type: "listMap" }>;
      const node = descend(parent, e, key);
      items.forEach((item, i) => {
        const r = itemKey(item, lm);
        if ("missing" in r) {
          errors.push({
            type: "invalid",
            field: formatPath(chainPath(path)),
            detail:
              `element ${i}: associative list with keys has an element that omits key field "${r.missing}" (and doesn't have default value)`,
          });
          return;
        }
        const k = elementKey(r.element);
        if (node.members.has(k)) {
          errors.push({
            type: "invalid",
            field: formatPath(chainPath(path)),
            detail: `duplicate entries for key ${formatPath([r.element])}`,
          });
          return;
        }
        node.members.set(k, r.element);
        walk(
          item as Record<string, unknown>,
          lm.items,
          descend(node, r.element, k),
          step(path, r.element),
          errors,
        );
      });
      return;
    }
  }
}

/**
 * The fields an applied configuration sets, checked: list-map items must carry their keys
 * (or have defaults for them) and lists must not repeat a key or a set value.
 *
 * @example
 * ```ts
 * import { checkedFieldsOf } from "./fields_of.ts";
 * checkedFieldsOf({ data: { a: "1" } }, undefined)._tag; // "Right"
 * ```
 */
export function checkedFieldsOf(
  obj: Readonly<Record<string, unknown>>,
  schema: ApplySchema | undefined,
): Either<ApplyInvalid, FieldSet> {
  const root = mutableFieldSet();
  const errors: ApplyInvalid[] = [];
  walk(obj as Record<string, unknown>, schema, root, undefined, errors);
  return errors.length ? left(errors[0]) : right(compactFieldSet(root));
}

/**
 * The set of leaf and item paths an applied configuration sets: scalars and atomic values
 * are members, granular objects only hold their children, list-map items and set values
 * are members (items also with their fields). Items that cannot be keyed are skipped.
 *
 * @example
 * ```ts
 * import { fieldsOf } from "./fields_of.ts";
 * import { formatFieldSet } from "./field_set.ts";
 * formatFieldSet(fieldsOf({ data: { a: "1" } }, undefined)); // [".data.a"]
 * ```
 */
export function fieldsOf(
  obj: Readonly<Record<string, unknown>>,
  schema: ApplySchema | undefined,
): FieldSet {
  const root = mutableFieldSet();
  walk(obj as Record<string, unknown>, schema, root, undefined, []);
  return compactFieldSet(root);
}
