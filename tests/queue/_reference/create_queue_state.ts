/**
 * The workqueue's bookkeeping without timers or workers: dedup, priority lanes with ageing,
 * delayed keys and per-key failure counts, driven by explicit times.
 *
 * @module
 */
import { defaultRateLimiter, type ObjectKey, type Priority } from "../../../mod.ts";
import { Fifo } from "../../../lib/queue/_fifo.ts";
import { TimedHeap } from "../../../lib/queue/_heap.ts";
import type { QueueState, QueueStateOptions } from "./queue_state.ts";

export type { Finished, QueueState, QueueStateOptions, RunEnd } from "./queue_state.ts";

type Phase = "idle" | "queued" | "waiting" | "processing";

interface Rec {
  phase: Phase;
  lane: Priority;
  ticket: number;
  sinceMs: number;
  enteredMs: number;
  rerun: boolean;
  rerunLane: Priority;
  rerunSinceMs: number;
  failures: number;
}

/**
 * Creates the queue's state machine.
 *
 * Like client-go's `Typed` queue (dirty + processing sets) plus its delaying and rate-limiting
 * layers in one place, but without goroutines or timers: the caller passes the time and owns
 * the timer for {@link QueueState.nextDueMs}. Guarantees:
 * - a key is taken at most once until it is finished (never two runs at once);
 * - an add to a queued key is coalesced (a live add upgrades an initial key to the live lane);
 * - an add to a processing key makes exactly one more run, queued when the run finishes;
 * - an add to a delayed key queues it at once and cancels the delay;
 * - keys leave each lane in FIFO order; live keys go first, except that an initial key queued
 *   for `agingMs` or more gets every other turn;
 * - success (done or requeue) resets the key's failure count; a failure steps the limiter.
 *
 * @param options rate limiter and ageing bound.
 * @returns a fresh, empty state.
 * @example
 * ```ts
 * import { createQueueState } from "./create_queue_state.ts";
 * const q = createQueueState();
 * q.add("a", "live", 0);
 * q.add("a", "live", 1); // false: coalesced
 * q.take(2); // { key: "a", queuedMs: 2 }
 * q.finish("a", { type: "failed", terminal: false }, 3); // { delayMs: 5, failures: 1 }
 * q.nextDueMs(); // 8
 * ```
 */
