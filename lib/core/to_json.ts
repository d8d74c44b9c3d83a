/**
 * `toJson()`: a typed value (a kubernetes-types interface, say) as the `Json` that
 * `JSON.stringify` would write, built by value so no cast is needed.
 *
 * @module
 */
import type { Json, JsonObject } from "./object.ts";

/**
 * `value` as JSON, the way `JSON.stringify` writes it: `undefined`, functions and symbols are
 * left out of objects and written as `null` in arrays, non-finite numbers are `null`, `toJSON()`
 * is called (dates become strings). A copy: the input is not shared.
 *
 * @example
 * ```ts
 * import { toJson } from "./to_json.ts";
 * toJson({ a: 1, b: undefined, c: [undefined] }); // { a: 1, c: [null] }
 * ```
 */
export function toJson(value: unknown): Json | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      throw new TypeError("a bigint cannot be written as JSON");
    case "object": {
      if (value === null) return null;
      if ("toJSON" in value && typeof value.toJSON === "function") return toJson(value.toJSON());
      if (Array.isArray(value)) return value.map((v) => toJson(v) ?? null);
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(value)) {
        const j = toJson(v);
        if (j !== undefined) out[k] = j;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * An object as a JSON object (see {@link toJson}).
 *
 * @example
 * ```ts
 * import { toJsonObject } from "./to_json.ts";
 * toJsonObject({ kind: "Service", spec: undefined }); // { kind: "Service" }
 * ```
 */
export function toJsonObject(value: object): JsonObject {
  const j = toJson(value);
  return typeof j === "object" && j !== null && !Array.isArray(j) ? j : {};
}
