/**
 * `createEventRecorder()`: writes `events.k8s.io/v1` Events about objects, aggregating
 * repeats into a series and coalescing their writes.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import { type Logger, silentLogger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import { isAlreadyExists, isNotFound } from "../client/is_api_error.ts";
import {
  type EventInput,
  eventName,
  eventObject,
  type EventRegarding,
  normalizeInput,
  regardingOf,
  seriesField,
  seriesKey,
  type SeriesSnapshot,
} from "./_event_body.ts";

export type { EventInput, EventRegarding } from "./_event_body.ts";

/** Options of {@link createEventRecorder}. */
export interface EventRecorderOptions {
  /** `reportingController`, e.g. `example.com/widget-controller`. */
  readonly controller: string;
  /** `reportingInstance`, e.g. the pod name of this replica. */
  readonly instance: string;
  /** Timers of coalesced writes; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Clock of event times, epoch ms; default `scheduler.now()`. */
  readonly now?: () => number;
  /** Receives write failures; default silent. */
  readonly logger?: Logger;
  /** A repeat later than this after the last one starts a new event; default 6 min (client-go). */
  readonly seriesWindowMs?: number;
  /** Least time between two writes of one event; default 1,000 ms. */
  readonly minWriteIntervalMs?: number;
  /** Series remembered (least recently recorded forgotten first); default 4,096. */
  readonly maxSeries?: number;
}

/** Records events; never throws. */
export interface EventRecorder {
  /**
   * Records one occurrence of `event` about `regarding`. Resolves once the write it caused
   * right away (if any) is done; a repeat coalesced into a later write resolves at once.
   */
  record(regarding: KubeObject, event: EventInput): Promise<void>;
  /** Writes every pending count now and resolves when all writes are done. */
  flush(): Promise<void>;
}

interface Series extends SeriesSnapshot {
  name: string;
  count: number;
  lastObservedMs: number;
  /** Whether the Event exists on the server (as far as we know). */
  exists: boolean;
  lastWriteMs?: number;
  timer?: Subscription;
  inflight?: Promise<void>;
}

/**
 * Creates an event recorder writing `events.k8s.io/v1` Events through `client`.
 *
 * Like client-go's `tools/events` recorder, but with promises instead of a broadcaster
 * goroutine. The first occurrence of an event (same object uid, type, reason, action and
 * note) creates an Event named `<object>.<16 hex digits>` in the object's namespace
 * (`default` for cluster-scoped objects); repeats within `seriesWindowMs` of the previous one
 * raise `series.count` and `series.lastObservedTime` with a merge PATCH.
 *
 * Guarantees: at most one write per Event is in flight and writes of one Event are at least
 * `minWriteIntervalMs` apart, the count catching up on the next write; `flush()` writes every
 * pending count; failures are logged through `logger`, never thrown, and the next repeat
 * retries (an Event deleted meanwhile, e.g. by the server's TTL, is created again). Caveats:
 * counts are per process (each replica keeps its own series); a failed write is retried only
 * by a later repeat; forgotten series (beyond `maxSeries`) start a new Event on repeat.
 *
 * @param client the REST client
 * @param options identity of the reporter and tuning, see {@link EventRecorderOptions}
 * @returns the recorder
 *
 * @example
 * ```ts
 * import { connect, createEventRecorder } from "../../mod.ts";
 * import { startApiServer } from "../apiserver/mod.ts";
 * const server = await startApiServer();
 * const made = await connect({ kubeconfigYaml: server.kubeconfig });
 * if (made._tag === "Right") {
 *   const events = createEventRecorder(made.right, { controller: "example.com/demo", instance: "demo-0" });
 *   const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "default", uid: "u1" } };
 *   await events.record(cm, { type: "Normal", reason: "Synced", action: "Reconcile", note: "all good" });
 *   await events.flush();
 *   made.right.close();
 * }
 * await server.close();
 * ```
 */