export function createQueueState(options: QueueStateOptions = {}): QueueState {
  const limiter = options.limiter ?? defaultRateLimiter();
  const agingMs = options.agingMs ?? 10_000;
  let limiterState = limiter.initial;
  const recs = new Map<ObjectKey, Rec>();
  const live = new Fifo();
  const initial = new Fifo();
  const timed = new TimedHeap();
  let tickets = 0;
  let depth = 0, processing = 0, waiting = 0;
  let agedLast = false;

  const enqueue = (key: ObjectKey, rec: Rec, lane: Priority, sinceMs: number, nowMs: number) => {
    rec.phase = "queued";
    rec.lane = lane;
    rec.ticket = ++tickets;
    rec.sinceMs = sinceMs;
    rec.enteredMs = nowMs;
    (lane === "live" ? live : initial).push(key, rec.ticket);
    depth++;
  };
  // Drops stale entries at the head of a lane and returns the valid head record.
  const head = (lane: Fifo): Rec | undefined => {
    for (;;) {
      const key = lane.peekKey();
      if (key === undefined) return undefined;
      const rec = recs.get(key);
      if (rec !== undefined && rec.phase === "queued" && rec.ticket === lane.peekTicket()) {
        return rec;
      }
      lane.shift();
    }
  };
  const settle = (key: ObjectKey, rec: Rec) => {
    if (rec.failures === 0) recs.delete(key);
    else rec.phase = "idle";
  };

  return {
    add(key, priority, nowMs) {
      const rec = recs.get(key);
      if (rec === undefined) {
        const fresh: Rec = {
          phase: "idle",
          lane: priority,
          ticket: 0,
          sinceMs: nowMs,
          enteredMs: nowMs,
          rerun: false,
          rerunLane: priority,
          rerunSinceMs: 0,
          failures: 0,
        };
        recs.set(key, fresh);
        enqueue(key, fresh, priority, nowMs, nowMs);
        return true;
      }
      switch (rec.phase) {
        case "idle":
          enqueue(key, rec, priority, nowMs, nowMs);
          return true;
        case "waiting":
          waiting--;
          enqueue(key, rec, priority, nowMs, nowMs);
          return true;
        case "queued":
          if (priority === "live" && rec.lane === "initial") {
            depth--;
            enqueue(key, rec, "live", rec.sinceMs, nowMs);
          }
          return false;
        case "processing":
          if (rec.rerun) {
            if (priority === "live") rec.rerunLane = "live";
            return false;
          }
          rec.rerun = true;
          rec.rerunLane = priority;
          rec.rerunSinceMs = nowMs;
          return true;
      }
    },

    take(nowMs) {
      const l = head(live);
      const i = head(initial);
      let rec: Rec | undefined, lane: Fifo;
      if (i !== undefined && (l === undefined || (!agedLast && nowMs - i.enteredMs >= agingMs))) {
        agedLast = l !== undefined;
        rec = i;
        lane = initial;
      } else {
        agedLast = false;
        rec = l;
        lane = live;
      }
      if (rec === undefined) return undefined;
      const key = lane.peekKey() as ObjectKey;
      lane.shift();
      rec.phase = "processing";
      depth--;
      processing++;
      return { key, queuedMs: nowMs - rec.sinceMs };
    },

    finish(key, end, nowMs) {
      const rec = recs.get(key);
      if (rec === undefined || rec.phase !== "processing") {
        throw new Error(`Cannot finish key "${key}": it is not being processed`);
      }
      processing--;
      let delayMs: number | null = null;
      let failures = 0;
      switch (end.type) {
        case "done":
          rec.failures = 0;
          break;
        case "requeue":
          rec.failures = 0;
          delayMs = Math.max(0, end.afterMs);
          break;
        case "failed":
          failures = rec.failures + 1;
          if (end.terminal) {
            rec.failures = 0;
          } else if (rec.rerun) {
            rec.failures = failures;
            delayMs = 0;
          } else {
            const [d, next] = limiter.step(limiterState, rec.failures, nowMs);
            limiterState = next;
            rec.failures = failures;
            delayMs = Math.max(0, d);
          }
          break;
      }
      if (rec.rerun) {
        rec.rerun = false;
        enqueue(key, rec, rec.rerunLane, rec.rerunSinceMs, nowMs);
        return { delayMs: 0, failures };
      }
      if (delayMs === null) settle(key, rec);
      else if (delayMs === 0) enqueue(key, rec, "live", nowMs, nowMs);
      else {
        rec.phase = "waiting";
        rec.ticket = ++tickets;
        waiting++;
        timed.push({ dueMs: nowMs + delayMs, ticket: rec.ticket, key });
      }
      return { delayMs, failures };
    },

    tick(nowMs) {
      let moved = 0;
      for (let top = timed.peek(); top !== undefined && top.dueMs <= nowMs; top = timed.peek()) {
        timed.pop();
        const rec = recs.get(top.key);
        if (rec === undefined || rec.phase !== "waiting" || rec.ticket !== top.ticket) continue;
        waiting--;
        enqueue(top.key, rec, "live", top.dueMs, nowMs);
        moved++;
      }
      return moved;
    },

    nextDueMs() {
      for (let top = timed.peek(); top !== undefined; top = timed.peek()) {
        const rec = recs.get(top.key);
        if (rec !== undefined && rec.phase === "waiting" && rec.ticket === top.ticket) {
          return top.dueMs;
        }
        timed.pop();
      }
      return undefined;
    },

    dropWaiting() {
      const dropped: ObjectKey[] = [];
      for (const [key, rec] of recs) {
        if (rec.phase === "waiting") {
          dropped.push(key);
          settle(key, rec);
        }
      }
      timed.clear();
      waiting = 0;
      return dropped;
    },

    dropQueued() {
      const dropped: ObjectKey[] = [];
      for (const lane of [live, initial]) {
        for (let rec = head(lane); rec !== undefined; rec = head(lane)) {
          const key = lane.peekKey() as ObjectKey;
          lane.shift();
          dropped.push(key);
          depth--;
          settle(key, rec);
        }
      }
      return dropped;
    },

    failures: (key) => recs.get(key)?.failures ?? 0,
    get depth() {
      return depth;
    },
    get processing() {
      return processing;
    },
    get waiting() {
      return waiting;
    },
  };
}
