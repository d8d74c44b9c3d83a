/**
 * Structural pruning: drops every field the schema does not describe.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import { childPath } from "./_field_errors.ts";
import type { CompiledNode, CompiledSchema } from "./types.ts";

/** The `ObjectMeta` fields kept at a resource root (anything else in `metadata` is dropped). */
export const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
]);

/** What {@link pruneObject} returns. */
export interface PruneResult {
  /** A new value without the unknown fields (unchanged subtrees are shared, not copied). */
  readonly value: unknown;
  /** Paths of the dropped unknown fields, e.g. `spec.foo`, `spec.items[0].bar`. */
  readonly pruned: string[];
}

type Obj = Record<string, unknown>;

/** Whether a `null` at a node is dropped before defaulting (non-nullable, no default). */
const dropsNull = (v: unknown, node: CompiledNode): boolean =>
  v === null && !node.nullable && !node.hasDefault;

function pruneMetadata(meta: Obj, path: string, pruned: string[]): Obj {
  let out: Obj | undefined;
  for (const k of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.has(k)) {
      if (out) out[k] = meta[k];
      continue;
    }
    pruned.push(`${childPath(path, "metadata")}.${k}`);
    out ??= copyUntil(meta, k);
  }
  return out ?? meta;
}

/** A copy of the entries of `x` that come before key `k`. */
function copyUntil(x: Obj, k: string): Obj {
  const out: Obj = {};
  for (const key of Object.keys(x)) {
    if (key === k) break;
    out[key] = x[key];
  }
  return out;
}

const DROP = Symbol("drop");

/** The pruned value of one entry of a map, or DROP. */
function pruneEntry(
  k: string,
  v: unknown,
  node: CompiledNode,
  path: string,
  resource: boolean,
  pruned: string[],
): unknown {
  if (resource) {
    if ((k === "apiVersion" || k === "kind") && typeof v === "string") return v;
    if (k === "metadata" && isPlainObject(v)) return pruneMetadata(v, path, pruned);
  }
  const additional = node.additionalProperties;
  const prop = node.properties?.get(k) ??
    (typeof additional === "object" ? additional : undefined);
  if (prop) {
    if (dropsNull(v, prop)) return DROP;
    // Scalars have nothing to prune: no path string for each of them.
    return v !== null && typeof v === "object"
      ? prune(v, prop, childPath(path, k), false, pruned)
      : v;
  }
  if (node.preserveUnknownFields || additional === true) return v;
  pruned.push(childPath(path, k));
  return DROP;
}

/** Prunes a map; returns `x` itself when nothing in it changes (no copy). */
function pruneMap(
  x: Obj,
  node: CompiledNode,
  path: string,
  resource: boolean,
  pruned: string[],
): Obj {
  let out: Obj | undefined;
  for (const k of Object.keys(x)) {
    const v = x[k];
    const next = pruneEntry(k, v, node, path, resource, pruned);
    if (out === undefined && next !== v) out = copyUntil(x, k);
    if (out !== undefined && next !== DROP) out[k] = next;
  }
  return out ?? x;
}

function prune(
  x: unknown,
  node: CompiledNode | undefined,
  path: string,
  root: boolean,
  pruned: string[],
): unknown {
  if (Array.isArray(x)) {
    if (node?.preserveUnknownFields && !node.items) return x;
    // Below a preserving node, items keep their unknown fields (kube-apiserver's skipPrune).
    if (node?.preserveUnknownFields) {
      return x.map((v, i) => preserve(v, node.items!, `${path}[${i}]`, pruned));
    }
    return x.map((v, i) => prune(v, node?.items, `${path}[${i}]`, false, pruned));
  }
  if (!isPlainObject(x)) return x;
  if (!node) {
    for (const k of Object.keys(x)) pruned.push(childPath(path, k));
    return {};
  }
  return pruneMap(x, node, path, root || node.embeddedResource, pruned);
}

/** Like {@link prune} but for a value under a preserving node whose own schema may not preserve. */
function preserve(x: unknown, node: CompiledNode, path: string, pruned: string[]): unknown {
  if (node.preserveUnknownFields || !isPlainObject(x)) return prune(x, node, path, false, pruned);
  const out: Obj = {};
  const additional = node.additionalProperties;
  for (const [k, v] of Object.entries(x)) {
    const prop = node.properties?.get(k) ??
      (typeof additional === "object" ? additional : undefined);
    if (!prop) out[k] = v;
    else if (!dropsNull(v, prop)) out[k] = prune(v, prop, childPath(path, k), false, pruned);
  }
  return out;
}

/**
 * Removes every field the schema does not describe, as kube-apiserver does to custom
 * resources before defaulting and validation.
 *
 * Like kube-apiserver's structural pruning, plus its removal of `null` values of
 * non-nullable fields without a default. Fields are kept at or below a node with
 * `x-kubernetes-preserve-unknown-fields: true` (fields it does describe are still pruned
 * by their own schema). At the root and in `x-kubernetes-embedded-resource` nodes,
 * `apiVersion`, `kind` and the standard `metadata` fields are always kept; other
 * `metadata` fields are dropped and reported. Pure: the input is not modified.
 *
 * @example
 * ```ts
 * import { compileSchema } from "./compile_schema.ts";
 * import { pruneObject } from "./prune_object.ts";
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { spec: { type: "object", properties: { a: { type: "string" } } } },
 * });
 * const r = pruneObject({ apiVersion: "x/v1", kind: "X", spec: { a: "1", b: 2 } }, schema);
 * r.value; // { apiVersion: "x/v1", kind: "X", spec: { a: "1" } }
 * r.pruned; // ["spec.b"]
 * ```
 */
export function pruneObject(obj: unknown, schema: CompiledSchema): PruneResult {
  const pruned: string[] = [];
  const value = prune(obj, schema.root, "", true, pruned);
  return { value, pruned };
}
