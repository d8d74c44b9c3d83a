/**
 * The HTTP layer of the client: URL, credentials, budget, retries, Status errors.
 *
 * @module
 */
import { E, type Either, type SchedulerLike } from "../deps.ts";
import { createAuthProvider } from "./config/create_auth_provider.ts";
import type { ClientConfig } from "./config/types.ts";
import { type ApiError, describeObject, type RequestTarget, statusError } from "./api_error.ts";
import { backoffDelay, type BackoffOptions } from "./backoff_delay.ts";
import type { RequestBudget } from "./create_request_budget.ts";
import type { Logger } from "./logger.ts";

/** One HTTP request to the API server. */
export interface RequestSpec {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path from the server root, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  readonly query?: URLSearchParams;
  readonly body?: string;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
  /** The verb for messages (`get`, `list`, `patch`, ...). */
  readonly verb: string;
  /** What the request concerns, for messages. */
  readonly object?: RequestTarget;
}

/** Options shared by the transport. */
export interface TransportOptions {
  readonly fetch: typeof fetch;
  readonly budget: RequestBudget;
  readonly scheduler: SchedulerLike;
  readonly userAgent: string;
  readonly logger: Logger;
  readonly maxRetries: number;
  readonly retryBackoff: BackoffOptions;
  readonly random: () => number;
  readonly httpClient?: Deno.HttpClient;
}

/** Sends requests; resolves to the 2xx response or an {@link ApiError}. */
export type Transport = (spec: RequestSpec) => Promise<Either<ApiError, Response>>;

const idempotent = new Set(["GET", "PUT"]);

/** Builds the transport for one config. */
export function createTransport(config: ClientConfig, options: TransportOptions): Transport {
  const auth = createAuthProvider(config.auth);
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (signal?.aborted) return resolve(false);
      const onAbort = () => {
        sub.unsubscribe();
        resolve(false);
      };
      const sub = options.scheduler.schedule(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  const what = (spec: RequestSpec) => (spec.object ? ` ${describeObject(spec.object)}` : "");
  const aborted = (spec: RequestSpec): ApiError => ({
    type: "aborted",
    message: `Cannot ${spec.verb}${what(spec)}: aborted`,
    ...(spec.object ? { object: spec.object } : {}),
  });

  return async (spec) => {
    const url = `${config.server}${spec.path}${spec.query?.size ? `?${spec.query}` : ""}`;
    let reauthenticated = false;
    for (let attempt = 0;; attempt++) {
      if (!(await options.budget.acquire(spec.signal))) return E.left(aborted(spec));
      const headers = await auth.headers();
      if (E.isLeft(headers)) {
        return E.left({
          type: "config",
          message: `Cannot ${spec.verb}${what(spec)}: ${headers.left.message}`,
          cause: headers.left,
        });
      }
      const init: RequestInit & { client?: Deno.HttpClient } = {
        method: spec.method,
        headers: {
          ...headers.right,
          accept: "application/json",
          "user-agent": options.userAgent,
          ...(spec.contentType ? { "content-type": spec.contentType } : {}),
        },
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        ...(spec.signal ? { signal: spec.signal } : {}),
        ...(options.httpClient ? { client: options.httpClient } : {}),
      };
      let res: Response;
      try {
        res = await options.fetch(url, init);
      } catch (cause) {
        if (spec.signal?.aborted) return E.left(aborted(spec));
        const message = `Cannot ${spec.verb}${what(spec)}: ${causeChain(cause)}`;
        if (idempotent.has(spec.method) && attempt < options.maxRetries) {
          options.logger.debug("retrying after a connection failure", {
            verb: spec.verb,
            attempt,
            message,
          });
          const delay = backoffDelay(attempt, options.random(), options.retryBackoff);
          if (!(await sleep(delay, spec.signal))) return E.left(aborted(spec));
          continue;
        }
        return E.left({
          type: "network",
          message,
          cause,
          ...(spec.object ? { object: spec.object } : {}),
        });
      }
      if (res.ok) return E.right(res);
      let text: string;
      try {
        text = await res.text();
      } catch {
        if (spec.signal?.aborted) return E.left(aborted(spec));
        text = "";
      }
      const error = statusError(res.status, text, {
        retryAfter: res.headers.get("retry-after"),
        verb: spec.verb,
        ...(spec.object ? { object: spec.object } : {}),
      });
      if (res.status === 401 && !reauthenticated && config.auth.type !== "none") {
        reauthenticated = true;
        auth.invalidate();
        continue;
      }
      const retryAfterMs = error.type === "status" && error.retryAfterSeconds !== undefined
        ? error.retryAfterSeconds * 1000
        : undefined;
      const throttled = res.status === 429 || (res.status >= 500 && retryAfterMs !== undefined);
      if (throttled) options.budget.throttle(retryAfterMs);
      if (throttled && attempt < options.maxRetries) {
        options.logger.debug("retrying a throttled request", {
          verb: spec.verb,
          code: res.status,
          attempt,
          retryAfterMs,
        });
        const delay = Math.max(
          retryAfterMs ?? 0,
          backoffDelay(attempt, options.random(), { ...options.retryBackoff }),
        );
        // The budget's pause already covers Retry-After; sleep only the backoff beyond it.
        if (!(await sleep(Math.max(0, delay - (retryAfterMs ?? 0)), spec.signal))) {
          return E.left(aborted(spec));
        }
        continue;
      }
      return E.left(error);
    }
  };
}

/** An error's message with its nested causes (`fetch failed: invalid peer certificate: ...`). */
function causeChain(cause: unknown): string {
  const parts: string[] = [];
  for (let c = cause, depth = 0; c !== undefined && c !== null && depth < 5; depth++) {
    const text = c instanceof Error ? c.message : String(c);
    if (text && !parts.includes(text)) parts.push(text);
    c = c instanceof Error ? c.cause : undefined;
  }
  return parts.join(": ");
}
