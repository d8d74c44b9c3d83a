/**
 * `createRequestBudget()`: the one adaptive request budget a process shares.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike } from "../deps.ts";
import { adaptiveBucket, type BucketOptions, type BucketState } from "./adaptive_bucket.ts";

/** Options of {@link createRequestBudget}. */
export interface RequestBudgetOptions extends BucketOptions {
  /** Clock and timers; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** A shared request budget: wait for a slot, report throttling. */
export interface RequestBudget {
  /** Resolves `true` when the request may go, `false` if `signal` aborted first. */
  acquire(signal?: AbortSignal): Promise<boolean>;
  /** The server throttled us (429 / Retry-After): slow down, pause for `retryAfterMs`. */
  throttle(retryAfterMs?: number): void;
  /** The current rate in requests per second. */
  readonly qps: number;
}

/**
 * Creates a request budget over {@link adaptiveBucket}; waits run on `scheduler`.
 *
 * Like client-go's per-client `RateLimiter`, but meant to be created once per process and
 * shared by every client, and adaptive: `throttle` halves the rate, which climbs back over
 * `recoverMs`. Long-running requests (watches) should acquire once per (re)connect.
 *
 * @example
 * ```ts
 * import { createRequestBudget } from "../../mod.ts";
 * const budget = createRequestBudget({ qps: 20, burst: 30 });
 * await budget.acquire(); // true at once: the bucket starts full
 * ```
 */
export function createRequestBudget(options: RequestBudgetOptions = {}): RequestBudget {
  const bucket = adaptiveBucket(options);
  const scheduler = options.scheduler ?? asyncScheduler;
  let state: BucketState = bucket.initial;
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.resolve(false);
      const [delayMs, next] = bucket.take(state, scheduler.now());
      state = next;
      if (delayMs <= 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const onAbort = () => {
          sub.unsubscribe();
          resolve(false);
        };
        const sub = scheduler.schedule(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve(true);
        }, delayMs);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    throttle(retryAfterMs) {
      state = bucket.throttle(state, scheduler.now(), retryAfterMs);
    },
    get qps() {
      return state.qps;
    },
  };
}
