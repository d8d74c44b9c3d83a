/**
 * Field-error constructors with Kubernetes wording (private to the schema engine).
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";

/**
 * Renders a bad value the way Go's field errors print it (`%q`, `%v` or `%#v`); a nil
 * value prints as the string `"null"`.
 */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return goSyntax(value);
}

function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return "interface {}(nil)";
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(", ")}}`;
  if (typeof value === "object") {
    const entries = Object.keys(value as object).sort().map((k) =>
      `${JSON.stringify(k)}:${goSyntax((value as Record<string, unknown>)[k])}`
    );
    return `map[string]interface {}{${entries.join(", ")}}`;
  }
  return goValue(value);
}

export const required = (field: string, detail = ""): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail: detail ? `Required value: ${detail}` : "Required value",
});

export const notSupported = (
  field: string,
  value: unknown,
  allowed: readonly string[],
): FieldError => ({
  type: "FieldValueNotSupported",
  field,
  detail: `Unsupported value: ${goValue(value)}: supported values: ${
    allowed.map((a) => JSON.stringify(a)).join(", ")
  }`,
});

export const typeInvalid = (field: string, value: unknown, message: string): FieldError => ({
  type: "FieldValueTypeInvalid",
  field,
  detail: `Invalid value: ${goValue(value)}: ${message}`,
});

export const fieldInvalid = (field: string, value: unknown, message: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  detail: `Invalid value: ${goValue(value)}: ${message}`,
});

export const tooLong = (field: string, max: number): FieldError => ({
  type: "FieldValueTooLong",
  field,
  detail: `Too long: may not be more than ${max} ${max === 1 ? "byte" : "bytes"}`,
});

export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: "FieldValueTooMany",
  field,
  detail: `Too many: ${actual}: must have at most ${max} ${max === 1 ? "item" : "items"}`,
});

export const duplicate = (field: string, value: unknown): FieldError => ({
  type: "FieldValueDuplicate",
  field,
  detail: `Duplicate value: ${goValue(value)}`,
});

export const forbidden = (field: string, detail: string): FieldError => ({
  type: "FieldValueForbidden",
  field,
  detail: `Forbidden: ${detail}`,
});

/** Canonical JSON (sorted object keys) for equality of JSON values. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const o = value as Record<string, unknown>;
  return `{${
    Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")
  }}`;
}

/** A Kubernetes field path for a child key: `a.b`, or `b` at the root. */
export const childPath = (path: string, key: string): string => path ? `${path}.${key}` : key;
