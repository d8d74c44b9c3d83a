/**
 * `ApiError`: every way a request to the API server can fail, as a tagged union of values.
 *
 * @module
 */
import type { Status, StatusCause } from "../core/status.ts";

/** The object a request concerned, for messages: resource (`pods`, `deployments.apps`), namespace, name. */
export interface RequestTarget {
  /** Plural resource, qualified by its group when it has one (`deployments.apps`). */
  readonly resource: string;
  /** The namespace, when the request was namespaced. */
  readonly namespace?: string;
  /** The object's name, when the request was about one object. */
  readonly name?: string;
}

/**
 * Why a request failed.
 *
 * - `status`: the server answered with a non-2xx code (and usually a `Status` body).
 * - `network`: the request never got an answer (connection refused, reset, TLS failure).
 * - `decode`: the answer was not the JSON shape expected.
 * - `config`: credentials could not be produced (token file, exec plugin).
 * - `resolve`: discovery knows no resource for an `apiVersion` and `kind`.
 * - `aborted`: the caller's `AbortSignal` fired.
 *
 * Like client-go's `*errors.StatusError` plus `url.Error`, but as values; messages name the
 * verb and the object and never contain credentials.
 *
 * @example
 * ```ts
 * import type { ApiError } from "../../mod.ts";
 * function describe(e: ApiError): string {
 *   switch (e.type) {
 *     case "status": return `${e.code} ${e.reason}: ${e.message}`;
 *     case "network":
 *     case "decode":
 *     case "config":
 *     case "resolve":
 *     case "aborted": return e.message;
 *   }
 * }
 * describe({ type: "aborted", message: "Cannot list pods: aborted" });
 * ```
 */
export type ApiError =
  | {
    readonly type: "status";
    readonly code: number;
    /** `StatusReason` (`NotFound`, `Conflict`, ...); derived from the code when the body has none. */
    readonly reason: string;
    readonly message: string;
    readonly causes: readonly StatusCause[];
    /** The server's Status (synthesized when the body was not one). */
    readonly status: Status;
    readonly object?: RequestTarget;
    /** From `Retry-After` or `details.retryAfterSeconds`. */
    readonly retryAfterSeconds?: number;
  }
  | {
    readonly type: "network";
    readonly message: string;
    readonly cause: unknown;
    readonly object?: RequestTarget;
  }
  | { readonly type: "decode"; readonly message: string; readonly object?: RequestTarget }
  | { readonly type: "config"; readonly message: string; readonly cause: unknown }
  | {
    readonly type: "resolve";
    readonly message: string;
    readonly apiVersion: string;
    readonly kind: string;
  }
  | { readonly type: "aborted"; readonly message: string; readonly object?: RequestTarget };

const reasonsByCode: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  406: "NotAcceptable",
  409: "Conflict",
  410: "Expired",
  413: "RequestEntityTooLarge",
  415: "UnsupportedMediaType",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

/**
 * Describes an object for messages: `pods "default/web"`, `namespaces "kube-system"`, `pods`.
 *
 * @example
 * ```ts
 * import { describeObject } from "../../mod.ts";
 * describeObject({ resource: "pods", namespace: "default", name: "web" }); // 'pods "default/web"'
 * ```
 */
export function describeObject(ref: RequestTarget): string {
  if (ref.name === undefined) {
    return ref.namespace ? `${ref.resource} in namespace "${ref.namespace}"` : ref.resource;
  }
  return `${ref.resource} "${ref.namespace ? `${ref.namespace}/` : ""}${ref.name}"`;
}

/**
 * Builds a `status` ApiError from an HTTP code, a response body and the `Retry-After` header.
 *
 * A JSON `Status` body supplies reason, message and causes; any other body (e.g. the plain
 * text of a 429) is kept as the message, and the reason is derived from the code.
 *
 * @example
 * ```ts
 * import { statusError } from "./api_error.ts";
 * const e = statusError(429, "Too many requests", { retryAfter: "2" });
 * e.type === "status" && e.reason; // "TooManyRequests"
 * ```
 */
export function statusError(
  code: number,
  body: string,
  options: { retryAfter?: string | null; object?: RequestTarget; verb?: string } = {},
): ApiError {
  let parsed: Partial<Status> | undefined;
  try {
    const value = JSON.parse(body);
    if (value !== null && typeof value === "object" && value.kind === "Status") parsed = value;
  } catch { /* not JSON: keep the text */ }
  const reason = parsed?.reason ?? reasonsByCode[code] ??
    (code >= 500 ? "InternalError" : "Unknown");
  const text = parsed?.message ?? (body.trim().slice(0, 500) || `HTTP ${code}`);
  const header = options.retryAfter ? Number(options.retryAfter) : NaN;
  const retryAfterSeconds = Number.isFinite(header) ? header : parsed?.details?.retryAfterSeconds;
  const status: Status = {
    kind: "Status",
    apiVersion: "v1",
    metadata: parsed?.metadata ?? {},
    status: "Failure",
    message: text,
    reason: reason as Status["reason"],
    code,
    ...(parsed?.details ? { details: parsed.details } : {}),
  };
  const what = options.object ? ` ${describeObject(options.object)}` : "";
  return {
    type: "status",
    code,
    reason,
    message: `Cannot ${options.verb ?? "request"}${what}: ${reason} (${code}): ${text}`,
    causes: parsed?.details?.causes ?? [],
    status,
    ...(options.object ? { object: options.object } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

/**
 * Builds a `status` ApiError from a `Status` object (e.g. a watch `ERROR` event).
 *
 * @example
 * ```ts
 * import { fromStatus } from "./api_error.ts";
 * import { failure } from "../core/status.ts";
 * fromStatus(failure("Expired", "too old resource version: 1 (5)")).type; // "status"
 * ```
 */
export function fromStatus(status: Status, object?: RequestTarget, verb = "watch"): ApiError {
  return statusError(status.code ?? 500, JSON.stringify({ ...status, kind: "Status" }), {
    ...(object ? { object } : {}),
    verb,
  });
}
