/**
 * Structural defaulting of custom resources.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { CompiledNode, CompiledSchema } from "./types.ts";

type Obj = Record<string, unknown>;

function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isPlainObject(value)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneJson(v);
    return out;
  }
  return value;
}

/** Whether a slot holding `v` takes the node's default (absent, or null when not nullable). */
const takesDefault = (present: boolean, v: unknown, node: CompiledNode): boolean =>
  node.hasDefault && (!present || (v === null && !node.nullable));

function defaultMap(x: Obj, node: CompiledNode): Obj {
  let out: Obj | undefined;
  const set = (k: string, v: unknown) => {
    out ??= { ...x };
    out[k] = v;
  };
  const props = node.properties;
  if (props) {
    for (const [k, prop] of props) {
      if (takesDefault(Object.hasOwn(x, k), x[k], prop)) set(k, cloneJson(prop.default));
    }
  }
  const additional = typeof node.additionalProperties === "object"
    ? node.additionalProperties
    : undefined;
  const src: Obj = out ?? x;
  for (const k of Object.keys(src)) {
    const prop = props?.get(k);
    const child = prop ?? additional;
    if (!child || !child.subtreeHasDefault) continue;
    let v = src[k];
    if (!prop && takesDefault(true, v, child)) v = cloneJson(child.default);
    const next = defaultValue(v, child);
    if (next !== src[k]) set(k, next);
  }
  return out ?? x;
}

function defaultValue(x: unknown, node: CompiledNode): unknown {
  if (!node.subtreeHasDefault) return x;
  if (isPlainObject(x)) return defaultMap(x, node);
  if (Array.isArray(x) && node.items?.subtreeHasDefault) {
    const items = node.items;
    let out: unknown[] | undefined;
    x.forEach((item, i) => {
      const v = takesDefault(true, item, items) ? cloneJson(items.default) : item;
      const next = defaultValue(v, items);
      if (next !== item) (out ??= [...x])[i] = next;
    });
    return out ?? x;
  }
  return x;
}

/**
 * Applies the schema's `default` values, as kube-apiserver does to custom resources after
 * pruning (on writes and on reads from storage).
 *
 * Like kube-apiserver's structural defaulting: a default is applied where a property is
 * absent (or `null` and not nullable), only inside objects that exist; a defaulted value
 * is itself defaulted (nested defaults); list items and `additionalProperties` map values
 * are defaulted one by one. Pure: returns a new value (sharing unchanged subtrees) and
 * never mutates the input or the schema's default values.
 *
 * @example
 * ```ts
 * import { compileSchema } from "./compile_schema.ts";
 * import { applyDefaults } from "./apply_defaults.ts";
 * const schema = compileSchema({
 *   type: "object",
 *   properties: {
 *     spec: {
 *       type: "object",
 *       properties: {
 *         tls: { type: "object", default: {}, properties: { mode: { type: "string", default: "Terminate" } } },
 *       },
 *     },
 *   },
 * });
 * applyDefaults({ spec: {} }, schema); // { spec: { tls: { mode: "Terminate" } } }
 * applyDefaults({}, schema); // {} (no spec, so nothing below it is defaulted)
 * ```
 */
export function applyDefaults(obj: unknown, schema: CompiledSchema): unknown {
  return defaultValue(obj, schema.root);
}
