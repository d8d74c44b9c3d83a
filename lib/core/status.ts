/**
 * The metav1 `Status` object every API failure is reported with, and field errors.
 *
 * @module
 */

/** One cause of a failure; for validation errors, one per bad field. */
export interface StatusCause {
  /** A machine-readable reason, e.g. `FieldValueInvalid`. */
  reason?: string;
  /** A human-readable message. */
  message?: string;
  /** The field at fault, e.g. `spec.replicas`. */
  field?: string;
}

/** `metav1.Status`. */
export interface Status {
  /** Always `Status`. */
  kind: "Status";
  /** Always `v1`. */
  apiVersion: "v1";
  /** List metadata (unused in errors). */
  metadata: { resourceVersion?: string; continue?: string };
  /** `Success` or `Failure`. */
  status: "Success" | "Failure";
  /** A human-readable message. */
  message?: string;
  /** Why the request failed, machine-readable. */
  reason?: StatusReason;
  /** The object concerned, the causes and when to retry. */
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
  /** The HTTP status code. */
  code: number;
}

/** The reasons Kubernetes reports, with their HTTP codes in {@link statusCodes}. */
export type StatusReason =
  | "NotFound"
  | "AlreadyExists"
  | "Conflict"
  | "Invalid"
  | "BadRequest"
  | "Expired"
  | "Gone"
  | "MethodNotAllowed"
  | "UnsupportedMediaType"
  | "NotAcceptable"
  | "Unauthorized"
  | "Forbidden"
  | "TooManyRequests"
  | "RequestEntityTooLarge"
  | "Timeout"
  | "ServerTimeout"
  | "InternalError"
  | "ServiceUnavailable";

/**
 * HTTP code of each reason.
 *
 * @example
 * ```ts
 * import { statusCodes } from "./status.ts";
 * statusCodes.Conflict; // 409
 * ```
 */
export const statusCodes: Record<StatusReason, number> = {
  NotFound: 404,
  AlreadyExists: 409,
  Conflict: 409,
  Invalid: 422,
  BadRequest: 400,
  Expired: 410,
  Gone: 410,
  MethodNotAllowed: 405,
  UnsupportedMediaType: 415,
  NotAcceptable: 406,
  Unauthorized: 401,
  Forbidden: 403,
  TooManyRequests: 429,
  RequestEntityTooLarge: 413,
  Timeout: 504,
  ServerTimeout: 500,
  InternalError: 500,
  ServiceUnavailable: 503,
};

/**
 * Builds a failure `Status`.
 *
 * @example
 * ```ts
 * import { failure } from "./status.ts";
 * const s = failure("NotFound", 'configmaps "a" not found', { name: "a", kind: "configmaps" });
 * s.code; // 404
 * ```
 */
export function failure(
  reason: StatusReason,
  message: string,
  details?: Status["details"],
): Status {
  const s: Status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    reason,
    code: statusCodes[reason],
  };
  if (details) s.details = details;
  return s;
}

/** The kinds of field error Kubernetes distinguishes (`CauseType` values). */
export type FieldErrorType =
  | "FieldValueRequired"
  | "FieldValueInvalid"
  | "FieldValueNotSupported"
  | "FieldValueForbidden"
  | "FieldValueTooLong"
  | "FieldValueTooMany"
  | "FieldValueTypeInvalid"
  | "FieldValueDuplicate"
  | "FieldValueNotFound"
  | "InternalError";

/** One validation failure at a field path such as `spec.items[0].name`. */
export interface FieldError {
  /** What is wrong with the field. */
  readonly type: FieldErrorType;
  /** Field path in Kubernetes form: `spec.ports[0].name`, `metadata.labels[app]`. */
  readonly field: string;
  /** Text after the field path, e.g. `Required value` or `Invalid value: "x": detail`. */
  readonly detail: string;
}

/**
 * A field error's text as Kubernetes prints it: `<field>: <detail>`.
 *
 * @example
 * ```ts
 * import { formatFieldError } from "./status.ts";
 * formatFieldError({ type: "FieldValueRequired", field: "spec.x", detail: "Required value" });
 * // "spec.x: Required value"
 * ```
 */
export function formatFieldError(e: FieldError): string {
  return e.field ? `${e.field}: ${e.detail}` : e.detail;
}

/**
 * The 422 `Invalid` Status for an object, one cause per field error.
 *
 * @example
 * ```ts
 * import { invalid } from "./status.ts";
 * const s = invalid("ConfigMap", "", "Demo", [
 *   { type: "FieldValueInvalid", field: "metadata.name", detail: 'Invalid value: "Demo": bad' },
 * ]);
 * s.code; // 422
 * ```
 */
export function invalid(
  kind: string,
  group: string,
  name: string,
  errors: readonly FieldError[],
): Status {
  const qualified = group ? `${kind}.${group}` : kind;
  const texts = errors.map(formatFieldError);
  const body = texts.length === 1 ? texts[0] : `[${texts.join(", ")}]`;
  return failure("Invalid", `${qualified} "${name}" is invalid: ${body}`, {
    name,
    ...(group ? { group } : {}),
    kind,
    causes: errors.map((e) => ({ reason: e.type, message: e.detail, field: e.field })),
  });
}

/**
 * Renders a value the way Kubernetes quotes it in field errors (Go `%#v`-ish JSON).
 *
 * @example
 * ```ts
 * import { quoteValue } from "./status.ts";
 * quoteValue("Demo"); // "\"Demo\""
 * ```
 */
export function quoteValue(value: unknown): string {
  if (value === undefined) return "null";
  return JSON.stringify(value);
}
