/**
 * `runLeaderElection()`: the RxJS shell running {@link stepElection} against a real Lease.
 *
 * @module
 */
import {
  asyncScheduler,
  type Either,
  Observable,
  type SchedulerLike,
  Subscription,
} from "../deps.ts";
import { type Logger, silentLogger, withFields } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import type { ApiError } from "../client/api_error.ts";
import { isAlreadyExists, isConflict, isNotFound } from "../client/is_api_error.ts";
import { type Lease, leaseResource } from "./lease.ts";
import {
  type ElectionAction,
  type ElectionEvent,
  initialElection,
  nextWakeMs,
  type WriteResult,
} from "./election_state.ts";
import { stepElection } from "./step_election.ts";

/** Options of {@link runLeaderElection}. */
export interface LeaderElectionOptions {
  /** Name of the Lease. */
  readonly name: string;
  /** Namespace of the Lease; default the client's namespace, else `default`. */
  readonly namespace?: string;
  /** This candidate's identity; default `kubefold-<random UUID>`. Must differ between replicas. */
  readonly identity?: string;
  /** Default 15 000; written to the Lease rounded up to whole seconds. */
  readonly leaseDurationMs?: number;
  /** Default 10 000; a leader that cannot renew for this long emits `false`. */
  readonly renewDeadlineMs?: number;
  /** Default 2 000. */
  readonly retryPeriodMs?: number;
  /** Each GET/POST/PUT is aborted after this long; default `renewDeadlineMs / 2`. */
  readonly requestTimeoutMs?: number;
  /** Hand the Lease back on stop or unsubscribe (default true). */
  readonly releaseOnStop?: boolean;
  /** Graceful stop: emits `false` (if leading), releases the Lease, then completes. */
  readonly stop$?: Observable<unknown>;
  /** Clock and timers; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Receives the election's log lines. Default: none. */
  readonly logger?: Logger;
  /** Random numbers in [0, 1) seeding the retry jitter; default `Math.random`. */
  readonly random?: () => number;
}

const toWrite = (r: Either<ApiError, Lease>): WriteResult =>
  r._tag === "Right"
    ? { type: "ok", lease: r.right }
    : isConflict(r.left) || isAlreadyExists(r.left)
    ? { type: "conflict" }
    : { type: "failed", message: r.left.message };

/**
 * Campaigns for a Lease and tells whether this process leads: `false` at once, then `true`
 * when it acquires the Lease and `false` when it stops leading.
 *
 * Like client-go's `LeaderElector` with `ReleaseOnCancel`, but cold and reactive: subscribing
 * campaigns, unsubscribing stops (and releases the Lease in the background when held), and
 * `stop$` stops gracefully, completing once the release is answered. A leader that has not
 * renewed within `renewDeadlineMs` emits `false` before anyone else can take over (see
 * {@link stepElection}); stop acting on `false` at once. Retries of non-leaders are jittered.
 * Unsubscribing emits nothing more (the subscriber is gone): stop acting before unsubscribing,
 * or use `stop$`, which emits `false` first. Durations breaking
 * `leaseDurationMs > renewDeadlineMs > 1.2 × retryPeriodMs > 0` error the observable with a
 * `RangeError` on subscribe.
 *
 * @example
 * ```ts
 * import { connect, runLeaderElection } from "../../mod.ts";
 * import { startApiServer } from "../apiserver/mod.ts";
 * import { filter, firstValueFrom, Subject } from "../deps.ts";
 * const server = await startApiServer();
 * const made = await connect({ kubeconfigYaml: server.kubeconfig });
 * if (made._tag === "Right") {
 *   const stop$ = new Subject<void>();
 *   const leading$ = runLeaderElection(made.right, { name: "my-controller", identity: "a", stop$ });
 *   const done = new Promise<void>((resolve) => leading$.subscribe({ complete: resolve }));
 *   // In real code, start the controllers on `true` and stop them on `false`.
 *   await firstValueFrom(leading$.pipe(filter(Boolean))).catch(() => {});
 *   stop$.next();
 *   await done;
 *   made.right.close();
 * }
 * await server.close();
 * ```
 */
