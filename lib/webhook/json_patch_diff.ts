/**
 * The RFC 6902 JSON patch that turns one JSON value into another: what a mutating webhook
 * sends back when its function returned the desired object.
 *
 * @module
 */
import { isPlainObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";

/** One RFC 6902 operation (only the three a diff needs). */
export type JsonPatchOp =
  | { readonly op: "add"; readonly path: string; readonly value: unknown }
  | { readonly op: "replace"; readonly path: string; readonly value: unknown }
  | { readonly op: "remove"; readonly path: string };

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** JSON's view of a value: `undefined` members are absent, as `JSON.stringify` drops them. */
const present = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);

function diff(a: unknown, b: unknown, path: string, ops: JsonPatchOp[]): void {
  if (deepEqual(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    const after = new Set(present(b));
    for (const k of present(a)) {
      if (!after.has(k)) ops.push({ op: "remove", path: `${path}/${escape(k)}` });
    }
    for (const k of after) {
      const p = `${path}/${escape(k)}`;
      if (!Object.hasOwn(a, k) || a[k] === undefined) ops.push({ op: "add", path: p, value: b[k] });
      else diff(a[k], b[k], p, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diff(a[i], b[i], `${path}/${i}`, ops);
    for (let i = a.length - 1; i >= b.length; i--) ops.push({ op: "remove", path: `${path}/${i}` });
    for (let i = a.length; i < b.length; i++) {
      ops.push({ op: "add", path: `${path}/${i}`, value: b[i] });
    }
    return;
  }
  ops.push({ op: "replace", path, value: b });
}

/**
 * The JSON patch from `from` to `to`: removals, additions and replacements at the deepest
 * differing members; arrays element by element, then trimmed or extended at the end.
 *
 * Like `gomodules.xyz/jsonpatch`'s `CreatePatch` that controller-runtime's defaulting
 * webhooks use, but `undefined` members count as absent (as in the JSON sent).
 *
 * @example
 * ```ts
 * import { createJsonPatch } from "../../mod.ts";
 * createJsonPatch({ spec: { replicas: 1 } }, { spec: { replicas: 2, paused: false } });
 * // [{ op: "replace", path: "/spec/replicas", value: 2 },
 * //  { op: "add", path: "/spec/paused", value: false }]
 * ```
 */
export function createJsonPatch(from: unknown, to: unknown): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  diff(from, to, "", ops);
  return ops;
}
