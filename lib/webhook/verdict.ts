/**
 * What a webhook function answers: allowed (with warnings), denied (with field reasons), or,
 * for a mutating webhook, the desired object.
 *
 * @module
 */
import { type FieldError, formatFieldError, type StatusReason } from "../core/status.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";

/** An admitted request. */
export interface Allowed {
  /** Discriminates the verdicts. */
  readonly _tag: "Allowed";
  /** Shown to the client (kubectl prints `Warning: ...`). */
  readonly warnings: readonly string[];
}

/** A denied request. */
export interface Denied {
  /** Discriminates the verdicts. */
  readonly _tag: "Denied";
  /** One per offending field (`field` in Kubernetes path form). */
  readonly reasons: readonly FieldError[];
  /** The message; default: the reasons as Kubernetes prints field errors. */
  readonly message?: string;
  /** HTTP code of the denial (default 403, Forbidden). */
  readonly code: number;
  /** Shown to the client with the error. */
  readonly warnings: readonly string[];
}

/** A validating webhook's answer. */
export type Verdict = Allowed | Denied;

/** A mutating webhook's answer: a verdict, or the object as it should be. */
export type Mutation<T> = Verdict | {
  readonly _tag: "Mutated";
  /** The object as it should be: built anew, or from the (read-only) request object by spread. */
  readonly object: T | DeepReadonly<T>;
  readonly warnings: readonly string[];
};

/** Options of {@link denied}. */
export interface DeniedOptions {
  /** HTTP code (default 403): 422 makes kubectl print the reasons as an invalid object. */
  readonly code?: number;
  /** Message instead of the reasons' text. */
  readonly message?: string;
  /** Warnings sent with the denial. */
  readonly warnings?: readonly string[];
}

/**
 * Admits the request.
 *
 * @example
 * ```ts
 * import { allowed } from "../../mod.ts";
 * allowed({ warnings: ["spec.legacy is deprecated"] })._tag; // "Allowed"
 * ```
 */
export function allowed(options: { readonly warnings?: readonly string[] } = {}): Allowed {
  return { _tag: "Allowed", warnings: options.warnings ?? [] };
}

/**
 * Denies the request, with one reason per offending field, or a message.
 *
 * Like controller-runtime's `admission.Denied`, but the reasons keep their field paths
 * (they become the Status' `details.causes`).
 *
 * @example
 * ```ts
 * import { denied } from "../../mod.ts";
 * const v = denied([{ type: "FieldValueRequired", field: "spec.size", detail: "Required value" }]);
 * v._tag; // "Denied"
 * ```
 */
export function denied(
  reasons: readonly FieldError[] | string,
  options: DeniedOptions = {},
): Denied {
  const list = typeof reasons === "string" ? [] : reasons;
  const message = typeof reasons === "string" ? reasons : options.message;
  return {
    _tag: "Denied",
    reasons: list,
    ...(message !== undefined ? { message } : {}),
    code: options.code ?? 403,
    warnings: options.warnings ?? [],
  };
}

/**
 * Answers a mutating webhook with the desired object; the framework sends the JSON patch
 * from the request's object to it.
 *
 * @example
 * ```ts
 * import { mutated } from "../../mod.ts";
 * mutated({ metadata: { labels: { team: "a" } } })._tag; // "Mutated"
 * ```
 */
export function mutated<T>(
  object: T,
  options: { readonly warnings?: readonly string[] } = {},
): Mutation<T> {
  return { _tag: "Mutated", object, warnings: options.warnings ?? [] };
}

const reasonOfCode: Record<number, StatusReason> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
};

/**
 * The text of a denial: its message, else its reasons as Kubernetes aggregates field errors
 * (one as is, several as `[a, b]`).
 *
 * @example
 * ```ts
 * import { denialMessage, denied } from "../../mod.ts";
 * denialMessage(denied([{ type: "FieldValueRequired", field: "spec.a", detail: "Required value" }]));
 * // "spec.a: Required value"
 * ```
 */
export function denialMessage(v: Denied): string {
  if (v.message !== undefined) return v.message;
  const texts = v.reasons.map(formatFieldError);
  return texts.length === 1 ? texts[0] : texts.length ? `[${texts.join(", ")}]` : "";
}

/** The `result` Status of a denial in an AdmissionResponse. */
export interface DenialStatus {
  /** Always `Failure`. */
  readonly status: "Failure";
  /** The denial's HTTP code. */
  readonly code: number;
  /** The reason of the code (`Forbidden` for 403, `Invalid` for 422, ...). */
  readonly reason?: StatusReason;
  /** The denial's text. */
  readonly message: string;
  /** The reasons as causes (field, reason, message). */
  readonly details?: {
    readonly causes: { reason: string; field: string; message: string }[];
  };
}

/**
 * The `result` Status of a denial in an AdmissionResponse.
 *
 * @example
 * ```ts
 * import { denialStatus, denied } from "../../mod.ts";
 * denialStatus(denied("no", { code: 422 })).reason; // "Invalid"
 * ```
 */
export function denialStatus(v: Denied): DenialStatus {
  const reason = reasonOfCode[v.code];
  return {
    status: "Failure" as const,
    code: v.code,
    ...(reason ? { reason } : {}),
    message: denialMessage(v),
    ...(v.reasons.length
      ? {
        details: {
          causes: v.reasons.map((r) => ({ reason: r.type, field: r.field, message: r.detail })),
        },
      }
      : {}),
  };
}
