/**
 * `createFaultInjector()`: seeded fault injection for the embedded API server.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from "../../deps.ts";
import { failure, type StatusReason } from "../../core/status.ts";
import { statusResponse } from "../http_util.ts";
import type { FaultOptions, FaultSettings } from "./fault_options.ts";
import { seededRandom } from "./seeded_random.ts";

/** How a watch connection is dropped: a clean end of stream, or a broken one. */
export type WatchDrop = "close" | "error";

/** The kinds of injected faults, as counted by {@link FaultControl.counts}. */
export type FaultKind =
  | "latency"
  | "error500"
  | "error503"
  | "throttle"
  | "lostResponse"
  | "watchDrop"
  | "compaction";

/** Runtime control of the faults (`server.faults`): never faulted itself. */
export interface FaultControl {
  /** The seed of the PRNG deciding every fault. */
  readonly seed: number;
  /** Replaces the settings (`{}` turns all faults off); the random sequence continues. */
  set(settings: FaultSettings): void;
  /** Turns every fault off. */
  clear(): void;
  /** Forgets the watch history now: watches resuming from an older revision get 410 Gone. */
  compactNow(): void;
  /** The current settings. */
  settings(): FaultSettings;
  /** How many faults of each kind were injected so far. */
  counts(): Readonly<Record<FaultKind, number>>;
}

/** The hooks a watch stream calls. */
export interface WatchFaults {
  /** After each event sent: the way to drop the connection now, or undefined to go on. */
  afterEvent(): WatchDrop | undefined;
  /** Registers an open watch for timed drops; returns the function that unregisters it. */
  register(drop: (mode: WatchDrop) => void): () => void;
}

/** The injector the server wires in: the control, the watch hooks and a handler wrapper. */
export interface FaultInjector extends FaultControl, WatchFaults {
  /** Wraps the request handler: latency, 429/500/503 answers and lost responses. */
  wrap(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response>;
  /** Stops the timers (periodic compaction, timed watch drops). */
  close(): void;
}

/** Dependencies of {@link createFaultInjector}. */
export interface FaultInjectorDeps {
  /** Forgets the watch history (the server's `compactHistory`). */
  readonly compact: () => void;
  /** Timers of latency, compaction and timed drops; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

const tickMs = 100;
const writes = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const isApiPath = (p: string) =>
  p === "/api" || p === "/apis" || p.startsWith("/api/") || p.startsWith("/apis/");

/**
 * Creates the fault injector of one server. Only API paths (`/api...`, `/apis...`) are
 * faulted; `/healthz`, `/version` and OpenAPI are not. Every decision draws from one PRNG
 * seeded by `options.seed`, in request order, so a run replays exactly when the requests
 * arrive in the same order (concurrent clients may interleave differently).
 *
 * Like Chaos Mesh's HTTP faults, but in-process and seeded.
 *
 * @param options Seed and initial settings; undefined: seed 0, every fault off.
 * @param deps The compaction function and the scheduler.
 * @returns The injector.
 *
 * @example
 * ```ts
 * import { createFaultInjector } from "./create_fault_injector.ts";
 * const faults = createFaultInjector({ seed: 1, errorRate: 1 }, { compact: () => {} });
 * const handler = faults.wrap(() => Promise.resolve(new Response("ok")));
 * const res = await handler(new Request("http://x/api/v1/pods"));
 * res.status === 500 || res.status === 503; // true
 * faults.close();
 * ```
 */
export function createFaultInjector(
  options: FaultOptions | undefined,
  deps: FaultInjectorDeps,
): FaultInjector {
  const seed = options?.seed ?? 0;
  const random = seededRandom(seed);
  const scheduler = deps.scheduler ?? asyncScheduler;
  const counts: Record<FaultKind, number> = {
    latency: 0,
    error500: 0,
    error503: 0,
    throttle: 0,
    lostResponse: 0,
    watchDrop: 0,
    compaction: 0,
  };
  const watches = new Set<(mode: WatchDrop) => void>();
  let settings: FaultSettings = {};
  let timers: Subscription[] = [];

  const compactNow = () => {
    counts.compaction++;
    deps.compact();
  };
  const pickDrop = (): WatchDrop => {
    counts.watchDrop++;
    return random() < 0.5 ? "close" : "error";
  };
  const every = (ms: number, work: () => void) =>
    scheduler.schedule(function (this: { schedule(s: undefined, d: number): void }) {
      work();
      this.schedule(undefined, ms);
    }, ms);
  const apply = (next: FaultSettings) => {
    settings = { ...next };
    for (const t of timers) t.unsubscribe();
    timers = [];
    const compactEveryMs = settings.compactEveryMs ?? 0;
    if (compactEveryMs > 0) timers.push(every(compactEveryMs, compactNow));
    const perSecond = settings.watchDropPerSecond ?? 0;
    if (perSecond > 0) {
      const p = 1 - Math.pow(1 - perSecond, tickMs / 1000);
      timers.push(every(tickMs, () => {
        for (const drop of [...watches]) if (random() < p) drop(pickDrop());
      }));
    }
  };
  const latency = (): number => {
    const l = settings.latencyMs ?? 0;
    if (typeof l === "number") return l;
    return l[0] + random() * (l[1] - l[0]);
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => void scheduler.schedule(() => resolve(), ms));
  const injected = (reason: StatusReason, message: string, headers: Record<string, string> = {}) =>
    statusResponse(failure(reason, `injected fault: ${message}`), headers);

  const { seed: _seed, ...initial } = options ?? { seed };
  apply(initial);

  return {
    seed,
    set: apply,
    clear: () => apply({}),
    compactNow,
    settings: () => ({ ...settings }),
    counts: () => ({ ...counts }),
    afterEvent() {
      const rate = settings.watchDropRate ?? 0;
      return rate > 0 && random() < rate ? pickDrop() : undefined;
    },
    register(drop) {
      watches.add(drop);
      return () => void watches.delete(drop);
    },
    wrap(handler) {
      return async (req) => {
        if (!isApiPath(new URL(req.url).pathname)) return handler(req);
        const ms = latency();
        if (ms > 0) {
          counts.latency++;
          await sleep(ms);
        }
        const throttle = settings.throttleRate ?? 0;
        const error = settings.errorRate ?? 0;
        if (throttle > 0 || error > 0) {
          const r = random();
          if (r < throttle) {
            counts.throttle++;
            const s = settings.retryAfterSeconds ?? 1;
            return injected("TooManyRequests", `too many requests, retry after ${s}s`, {
              "retry-after": String(s),
            });
          }
          if (r < throttle + error) {
            if (random() < 0.5) {
              counts.error500++;
              return injected("InternalError", "internal error");
            }
            counts.error503++;
            return injected("ServiceUnavailable", "the server is unavailable");
          }
        }
        const res = await handler(req);
        const lost = settings.lostResponseRate ?? 0;
        if (lost > 0 && writes.has(req.method) && random() < lost) {
          counts.lostResponse++;
          await res.body?.cancel().catch(() => {});
          return injected("InternalError", "the request was processed but its response was lost");
        }
        return res;
      };
    },
    close() {
      for (const t of timers) t.unsubscribe();
      timers = [];
      watches.clear();
    },
  };
}
