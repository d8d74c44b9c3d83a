/**
 * The watcher's checks and notes: the default object check, the notes of skipped objects and
 * failed requests, and how a server that rejects streaming lists is recognized.
 *
 * @module
 */
import type { ApiError } from "../client/api_error.ts";
import type { WatcherNote } from "./watcher_state.ts";

/**
 * The default object check: a JSON object whose `metadata.name` is a non-empty string.
 *
 * @example
 * ```ts
 * import { checkObject } from "./watcher_checks.ts";
 * checkObject({ metadata: { name: "a" } }); // undefined
 * checkObject({ kind: "Pod", metadata: {} }); // "Pod without metadata.name: ..."
 * ```
 */
export function checkObject(object: unknown): string | undefined {
  const meta = (object as { metadata?: { name?: unknown } } | null)?.metadata;
  if (typeof meta === "object" && meta !== null && typeof meta.name === "string" && meta.name) {
    return undefined;
  }
  const kind = (object as { kind?: unknown } | null)?.kind;
  const text = JSON.stringify(object) ?? String(object);
  return `${typeof kind === "string" ? kind : "object"} without metadata.name: ${
    text.slice(0, 120)
  }`;
}

/** The note of an object skipped because `check` found a problem with it. */
export function skipped(problem: string): WatcherNote {
  return { level: "error", message: `skipped an object that does not decode: ${problem}` };
}

/** The note of a failed request: the message, the error's message and type, its HTTP code. */
export function failed(
  message: string,
  error: ApiError,
  level: WatcherNote["level"] = "warn",
): WatcherNote {
  return {
    level,
    message,
    fields: {
      error: error.message,
      errorType: error.type,
      ...(error.type === "status" ? { code: error.code } : {}),
    },
  };
}

/**
 * Whether a failed streaming-list watch means the server does not support streaming lists
 * (a 4xx other than 401, 403, 410 and 429), so the watcher falls back to LIST.
 */
export function rejectsStreaming(error: ApiError): boolean {
  return error.type === "status" && error.code >= 400 && error.code < 500 && error.code !== 410 &&
    error.code !== 429 &&
    error.code !== 401 && error.code !== 403;
}
