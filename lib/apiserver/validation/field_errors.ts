/**
 * Field errors with kube-apiserver's wording (apimachinery `pkg/util/validation/field`):
 * the detail text after the field path, with the bad value already rendered (see
 * `go_value.ts`).
 *
 * @example
 * ```ts
 * import { immutable, nonNegative, required } from "./field_errors.ts";
 * required("spec.selector").detail; // "Required value"
 * immutable("spec.selector", "v1.LabelSelector{...}").detail;
 * // "Invalid value: v1.LabelSelector{...}: field is immutable"
 * nonNegative("spec.replicas", -1)[0].detail;
 * // "Invalid value: -1: must be greater than or equal to 0"
 * ```
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";

/** `Required value[: detail]`. */
export const required = (field: string, detail = ""): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail: detail ? `Required value: ${detail}` : "Required value",
});

/** `Invalid value: <value>[: detail]`; `value` is already rendered. */
export const invalid = (field: string, value: string, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  detail: detail ? `Invalid value: ${value}: ${detail}` : `Invalid value: ${value}`,
});

/** `Forbidden: detail`. */
export const forbidden = (field: string, detail: string): FieldError => ({
  type: "FieldValueForbidden",
  field,
  detail: `Forbidden: ${detail}`,
});

/** `Unsupported value: <value>: supported values: "a", "b"`. */
export const notSupported = (
  field: string,
  value: string,
  supported: readonly string[],
): FieldError => ({
  type: "FieldValueNotSupported",
  field,
  detail: `Unsupported value: ${value}: supported values: ${
    supported.map((s) => JSON.stringify(s)).join(", ")
  }`,
});

/** kube's `ValidateImmutableField`: `Invalid value: <value>: field is immutable`. */
export const immutable = (field: string, value: string): FieldError =>
  invalid(field, value, "field is immutable");

/**
 * kube's `ValidateNonnegativeField` on a number that is set.
 *
 * @example
 * ```ts
 * import { nonNegative } from "./field_errors.ts";
 * nonNegative("spec.replicas", 2); // []
 * ```
 */
export function nonNegative(field: string, value: unknown): FieldError[] {
  return typeof value === "number" && value < 0
    ? [invalid(field, String(value), "must be greater than or equal to 0")]
    : [];
}
