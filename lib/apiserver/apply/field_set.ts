/**
 * `FieldSet`: a set of field paths stored as a tree (structured-merge-diff's `fieldpath.Set`).
 * A node's `members` are the paths that end there; `children` hold the subtrees below an
 * element. A path may be both a member and have children (a list item owned as a whole and
 * field by field). Sets are immutable values: operations return new sets and share subtrees.
 *
 * @module
 */
import {
  compareElements,
  elementKey,
  type FieldPath,
  formatPath,
  type PathElement,
} from "./path_element.ts";

/** A subtree below one path element. */
export interface FieldSetChild {
  readonly element: PathElement;
  readonly set: FieldSet;
}

/** A set of field paths (see the module docs). Maps are keyed by {@link elementKey}. */
export interface FieldSet {
  readonly members: ReadonlyMap<string, PathElement>;
  readonly children: ReadonlyMap<string, FieldSetChild>;
}

/** The mutable node builders use before handing out a {@link FieldSet}. */
export interface MutableFieldSet extends FieldSet {
  readonly members: Map<string, PathElement>;
  readonly children: Map<string, { readonly element: PathElement; readonly set: MutableFieldSet }>;
}

/** A fresh mutable node (internal to builders in this folder). */
export function mutableFieldSet(): MutableFieldSet {
  return { members: new Map(), children: new Map() };
}

/** The child node of `set` below `e`, created when missing (mutable builders only). */
export function descend(
  set: MutableFieldSet,
  e: PathElement,
  key = elementKey(e),
): MutableFieldSet {
  let child = set.children.get(key);
  if (!child) set.children.set(key, child = { element: e, set: mutableFieldSet() });
  return child.set;
}

/** Drops empty child nodes left behind by eager descents (in place; builders only). */
export function compactFieldSet(node: MutableFieldSet): MutableFieldSet {
  for (const [k, c] of node.children) {
    compactFieldSet(c.set);
    if (c.set.members.size === 0 && c.set.children.size === 0) node.children.delete(k);
  }
  return node;
}

/** The empty set. */
export const emptyFieldSet: FieldSet = { members: new Map(), children: new Map() };

/**
 * A set holding exactly the given paths.
 *
 * @example
 * ```ts
 * import { fieldSetOf, hasPath } from "./field_set.ts";
 * import { fieldElement } from "./path_element.ts";
 * const s = fieldSetOf([[fieldElement("data"), fieldElement("a")]]);
 * hasPath(s, [fieldElement("data"), fieldElement("a")]); // true
 * ```
 */
export function fieldSetOf(paths: Iterable<FieldPath>): FieldSet {
  const root = mutableFieldSet();
  for (const path of paths) {
    if (path.length === 0) continue;
    let node = root;
    for (let i = 0; i < path.length - 1; i++) node = descend(node, path[i]);
    const last = path[path.length - 1];
    node.members.set(elementKey(last), last);
  }
  return root;
}

/** Whether the set holds no path. */
export function isEmptyFieldSet(set: FieldSet): boolean {
  return set.members.size === 0 && set.children.size === 0;
}

/** Whether `path` is a member of the set. */
export function hasPath(set: FieldSet, path: FieldPath): boolean {
  let node: FieldSet | undefined = set;
  for (let i = 0; i < path.length - 1 && node; i++) {
    node = node.children.get(elementKey(path[i]))?.set;
  }
  return path.length > 0 && node !== undefined &&
    node.members.has(elementKey(path[path.length - 1]));
}

/** The subtree below `element`, or the empty set. */
export function childSet(set: FieldSet, element: PathElement | string): FieldSet {
  const key = typeof element === "string" ? element : elementKey(element);
  return set.children.get(key)?.set ?? emptyFieldSet;
}

/**
 * Paths in either set.
 *
 * @example
 * ```ts
 * import { fieldSetOf, union, fieldSetPaths } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * fieldSetPaths(union(fieldSetOf([[f("a")]]), fieldSetOf([[f("b")]]))).length; // 2
 * ```
 */
