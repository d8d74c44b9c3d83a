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
import { type RequestBudget, requestFlow, type RequestPriority } from "./create_request_budget.ts";
import { retryAfterDelayMs } from "./adaptive_bucket.ts";
import { guardBody } from "./_guard_body.ts";
import type { Logger } from "./logger.ts";

/** One HTTP request to the API server. */
export interface RequestSpec {
  /** The HTTP method. */
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path from the server root, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  /** The query string. */
  readonly query?: URLSearchParams;
  /** The body, already serialized. */
  readonly body?: string;
  /** The body's `Content-Type`. */
  readonly contentType?: string;
  /** The `Accept` header; default `application/json`. */
  readonly accept?: string;
  /** Aborts the request (and its retries). */
  readonly signal?: AbortSignal;
  /** The verb for messages (`get`, `list`, `patch`, ...). */
  readonly verb: string;
  /** What the request concerns, for messages. */
  readonly object?: RequestTarget;
  /** Which share of the budget it draws from; default `normal`. */
  readonly priority?: RequestPriority;
  /**
   * Longest silence while reading the body; default the transport's `bodyIdleTimeoutMs`.
   * `false` for watches, whose consumer runs its own idle watchdog.
   */
  readonly bodyIdleTimeoutMs?: number | false;
}

/** Timeouts of every request. */
export interface RequestTimeouts {
  /**
   * From sending until the response's status and headers arrive: covers connecting, TLS and
   * the server's answer (Deno's fetch has no separate connect hook); default 30,000 ms.
   */
  readonly headersTimeoutMs?: number;
  /**
   * Longest silence while the body arrives (not for watches); default 30,000 ms. A GET's body
   * is read by the runtime under a deadline this long (reading chunk by chunk in JavaScript,
   * which an idle timeout needs, costs a third more for a large list); one not complete by
   * then is requested again and read under the idle timeout, so a slow but steady body still
   * arrives and one that stalls fails after twice this.
   */
  readonly bodyIdleTimeoutMs?: number;
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
  readonly timeouts?: RequestTimeouts;
  /** Cap of one request's wait for a `Retry-After`; default 10,000 ms. */
  readonly maxRetryAfterMs?: number;
  /** An exec credential plugin still running after this long is killed; default 30,000 ms. */
  readonly execTimeoutMs?: number;
}

/** Sends requests; resolves to the 2xx response or an {@link ApiError}. */
export type Transport = (spec: RequestSpec) => Promise<Either<ApiError, Response>>;

const idempotent = new Set(["GET", "PUT"]);

/** The default longest silence while a body arrives (not for watches). */
export const DEFAULT_BODY_IDLE_MS = 30_000;

