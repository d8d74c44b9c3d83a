/**
 * Predicates over {@link ApiError}: which failure is it?
 *
 * @module
 */
import type { ApiError } from "./api_error.ts";

function is(e: ApiError, reasons: readonly string[], code?: number): boolean {
  return e.type === "status" && (reasons.includes(e.reason) || e.code === code);
}

/**
 * Whether the object (or its namespace, or the resource) was not found (404).
 *
 * @example
 * ```ts
 * import { isNotFound } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isNotFound(statusError(404, "")); // true
 * ```
 */
export function isNotFound(e: ApiError): boolean {
  return is(e, ["NotFound"], 404);
}

/**
 * Whether a write lost an optimistic-concurrency race or failed a precondition (409 Conflict).
 *
 * @example
 * ```ts
 * import { isConflict } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isConflict(statusError(409, "")); // true
 * ```
 */
export function isConflict(e: ApiError): boolean {
  return is(e, ["Conflict"]) ||
    (e.type === "status" && e.code === 409 && e.reason !== "AlreadyExists");
}

/**
 * Whether a create found the name taken (409 AlreadyExists).
 *
 * @example
 * ```ts
 * import { isAlreadyExists } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isAlreadyExists(statusError(409, '{"kind":"Status","reason":"AlreadyExists","code":409}')); // true
 * ```
 */
export function isAlreadyExists(e: ApiError): boolean {
  return is(e, ["AlreadyExists"]);
}

/**
 * Whether a resourceVersion or continue token is too old (410 Expired or Gone).
 *
 * @example
 * ```ts
 * import { isGone } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isGone(statusError(410, "")); // true
 * ```
 */
export function isGone(e: ApiError): boolean {
  return is(e, ["Expired", "Gone"], 410);
}

/**
 * Whether the object failed validation (422 Invalid); its `causes` name the fields.
 *
 * @example
 * ```ts
 * import { isInvalid } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isInvalid(statusError(422, "")); // true
 * ```
 */
export function isInvalid(e: ApiError): boolean {
  return is(e, ["Invalid"], 422);
}

/**
 * Whether the server throttled the request (429 TooManyRequests).
 *
 * @example
 * ```ts
 * import { isTooManyRequests } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isTooManyRequests(statusError(429, "slow down")); // true
 * ```
 */
export function isTooManyRequests(e: ApiError): boolean {
  return is(e, ["TooManyRequests"], 429);
}

/**
 * Whether a watch or list asked for a resourceVersion newer than the server has (504 with cause
 * `ResourceVersionTooLarge`); clients relist from scratch.
 *
 * @example
 * ```ts
 * import { isResourceVersionTooLarge } from "../../mod.ts";
 * import { statusError } from "./api_error.ts";
 * isResourceVersionTooLarge(statusError(504, "")); // false
 * ```
 */
export function isResourceVersionTooLarge(e: ApiError): boolean {
  return e.type === "status" && e.causes.some((c) => c.reason === "ResourceVersionTooLarge");
}