export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptyFieldSet(a)) return b;
  if (isEmptyFieldSet(b)) return a;
  const members = new Map(a.members);
  for (const [k, e] of b.members) members.set(k, e);
  const children = new Map(a.children);
  for (const [k, c] of b.children) {
    const mine = children.get(k);
    children.set(k, mine ? { element: c.element, set: union(mine.set, c.set) } : c);
  }
  return { members, children };
}

/**
 * Paths of `a` that are not members of `b` (member-wise, like kube's `Set.Difference`:
 * a member of `b` does not remove `a`'s paths below it).
 *
 * @example
 * ```ts
 * import { difference, fieldSetOf, isEmptyFieldSet } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * isEmptyFieldSet(difference(fieldSetOf([[f("a")]]), fieldSetOf([[f("a")]]))); // true
 * ```
 */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptyFieldSet(a) || isEmptyFieldSet(b)) return a;
  const members = new Map<string, PathElement>();
  for (const [k, e] of a.members) if (!b.members.has(k)) members.set(k, e);
  const children = new Map<string, FieldSetChild>();
  for (const [k, c] of a.children) {
    const theirs = b.children.get(k);
    const set = theirs ? difference(c.set, theirs.set) : c.set;
    if (!isEmptyFieldSet(set)) children.set(k, set === c.set ? c : { element: c.element, set });
  }
  // Nothing removed: keep the identity (cached FieldsV1 encodings stay valid).
  if (members.size === a.members.size && children.size === a.children.size) {
    let same = true;
    for (const [k, c] of children) if (a.children.get(k) !== c) same = false;
    if (same) return a;
  }
  return { members, children };
}

/**
 * Paths in both sets.
 *
 * @example
 * ```ts
 * import { fieldSetOf, intersection, fieldSetPaths } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * fieldSetPaths(intersection(fieldSetOf([[f("a")], [f("b")]]), fieldSetOf([[f("b")]]))).length; // 1
 * ```
 */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptyFieldSet(a)) return a;
  if (isEmptyFieldSet(b)) return b;
  const members = new Map<string, PathElement>();
  const [small, big] = a.members.size <= b.members.size ? [a, b] : [b, a];
  for (const [k, e] of small.members) if (big.members.has(k)) members.set(k, e);
  const children = new Map<string, FieldSetChild>();
  for (const [k, c] of a.children) {
    const theirs = b.children.get(k);
    if (!theirs) continue;
    const set = intersection(c.set, theirs.set);
    if (!isEmptyFieldSet(set)) children.set(k, { element: c.element, set });
  }
  return { members, children };
}

/** Whether two sets hold the same paths. */
export function fieldSetEquals(a: FieldSet, b: FieldSet): boolean {
  if (a === b) return true;
  if (a.members.size !== b.members.size || a.children.size !== b.children.size) return false;
  for (const k of a.members.keys()) if (!b.members.has(k)) return false;
  for (const [k, c] of a.children) {
    const theirs = b.children.get(k);
    if (!theirs || !fieldSetEquals(c.set, theirs.set)) return false;
  }
  return true;
}

const byElement = <T extends { readonly element: PathElement }>(x: T, y: T) =>
  compareElements(x.element, y.element);

/**
 * Every member path, in kube's order (depth first, elements sorted).
 *
 * @example
 * ```ts
 * import { fieldSetOf, fieldSetPaths } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * fieldSetPaths(fieldSetOf([[f("b")], [f("a")]])); // [[f("a")], [f("b")]]
 * ```
 */
export function fieldSetPaths(set: FieldSet): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (node: FieldSet, prefix: PathElement[]) => {
    const entries = [
      ...[...node.members.values()].map((element) => ({ element, member: true, set: undefined })),
      ...[...node.children.values()].map((c) => ({ ...c, member: false })),
    ].sort((x, y) => byElement(x, y) || (x.member ? -1 : 1));
    for (const e of entries) {
      const path = [...prefix, e.element];
      if (e.member) out.push(path);
      else walk(e.set!, path);
    }
  };
  walk(set, []);
  return out;
}

/** The member paths as kube prints them (`.data.a`), in order; handy in tests and logs. */
export function formatFieldSet(set: FieldSet): string[] {
  return fieldSetPaths(set).map(formatPath);
}
