/**
 * Whether a schema node accepts a scalar value without any further check (private to the
 * schema engine): hot loops over large maps of strings skip such values cheaply.
 *
 * @module
 */
import type { CompiledNode } from "./types.ts";

const cache = new WeakMap<CompiledNode, boolean>();

function compute(node: CompiledNode): boolean {
  const s = node.schema;
  return node.format === undefined && node.pattern === undefined && node.enumKeys === undefined &&
    !node.allOf && !node.anyOf && !node.oneOf && !node.not && !node.intOrString && !node.ref &&
    s.maxLength === undefined && s.minLength === undefined && s.maximum === undefined &&
    s.minimum === undefined && s.multipleOf === undefined;
}

/**
 * Whether `value` (a string, number or boolean) needs no check at `node`: its JSON type is
 * the node's only type and the node has no format, pattern, enum or bounds.
 */
export function isPlainScalar(value: unknown, node: CompiledNode): boolean {
  const t = typeof value;
  if (t !== "string" && t !== "boolean") return false;
  if (node.types.length !== 1 || node.types[0] !== t) return false;
  let plain = cache.get(node);
  if (plain === undefined) cache.set(node, plain = compute(node));
  return plain;
}
