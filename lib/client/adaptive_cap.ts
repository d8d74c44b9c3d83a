/**
 * The default request budget's arithmetic: no cap while the server accepts, a cap only after
 * it pushes back.
 *
 * @module
 */

/** Options of {@link adaptiveCap}. */
export interface AdaptiveCapOptions {
  /** The cap never drops below this many requests per second; default 1. */
  readonly minQps?: number;
  /** Without pushback, the cap doubles every this many ms; default 2,000. */
  readonly doublingMs?: number;
  /** The window the request rate is measured over (for the first cap); default 1,000 ms. */
  readonly windowMs?: number;
}

/** State of an {@link adaptiveCap}. */
export interface AdaptiveCapState {
  /** The cap set by the last pushback (the recovery starts from it). */
  readonly floorQps: number;
  /** When the last pushback came (ms); `null` before any. */
  readonly throttledMs: number | null;
  /** The request rate when the last pushback came: above twice it, the cap lifts. */
  readonly demandQps: number;
  /** Tokens of the pacing bucket (negative: requests booked ahead). */
  readonly tokens: number;
  /** The time `tokens` refers to (ms); `null` before the first request. */
  readonly lastMs: number | null;
  /** Start of the current rate window (ms) and the requests counted in it. */
  readonly windowStartMs: number | null;
  readonly windowCount: number;
  /** The request rate of the last full window. */
  readonly rateQps: number;
}

/** The pure budget: {@link AdaptiveCapState} and the functions that step it. */
export interface AdaptiveCap {
  readonly initial: AdaptiveCapState;
  /** Books one request at `nowMs`: how long it must wait, and the next state. */
  take(state: AdaptiveCapState, nowMs: number): [delayMs: number, next: AdaptiveCapState];
  /** The server pushed back at `nowMs` (429, Retry-After): cap at half the current rate. */
  throttle(state: AdaptiveCapState, nowMs: number): AdaptiveCapState;
  /** The cap in force at `nowMs` (`Infinity` when uncapped). */
  capAt(state: AdaptiveCapState, nowMs: number): number;
}

/**
 * A request budget with no static limit: requests go at once until the server pushes back;
 * then the rate is capped at half the rate measured at that moment (never below `minQps`),
 * requests are paced to the cap, and the cap doubles every `doublingMs` without pushback
 * until it passes twice the rate that drew the pushback, when it lifts entirely. A pushback
 * while capped halves the cap again.
 *
 * Like TCP's congestion control (multiplicative decrease, exponential recovery), but for API
 * requests: client-go's static token bucket (20 QPS, burst 30) predates the API server's own
 * fairness (API Priority and Fairness queues and sheds load per priority level and answers
 * 429 with Retry-After), so a client that waits for the server's signal wastes nothing while
 * the server has room and still backs off together when it has not. Pure: the clock is an
 * argument; a clock that goes back is treated as standing still.
 *
 * @example
 * ```ts
 * import { adaptiveCap } from "./adaptive_cap.ts";
 * const c = adaptiveCap();
 * let s = c.initial;
 * for (let i = 0; i < 100; i++) s = c.take(s, i * 10)[1]; // 100 requests/s, none waits
 * s = c.throttle(s, 1000); // 429: capped at 50 requests/s
 * c.capAt(s, 1000); // 50
 * c.capAt(s, 3000); // 100: doubled after 2 s without pushback
 * c.capAt(s, 5000); // Infinity: past twice the 100/s that drew the 429
 * ```
 */
export function adaptiveCap(options: AdaptiveCapOptions = {}): AdaptiveCap {
  const minQps = options.minQps ?? 1;
  const doublingMs = options.doublingMs ?? 2_000;
  const windowMs = options.windowMs ?? 1_000;
  if (!(minQps > 0) || !(doublingMs > 0) || !(windowMs > 0)) {
    throw new RangeError(
      `Cannot create adaptiveCap: need minQps, doublingMs and windowMs > 0; got ${minQps}, ${doublingMs}, ${windowMs}`,
    );
  }

  const capAt = (s: AdaptiveCapState, nowMs: number): number => {
    if (s.throttledMs === null) return Infinity;
    const cap = s.floorQps * 2 ** (Math.max(0, nowMs - s.throttledMs) / doublingMs);
    return cap >= 2 * s.demandQps ? Infinity : cap;
  };

  /** Counts a request into the rate window. */
  const count = (s: AdaptiveCapState, nowMs: number): AdaptiveCapState => {
    if (s.windowStartMs === null) return { ...s, windowStartMs: nowMs, windowCount: 1 };
    const elapsed = nowMs - s.windowStartMs;
    if (elapsed < windowMs) return { ...s, windowCount: s.windowCount + 1 };
    // A window ended: its rate (spread over any idle time since, too).
    return {
      ...s,
      rateQps: (s.windowCount * 1000) / elapsed,
      windowStartMs: nowMs,
      windowCount: 1,
    };
  };

  /** The rate now: the last full window's, or the running one's when it is higher. */
  const rate = (s: AdaptiveCapState, nowMs: number): number => {
    const running = s.windowStartMs === null
      ? 0
      : (s.windowCount * 1000) / Math.max(windowMs, nowMs - s.windowStartMs);
    return Math.max(s.rateQps, running);
  };

  return {
    initial: {
      floorQps: Infinity,
      throttledMs: null,
      demandQps: 0,
      tokens: 0,
      lastMs: null,
      windowStartMs: null,
      windowCount: 0,
      rateQps: 0,
    },
    capAt,
    take(state, nowMs) {
      const now = state.lastMs === null ? nowMs : Math.max(nowMs, state.lastMs);
      const counted = count(state, now);
      const cap = capAt(counted, now);
      if (cap === Infinity) {
        return [0, { ...counted, tokens: 0, lastMs: now }];
      }
      // Pace to the cap with a burst of a tenth of a second's worth (at least one request).
      const burst = Math.max(1, cap / 10);
      const elapsed = state.lastMs === null ? 0 : now - state.lastMs;
      const tokens = Math.min(burst, counted.tokens + (elapsed * cap) / 1000) - 1;
      const delayMs = tokens >= 0 ? 0 : (-tokens * 1000) / cap;
      return [delayMs, { ...counted, tokens, lastMs: now }];
    },
    throttle(state, nowMs) {
      const now = state.lastMs === null ? nowMs : Math.max(nowMs, state.lastMs);
      const current = capAt(state, now);
      const measured = rate(state, now);
      const floorQps = Math.max(minQps, Math.min(current, measured) / 2);
      return {
        ...state,
        floorQps,
        throttledMs: now,
        demandQps: Math.max(measured, current === Infinity ? 0 : current, minQps),
        tokens: Math.min(state.tokens, 0),
        lastMs: now,
      };
    },
  };
}
