/**
 * Private JSON helpers shared by the patch modules: deep equality, deep clone, and
 * prototype-safe key writes (a JSON key may be `__proto__`).
 *
 * @module
 */
import type { Json, JsonObject } from "../../core/object.ts";

/** Whether a JSON value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own-property check that also works for `__proto__` and objects without a prototype. */
export function hasKey(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Sets an own, enumerable property, even when the key is `__proto__`. */
export function setKey(obj: JsonObject, key: string, value: Json): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    obj[key] = value;
  }
}

/** Structural equality of two JSON values (object key order does not matter). */
export { deepEqual } from "../../core/deep_equal.ts";

/**
 * A deep copy, as `Json`, of a document built of JSON values but typed loosely (a
 * `KubeObject`'s fields are `unknown`): what `JSON.stringify` would keep — fields holding
 * `undefined` are left out, an `undefined` array element becomes `null`.
 */
export function copyAsJson(value: unknown): Json {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : copyAsJson(v)));
  if (typeof value !== "object") return null;
  const out: JsonObject = {};
  for (const k of Object.keys(value)) {
    const v: unknown = Reflect.get(value, k);
    if (v !== undefined) setKey(out, k, copyAsJson(v));
  }
  return out;
}

/** A deep copy of a JSON value. */
export function cloneJson<T extends Json>(value: T): T;
export function cloneJson(value: Json): Json {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const out: JsonObject = {};
  for (const k of Object.keys(value)) setKey(out, k, cloneJson(value[k]));
  return out;
}

/** A shallow copy of a JSON object (prototype-safe). */
export function copyObject(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(obj)) setKey(out, k, obj[k]);
  return out;
}

/** A stable identity for a JSON value, usable as a `Map`/`Set` key. */
export function jsonKey(value: unknown): string {
  return typeof value === "string" ? `s${value}` : `j${JSON.stringify(value)}`;
}
