/**
 * A discrete-event simulation of candidates running `stepElection` against a model API server:
 * one Lease register with optimistic concurrency, requests that commit and answer after
 * arbitrary delays, get lost before or after committing, partitions, crashes and stops, and
 * clocks with constant offsets.
 */
import type {
  ElectionAction,
  ElectionConfig,
  ElectionEvent,
  ElectionState,
} from "../../lib/leader/election_state.ts";
import { initialElection, nextWakeMs } from "../../lib/leader/election_state.ts";
import { stepElection } from "../../lib/leader/step_election.ts";
import type { Lease } from "../../mod.ts";

/** How one request fares on the network. */
export interface Fate {
  readonly commitDelayMs: number;
  readonly responseDelayMs: number;
  /** `lost` before the server sees it, `unanswered` after it commits, or `ok`. */
  readonly kind: "ok" | "lost" | "unanswered";
}

/** One simulated candidate. */
export interface CandidatePlan {
  readonly config: ElectionConfig;
  /** Added to the global time to give this candidate's clock. */
  readonly clockOffsetMs: number;
  /** When it starts campaigning (default 0). */
  readonly startAtMs?: number;
  /** Requests sent in [from, to) are lost or unanswered. */
  readonly partition?: { readonly fromMs: number; readonly toMs: number };
  /** From this moment the candidate does nothing at all (no release). */
  readonly crashAtMs?: number;
  /** At this moment the candidate is told to stop (it releases if configured). */
  readonly stopAtMs?: number;
  /** Network behaviour of its successive requests, used in turn. */
  readonly fates: readonly Fate[];
}

/** What happened: leadership intervals [start, end) in global time per candidate. */
export interface SimulationResult {
  readonly intervals: readonly (readonly [number, number])[][];
  readonly leadingAtEnd: readonly boolean[];
  readonly finalLease?: Lease;
}

type Item = { readonly at: number; readonly seq: number; readonly run: () => void };

/** Runs the candidates until `horizonMs` (global time) and reports who led when. */
export function simulate(plans: readonly CandidatePlan[], horizonMs: number): SimulationResult {
  const queue: Item[] = [];
  let seq = 0;
  let now = 0;
  const at = (time: number, run: () => void) =>
    queue.push({ at: Math.max(time, now), seq: seq++, run });
  let stored: Lease | undefined;
  let rv = 0;

  const commit = (action: ElectionAction): CommitResult => {
    switch (action.type) {
      case "get":
        return stored ? { type: "read", result: { type: "found", lease: stored } } : {
          type: "read",
          result: { type: "absent" },
        };
      case "create":
        if (stored) return { type: "wrote", result: { type: "conflict" } };
        stored = {
          ...action.lease,
          metadata: { ...action.lease.metadata, resourceVersion: String(++rv) },
        };
        return { type: "wrote", result: { type: "ok", lease: stored } };
      case "update":
        if (!stored) return { type: "wrote", result: { type: "failed", message: "404" } };
        if (action.lease.metadata?.resourceVersion !== stored.metadata?.resourceVersion) {
          return { type: "wrote", result: { type: "conflict" } };
        }
        stored = {
          ...action.lease,
          metadata: { ...action.lease.metadata, resourceVersion: String(++rv) },
        };
        return { type: "wrote", result: { type: "ok", lease: stored } };
      default:
        throw new Error(`not a request: ${action.type}`);
    }
  };

  const intervals: [number, number][][] = plans.map(() => []);
  const leadingSince: (number | undefined)[] = plans.map(() => undefined);
  const states: ElectionState[] = plans.map((p) => initialElection(p.config, p.clockOffsetMs));
  const timerVersion = plans.map(() => 0);
  const requestId = plans.map(() => 0);
  const sent = plans.map(() => 0);
  const dead = plans.map(() => false);

  const endLeading = (i: number) => {
    const since = leadingSince[i];
    if (since === undefined) return;
    intervals[i].push([since, now]);
    leadingSince[i] = undefined;
  };

  const feed = (i: number, make: (localMs: number) => ElectionEvent) => {
    if (dead[i]) return;
    const plan = plans[i];
    const event = make(now + plan.clockOffsetMs);
    if (event.type === "stop") requestId[i]++;
    const step = stepElection(states[i], event);
    states[i] = step.state;
    for (const action of step.actions) {
      switch (action.type) {
        case "startedLeading":
          if (leadingSince[i] !== undefined) throw new Error("started leading twice");
          leadingSince[i] = now;
          break;
        case "stoppedLeading":
          if (leadingSince[i] === undefined) throw new Error("stopped leading while not leading");
          endLeading(i);
          break;
        case "holderChanged":
        case "done":
          break;
        default:
          send(i, action);
      }
    }
    const version = ++timerVersion[i];
    const wake = nextWakeMs(states[i]);
    if (wake !== undefined) {
      at(wake - plan.clockOffsetMs, () => {
        if (timerVersion[i] === version) feed(i, (nowMs) => ({ type: "tick", nowMs }));
      });
    }
  };

  const send = (i: number, action: ElectionAction) => {
    const plan = plans[i];
    const id = ++requestId[i];
    const fate = plan.fates[sent[i]++ % plan.fates.length];
    const timeoutMs = plan.config.renewDeadlineMs / 2;
    const sentAt = now;
    const cut = plan.partition && now >= plan.partition.fromMs && now < plan.partition.toMs;
    const kind = cut && fate.kind === "ok" ? "lost" : fate.kind;
    const deliver = (event: CommitResult | undefined) => {
      if (requestId[i] !== id) return;
      requestId[i]++;
      feed(
        i,
        (nowMs) =>
          event === undefined
            ? action.type === "get"
              ? { type: "read", nowMs, result: { type: "failed", message: "timeout" } }
              : { type: "wrote", nowMs, result: { type: "failed", message: "timeout" } }
            : { ...event, nowMs } as ElectionEvent,
      );
    };
    // The shell aborts after timeoutMs: the caller then sees a failure (the write may still land).
    at(sentAt + timeoutMs, () => deliver(undefined));
    if (kind === "lost") return;
    at(sentAt + fate.commitDelayMs, () => {
      const result = commit(action);
      if (kind === "ok") at(now + fate.responseDelayMs, () => deliver(result));
    });
  };

  plans.forEach((plan, i) => {
    at(plan.startAtMs ?? 0, () => feed(i, (nowMs) => ({ type: "tick", nowMs })));
    if (plan.stopAtMs !== undefined) {
      at(plan.stopAtMs, () => feed(i, (nowMs) => ({ type: "stop", nowMs })));
    }
    if (plan.crashAtMs !== undefined) {
      at(plan.crashAtMs, () => {
        endLeading(i);
        dead[i] = true;
      });
    }
  });

  let budget = 200_000;
  while (queue.length > 0) {
    if (--budget === 0) {
      throw new Error(`runaway simulation at ${now} ms: ${JSON.stringify(states)}`);
    }
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const item = queue.shift()!;
    if (item.at > horizonMs) break;
    now = item.at;
    item.run();
  }
  now = horizonMs;
  const leadingAtEnd = leadingSince.map((s) => s !== undefined);
  plans.forEach((_, i) => endLeading(i));
  return { intervals, leadingAtEnd, ...(stored ? { finalLease: stored } : {}) };
}

type CommitResult =
  | { readonly type: "read"; readonly result: Extract<ElectionEvent, { type: "read" }>["result"] }
  | {
    readonly type: "wrote";
    readonly result: Extract<ElectionEvent, { type: "wrote" }>["result"];
  };
