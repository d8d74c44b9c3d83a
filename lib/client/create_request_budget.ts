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

/**
 * Which share of the budget a request draws from. `leader-election` requests (Lease reads
 * and renewals) have a budget of their own, which the other requests' throttling never
 * slows: a busy or throttled client must not lose its lease.
 */
export type RequestPriority = "normal" | "leader-election";

/** A shared request budget: wait for a slot, report throttling. */
export interface RequestBudget {
  /** Resolves `true` when the request may go, `false` if `signal` aborted first. */
  acquire(signal?: AbortSignal, priority?: RequestPriority): Promise<boolean>;
  /** The server throttled a request of this priority (429 / Retry-After): slow down. */
  throttle(priority?: RequestPriority): void;
  /** The current rate of normal requests in requests per second. */
  readonly qps: number;
}

/** The leader-election share: a handful of requests every few seconds (client-go: 1 / 2 s). */
const leaderElectionBucket = { qps: 5, burst: 10, minQps: 1 };

/**
 * Creates a request budget over {@link adaptiveBucket}; waits run on `scheduler`.
 *
 * Like client-go's per-client `RateLimiter`, but meant to be created once per process and
 * shared by every client, and adaptive: `throttle` halves the rate, which climbs back over
 * `recoverMs`. Long-running requests (watches) should acquire once per (re)connect.
 * Leader-election requests draw from a separate small budget (5 QPS, burst 10).
 *
 * @example
 * ```ts
 * import { createRequestBudget } from "../../mod.ts";
 * const budget = createRequestBudget({ qps: 20, burst: 30 });
 * await budget.acquire(); // true at once: the bucket starts full
 * ```
 */
export function createRequestBudget(options: RequestBudgetOptions = {}): RequestBudget {
  const scheduler = options.scheduler ?? asyncScheduler;
  const lanes = {
    normal: { bucket: adaptiveBucket(options), state: undefined as BucketState | undefined },
    "leader-election": {
      bucket: adaptiveBucket(leaderElectionBucket),
      state: undefined as BucketState | undefined,
    },
  };
  const laneOf = (p: RequestPriority | undefined) => lanes[p ?? "normal"];
  return {
    acquire(signal, priority) {
      if (signal?.aborted) return Promise.resolve(false);
      const lane = laneOf(priority);
      const [delayMs, next] = lane.bucket.take(lane.state ?? lane.bucket.initial, scheduler.now());
      lane.state = next;
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
    throttle(priority) {
      const lane = laneOf(priority);
      lane.state = lane.bucket.throttle(lane.state ?? lane.bucket.initial, scheduler.now());
    },
    get qps() {
      return (lanes.normal.state ?? lanes.normal.bucket.initial).qps;
    },
  };
}