export function createEventRecorder(client: Client, options: EventRecorderOptions): EventRecorder {
  const scheduler = options.scheduler ?? asyncScheduler;
  const now = options.now ?? (() => scheduler.now());
  const log = options.logger ?? silentLogger;
  const windowMs = options.seriesWindowMs ?? 6 * 60_000;
  const intervalMs = options.minWriteIntervalMs ?? 1_000;
  const maxSeries = Math.max(1, options.maxSeries ?? 4_096);
  const byKey = new Map<string, Series>();
  const pending = new Set<Series>();
  let sequence = 0;

  const fail = (s: Series, verb: string, message: string) =>
    log.warn("Cannot record event", {
      event: `${s.namespace}/${s.name}`,
      verb,
      reason: s.input.reason,
      regarding: `${s.regarding.kind ?? ""} ${s.regarding.namespace ?? ""}/${
        s.regarding.name ?? ""
      }`,
      error: message,
    });

  const create = async (s: Series, target: SeriesSnapshot): Promise<void> => {
    const r = await client.create(eventObject(target));
    if (r._tag === "Right" || isAlreadyExists(r.left)) s.exists = true;
    else fail(s, "create", r.left.message);
  };

  const send = async (s: Series): Promise<void> => {
    const target: SeriesSnapshot = { ...s };
    try {
      if (!s.exists) return await create(s, target);
      if (target.count < 2) return;
      const r = await client.patch(
        { apiVersion: "events.k8s.io/v1", kind: "Event" },
        target.name,
        {
          namespace: target.namespace,
          patch: { type: "merge", body: { series: seriesField(target) } },
        },
      );
      if (r._tag === "Right") return;
      if (isNotFound(r.left)) {
        s.exists = false;
        return await create(s, target);
      }
      fail(s, "patch", r.left.message);
    } catch (e) {
      fail(s, "write", e instanceof Error ? e.message : String(e));
    }
  };

  const start = (s: Series): Promise<void> => {
    s.timer?.unsubscribe();
    s.timer = undefined;
    pending.add(s);
    const count = s.count;
    s.lastWriteMs = now();
    const done = send(s).then(() => {
      s.inflight = undefined;
      if (s.count > count) void kick(s);
      else pending.delete(s);
    });
    s.inflight = done;
    return done;
  };

  const kick = (s: Series): Promise<void> => {
    if (s.inflight || s.timer) return Promise.resolve(); // the running write catches up
    const waitMs = s.lastWriteMs === undefined ? 0 : s.lastWriteMs + intervalMs - now();
    if (waitMs <= 0) return start(s);
    pending.add(s);
    s.timer = scheduler.schedule(() => {
      s.timer = undefined;
      void start(s);
    }, waitMs);
    return Promise.resolve();
  };

  const observe = (regarding: KubeObject, event: EventInput): Series | undefined => {
    const input = normalizeInput(event);
    if (!input.reason || !input.action) {
      log.error("Cannot record event: reason and action are required", { ...input });
      return undefined;
    }
    const ref: EventRegarding = regardingOf(regarding);
    const key = seriesKey(ref, input);
    const t = now();
    const known = byKey.get(key);
    byKey.delete(key);
    if (known && t - known.lastObservedMs <= windowMs) {
      known.count++;
      known.lastObservedMs = Math.max(known.lastObservedMs, t);
      byKey.set(key, known);
      return known;
    }
    const s: Series = {
      name: eventName(ref.name ?? "", t, sequence++),
      namespace: ref.namespace || "default",
      regarding: ref,
      input,
      firstTimeMs: t,
      count: 1,
      lastObservedMs: t,
      controller: options.controller,
      instance: options.instance,
      exists: false,
    };
    byKey.set(key, s);
    while (byKey.size > maxSeries) byKey.delete(byKey.keys().next().value!);
    return s;
  };

  return {
    record(regarding, event) {
      try {
        const s = observe(regarding, event);
        return s ? kick(s) : Promise.resolve();
      } catch (e) {
        log.error("Cannot record event", { error: e instanceof Error ? e.message : String(e) });
        return Promise.resolve();
      }
    },
    async flush() {
      while (pending.size > 0) {
        await Promise.all([...pending].map((s) => s.inflight ?? start(s)));
      }
    },
  };
}
