/**
 * Which schema errors stop CEL rules from being evaluated.
 *
 * @module
 */
import type { FieldError, FieldErrorType } from "../../core/status.ts";

const BLOCKING: ReadonlySet<FieldErrorType> = new Set<FieldErrorType>([
  "FieldValueRequired",
  "FieldValueNotSupported",
  "FieldValueTooLong",
  "FieldValueTooMany",
  "FieldValueTypeInvalid",
]);

/**
 * Whether a schema validation error is "blocking": kube-apiserver skips CEL rules
 * (`x-kubernetes-validations`) when any such error exists, because the rules could see
 * values of the wrong type or shape. Pattern, bounds, minLength/minItems and duplicate
 * errors are not blocking.
 *
 * @example
 * ```ts
 * import { isBlockingError } from "./is_blocking_error.ts";
 * isBlockingError({ type: "FieldValueRequired", field: "spec.x", detail: "Required value" }); // true
 * isBlockingError({ type: "FieldValueInvalid", field: "spec.x", detail: "Invalid value: 1: x" }); // false
 * ```
 */
export function isBlockingError(error: FieldError): boolean {
  return BLOCKING.has(error.type);
}