/** Builds the transport for one config. */
export function createTransport(config: ClientConfig, options: TransportOptions): Transport {
  const auth = createAuthProvider(config.auth, {
    scheduler: options.scheduler,
    ...(options.execTimeoutMs !== undefined ? { execTimeoutMs: options.execTimeoutMs } : {}),
  });
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

  const headersTimeoutMs = options.timeouts?.headersTimeoutMs ?? 30_000;
  const defaultBodyIdleMs = options.timeouts?.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_MS;

  /** One attempt: the response (headers in), or why not. */
  const attempt = async (
    spec: RequestSpec,
    url: string,
    headers: Record<string, string>,
  ): Promise<{ res: Response; abort: AbortController } | { error: unknown; timedOut: boolean }> => {
    const abort = new AbortController();
    const signal = spec.signal ? AbortSignal.any([spec.signal, abort.signal]) : abort.signal;
    let timedOut = false;
    const timer = options.scheduler.schedule(() => {
      timedOut = true;
      abort.abort();
    }, headersTimeoutMs);
    const init: RequestInit & { client?: Deno.HttpClient } = {
      method: spec.method,
      headers: {
        ...headers,
        accept: spec.accept ?? "application/json",
        "user-agent": options.userAgent,
        ...(spec.contentType ? { "content-type": spec.contentType } : {}),
      },
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      signal,
      ...(options.httpClient ? { client: options.httpClient } : {}),
    };
    try {
      const res = await options.fetch(url, init);
      const idle = spec.bodyIdleTimeoutMs ?? defaultBodyIdleMs;
      return { res: idle === false ? res : guardBody(res, idle, abort, options.scheduler), abort };
    } catch (error) {
      return { error, timedOut };
    } finally {
      timer.unsubscribe();
    }
  };

  return async (spec) => {
    const url = `${config.server}${spec.path}${spec.query?.size ? `?${spec.query}` : ""}`;
    let reauthenticated = false;
    const flow = requestFlow(spec.method, spec.path);
    for (let tries = 0;; tries++) {
      if (!(await options.budget.acquire(spec.signal, spec.priority, flow))) {
        return E.left(aborted(spec));
      }
      const headers = await auth.headers();
      if (E.isLeft(headers)) {
        return E.left({
          type: "config",
          message: `Cannot ${spec.verb}${what(spec)}: ${headers.left.message}`,
          cause: headers.left,
        });
      }
      const got = await attempt(spec, url, headers.right);
      if ("error" in got) {
        if (spec.signal?.aborted) return E.left(aborted(spec));
        const message = `Cannot ${spec.verb}${what(spec)}: ${
          got.timedOut
            ? `no response within ${headersTimeoutMs} ms (connect, TLS and headers)`
            : causeChain(got.error)
        }`;
        if (idempotent.has(spec.method) && tries < options.maxRetries) {
          options.logger.debug("retrying after a connection failure", {
            verb: spec.verb,
            attempt: tries,
            message,
          });
          const delay = backoffDelay(tries, options.random(), options.retryBackoff);
          if (!(await sleep(delay, spec.signal))) return E.left(aborted(spec));
          continue;
        }
        return E.left({
          type: "network",
          message,
          cause: got.error,
          ...(spec.object ? { object: spec.object } : {}),
        });
      }
      const res = got.res;
      // API Priority and Fairness names the level of every request it handled.
      const level = res.headers.get("x-kubernetes-pf-prioritylevel-uid") ?? undefined;
      if (level !== undefined) options.budget.observe(flow, level);
      if (res.ok) return E.right(res);
      // An error's body is read whole, under the idle guard even where the caller reads a
      // 2xx body itself (a watch).
      const errorBody = spec.bodyIdleTimeoutMs === false
        ? guardBody(res, defaultBodyIdleMs, got.abort, options.scheduler)
        : res;
      let text: string;
      try {
        text = await errorBody.text();
      } catch {
        if (spec.signal?.aborted) return E.left(aborted(spec));
        text = ""; // (a body that timed out or broke: the status code still tells)
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
      const retryAfterSeconds = error.type === "status" ? error.retryAfterSeconds : undefined;
      // An eviction refused by a PodDisruptionBudget is a 429 too, but an answer, not load.
      const refusal = error.type === "status" &&
        error.causes.some((c) => c.reason === "DisruptionBudget");
      const throttled = (res.status === 429 && !refusal) ||
        (res.status >= 500 && retryAfterSeconds !== undefined);
      // The answer slows the budget share of its priority level down; its Retry-After delays
      // only this request.
      if (throttled) options.budget.throttle(spec.priority, flow, level);
      if (throttled && tries < options.maxRetries) {
        const delay = retryAfterDelayMs(
          retryAfterSeconds,
          backoffDelay(tries, options.random(), options.retryBackoff),
          options.maxRetryAfterMs,
        );
        options.logger.debug("retrying a throttled request", {
          verb: spec.verb,
          code: res.status,
          attempt: tries,
          retryAfterSeconds,
          delayMs: delay,
        });
        if (!(await sleep(delay, spec.signal))) return E.left(aborted(spec));
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