export function runLeaderElection(
  client: Client,
  options: LeaderElectionOptions,
): Observable<boolean> {
  return new Observable<boolean>((subscriber) => {
    const scheduler = options.scheduler ?? asyncScheduler;
    const name = options.name;
    const namespace = options.namespace ?? client.config.namespace ?? "default";
    const identity = options.identity ?? `kubefold-${crypto.randomUUID()}`;
    const renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    // Lease requests have a budget of their own: other requests' throttling never delays them.
    const priority = "leader-election" as const;
    const requestTimeoutMs = options.requestTimeoutMs ?? renewDeadlineMs / 2;
    const log = withFields(options.logger ?? silentLogger, {
      lease: `${namespace}/${name}`,
      identity,
    });
    let state = initialElection({
      identity,
      name,
      namespace,
      leaseDurationMs: options.leaseDurationMs ?? 15_000,
      renewDeadlineMs,
      retryPeriodMs: options.retryPeriodMs ?? 2_000,
      releaseOnStop: options.releaseOnStop ?? true,
      seed: Math.floor((options.random ?? Math.random)() * 2 ** 32),
    }, scheduler.now());
    let timer: Subscription | undefined;
    let inFlight: { id: number; abort: AbortController; timeout: Subscription } | undefined;
    let lastId = 0;
    const queue: ElectionEvent[] = [];
    let busy = false;
    const stopSub = new Subscription();

    const abandon = () => {
      if (!inFlight) return;
      inFlight.timeout.unsubscribe();
      inFlight.abort.abort();
      inFlight = undefined;
    };
    const request = (run: (signal: AbortSignal) => Promise<(nowMs: number) => ElectionEvent>) => {
      const id = ++lastId;
      const abort = new AbortController();
      const timeout = scheduler.schedule(() => abort.abort(), requestTimeoutMs);
      inFlight = { id, abort, timeout };
      run(abort.signal)
        .catch((e) => (nowMs: number): ElectionEvent => ({
          type: "wrote",
          nowMs,
          result: { type: "failed", message: String(e) },
        }))
        .then((event) => {
          timeout.unsubscribe();
          if (inFlight?.id !== id) return;
          inFlight = undefined;
          feed(event(scheduler.now()));
        });
    };
    const perform = (a: ElectionAction) => {
      switch (a.type) {
        case "get":
          return request(async (signal) => {
            const r = await client.get<Lease>(leaseResource, name, { namespace, signal, priority });
            return (nowMs) => ({
              type: "read",
              nowMs,
              result: r._tag === "Right"
                ? { type: "found", lease: r.right }
                : isNotFound(r.left)
                ? { type: "absent" }
                : { type: "failed", message: r.left.message },
            });
          });
        case "create":
        case "update":
          return request(async (signal) => {
            const r = a.type === "create"
              ? await client.create(a.lease, { namespace, signal, priority })
              : await client.replace(a.lease, { namespace, signal, priority });
            if (r._tag === "Left" && !isConflict(r.left) && !isAlreadyExists(r.left)) {
              log.warn("cannot write the lease", { error: r.left.message });
            }
            return (nowMs) => ({ type: "wrote", nowMs, result: toWrite(r) });
          });
        case "startedLeading":
          log.info("started leading");
          return subscriber.next(true);
        case "stoppedLeading":
          log.info("stopped leading", { reason: a.reason });
          return subscriber.next(false);
        case "holderChanged":
          return log.info("new lease holder", { holder: a.holder });
        case "done":
          log.info("leader election stopped", {
            holder: state.observed?.lease.spec?.holderIdentity ?? "",
          });
          stopSub.unsubscribe();
          return subscriber.complete();
      }
    };
    const reschedule = () => {
      timer?.unsubscribe();
      timer = undefined;
      const at = nextWakeMs(state);
      if (at === undefined) return;
      timer = scheduler.schedule(() => {
        timer = undefined;
        feed({ type: "tick", nowMs: scheduler.now() });
      }, Math.max(0, at - scheduler.now()));
    };
    function feed(event: ElectionEvent): void {
      queue.push(event);
      if (busy) return;
      busy = true;
      try {
        for (let e = queue.shift(); e !== undefined; e = queue.shift()) {
          if (e.type === "stop") abandon();
          const step = stepElection(state, e);
          state = step.state;
          for (const a of step.actions) perform(a);
        }
      } finally {
        busy = false;
      }
      reschedule();
    }

    const stop = () => feed({ type: "stop", nowMs: scheduler.now() });
    subscriber.next(false);
    if (options.stop$) stopSub.add(options.stop$.subscribe({ next: stop }));
    feed({ type: "tick", nowMs: scheduler.now() });
    return () => {
      stopSub.unsubscribe();
      if (state.phase === "running") stop();
      timer?.unsubscribe();
    };
  });
}
