/**
 * `createRequestBudget()`: the request budget a client's requests share.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike } from "../deps.ts";
import { adaptiveBucket, type BucketOptions } from "./adaptive_bucket.ts";
import { adaptiveCap, type AdaptiveCapOptions } from "./adaptive_cap.ts";

/** Options of {@link createRequestBudget}. */
export interface RequestBudgetOptions extends BucketOptions, AdaptiveCapOptions {
  /** Clock and timers; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Which share of the budget a request draws from. `leader-election` requests (Lease reads
 * and renewals) have a budget of their own, which the other requests' throttling never
 * slows: a busy or throttled client must not lose its lease.
 */
export type RequestPriority = "normal" | "leader-election";

/** A shared request budget: wait for a slot, report what the server said. */
export interface RequestBudget {
  /**
   * Resolves `true` when the request may go, `false` if `signal` aborted first. `flow` names
   * the kind of request (e.g. `POST apps/v1/deployments`, see `requestFlow`): it draws from
   * the share of the API Priority and Fairness level that kind was last seen in.
   */
  acquire(signal?: AbortSignal, priority?: RequestPriority, flow?: string): Promise<boolean>;
  /**
   * The server pushed back on a request (429, or Retry-After on a 5xx): slow down the share
   * of its priority level (`priorityLevel`, from `X-Kubernetes-PF-PriorityLevel-UID`, else the
   * level `flow` was last seen in).
   */
  throttle(priority?: RequestPriority, flow?: string, priorityLevel?: string): void;
  /** A response named the priority level of a kind of request (`X-Kubernetes-PF-*`). */
  observe(flow: string, priorityLevel: string): void;
  /** The cap of normal requests in requests per second (`Infinity`: uncapped). */
  readonly qps: number;
}

/** The leader-election share: a handful of requests every few seconds (client-go: 1 / 2 s). */
const leaderElectionBucket = { qps: 5, burst: 10, minQps: 1 };

/** One share of the budget: a pure limiter and its state. */
interface Lane {
  take(nowMs: number): number;
  throttle(nowMs: number): void;
  cap(nowMs: number): number;
}

function bucketLane(options: BucketOptions): Lane {
  const bucket = adaptiveBucket(options);
  let state = bucket.initial;
  return {
    take(now) {
      const [delay, next] = bucket.take(state, now);
      state = next;
      return delay;
    },
    throttle: (now) => void (state = bucket.throttle(state, now)),
    cap: () => state.qps,
  };
}

function capLane(options: AdaptiveCapOptions): Lane {
  const cap = adaptiveCap(options);
  let state = cap.initial;
  return {
    take(now) {
      const [delay, next] = cap.take(state, now);
      state = next;
      return delay;
    },
    throttle: (now) => void (state = cap.throttle(state, now)),
    cap: (now) => cap.capAt(state, now),
  };
}

/** Kinds of request whose priority level is remembered (the table starts over when full). */
const maxFlows = 1_000;

/**
 * Creates a request budget; waits run on `scheduler`.
 *
 * **Default (no `qps` or `burst`): no cap while the server accepts.** Requests go at once;
 * when the server pushes back (429, Retry-After), the share of that request's API Priority
 * and Fairness level is capped at half the rate it was sending, then the cap doubles every
 * 2 s and lifts once it passes twice that rate (see {@link adaptiveCap}). The level comes from
 * the `X-Kubernetes-PF-PriorityLevel-UID` header kube-apiserver puts on every answer, so a
 * level the server sheds (say `workload-low`) slows only the kinds of request it holds;
 * without the headers every request shares one cap. Static client-side limits (client-go's
 * 20 QPS, burst 30) predate server-side fairness: the server now queues and sheds load per
 * priority level and says so, so a client that follows its signals wastes nothing while the
 * server has room and still backs off when it has not.
 *
 * **With `qps` or `burst`: a fixed cap** (a token bucket, client-go's `burst`), halved on
 * pushback and climbing back over `recoverMs`, for users who want one.
 *
 * Leader-election requests draw from a separate small budget (5 QPS, burst 10). A client
 * shares one budget across its requests, so the controllers of a manager (one client) share
 * it; pass one to several clients with `createClient({ budget })`. Long-running requests
 * (watches) acquire once per (re)connect.
 *
 * @example
 * ```ts
 * import { createRequestBudget } from "../../mod.ts";
 * const budget = createRequestBudget(); // no cap until the server pushes back
 * await budget.acquire(); // true at once
 * budget.qps; // Infinity
 * const fixed = createRequestBudget({ qps: 20, burst: 30 }); // client-go's static limit
 * fixed.qps; // 20
 * ```
 */
export function createRequestBudget(options: RequestBudgetOptions = {}): RequestBudget {
  const scheduler = options.scheduler ?? asyncScheduler;
  const fixed = options.qps !== undefined || options.burst !== undefined;
  const leaderElection = bucketLane(leaderElectionBucket);
  const unknownLevel = fixed ? bucketLane(options) : capLane(options);
  /** Priority level UID -> its share (adaptive mode only). */
  const levels = new Map<string, Lane>();
  /** Kind of request -> the priority level it was last seen in. */
  const flows = new Map<string, string>();
  const levelLane = (level: string | undefined): Lane => {
    if (fixed || level === undefined) return unknownLevel;
    let lane = levels.get(level);
    if (!lane) levels.set(level, lane = capLane(options));
    return lane;
  };
  const laneOf = (priority: RequestPriority | undefined, flow: string | undefined): Lane =>
    priority === "leader-election"
      ? leaderElection
      : levelLane(flow === undefined ? undefined : flows.get(flow));
  return {
    acquire(signal, priority, flow) {
      if (signal?.aborted) return Promise.resolve(false);
      const delayMs = laneOf(priority, flow).take(scheduler.now());
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
    throttle(priority, flow, priorityLevel) {
      const lane = priority === "leader-election"
        ? leaderElection
        : levelLane(priorityLevel ?? (flow === undefined ? undefined : flows.get(flow)));
      lane.throttle(scheduler.now());
    },
    observe(flow, priorityLevel) {
      if (flows.get(flow) === priorityLevel) return;
      if (flows.size >= maxFlows) flows.clear();
      flows.set(flow, priorityLevel);
    },
    get qps() {
      return unknownLevel.cap(scheduler.now());
    },
  };
}

/**
 * The kind of a request for the budget: method, group/version and resource (namespace and
 * name dropped), e.g. `PATCH apps/v1/deployments/status`. Requests of one kind land in the
 * same API Priority and Fairness level (flow schemas match on user, verb and resource).
 *
 * @example
 * ```ts
 * import { requestFlow } from "./create_request_budget.ts";
 * requestFlow("POST", "/api/v1/namespaces/default/pods"); // "POST v1/pods"
 * requestFlow("PATCH", "/apis/apps/v1/namespaces/a/deployments/web/status");
 * // "PATCH apps/v1/deployments/status"
 * ```
 */
export function requestFlow(method: string, path: string): string {
  const parts = path.split("/").filter((p) => p);
  const gv = parts[0] === "api" ? 2 : parts[0] === "apis" ? 3 : -1;
  if (gv < 0 || parts.length <= gv) return `${method} ${path}`;
  let rest = parts.slice(gv);
  if (rest[0] === "namespaces" && rest.length > 2) rest = rest.slice(2);
  const [resource, , subresource] = rest;
  return `${method} ${parts.slice(1, gv).join("/")}/${resource}${
    subresource ? `/${subresource}` : ""
  }`;
}
