/**
 * `stepElection()`: the pure leader election state machine.
 *
 * @module
 */
import { formatMicroTime } from "../core/time.ts";
import type { Lease } from "./lease.ts";
import type {
  ElectionAction,
  ElectionEvent,
  ElectionState,
  Pending,
  ReadResult,
  WriteResult,
} from "./election_state.ts";

/** The next state and what the shell must do, in order. */
export interface ElectionStep {
  readonly state: ElectionState;
  readonly actions: readonly ElectionAction[];
}

const holderOf = (lease: Lease | undefined): string => lease?.spec?.holderIdentity ?? "";
const rvOf = (lease: Lease | undefined) => lease?.metadata?.resourceVersion;

/** One pseudo-random number in [0, 1) and the next seed (mulberry32). */
function random(seed: number): [number, number] {
  const next = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(next ^ (next >>> 15), next | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [((t ^ (t >>> 14)) >>> 0) / 4294967296, next];
}

/** Remembers a Lease; the observation time restarts only when its resourceVersion changes. */
function observe(
  s: ElectionState,
  lease: Lease,
  nowMs: number,
  out: ElectionAction[],
): ElectionState {
  const before = s.observed?.lease;
  if (before !== undefined && rvOf(before) === rvOf(lease)) {
    return { ...s, observed: { lease, atMs: s.observed?.atMs ?? nowMs } };
  }
  if (before === undefined || holderOf(before) !== holderOf(lease)) {
    out.push({ type: "holderChanged", holder: holderOf(lease) });
  }
  return { ...s, observed: { lease, atMs: nowMs } };
}

/** Schedules the next attempt: a leader after `retryPeriodMs`, others with up to 1.2x jitter. */
function retryLater(s: ElectionState, nowMs: number): ElectionState {
  const retry = s.config.retryPeriodMs;
  if (s.leadingUntilMs !== undefined) {
    return { ...s, pending: undefined, nextAttemptAtMs: nowMs + retry };
  }
  const [u, seed] = random(s.seed);
  return {
    ...s,
    pending: undefined,
    seed,
    nextAttemptAtMs: nowMs + Math.round(retry * (1 + 1.2 * u)),
  };
}

/** The Lease this candidate writes to acquire or renew `current` (absent: to create it). */
function claim(s: ElectionState, nowMs: number, current: Lease | undefined): Lease {
  const { identity, name, namespace, leaseDurationMs } = s.config;
  const now = formatMicroTime(nowMs);
  const old = current?.spec ?? {};
  const mine = holderOf(current) === identity;
  return {
    ...(current ?? { metadata: { name, namespace } }),
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    spec: {
      ...old,
      holderIdentity: identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(leaseDurationMs / 1000)),
      acquireTime: mine && old.acquireTime ? old.acquireTime : now,
      renewTime: now,
      leaseTransitions: current === undefined ? 0 : (old.leaseTransitions ?? 0) + (mine ? 0 : 1),
    },
  };
}

/** The Lease handing `current` back: no holder, one second, as client-go's ReleaseOnCancel. */
function release(nowMs: number, current: Lease): Lease {
  const now = formatMicroTime(nowMs);
  return {
    ...current,
    spec: {
      ...current.spec,
      holderIdentity: "",
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
    },
  };
}

const send = (s: ElectionState, purpose: Pending["purpose"], nowMs: number): ElectionState => ({
  ...s,
  pending: { purpose, sentAtMs: nowMs },
});

const stepDown = (s: ElectionState, out: ElectionAction[], reason: "lostLease" | "stopping") => {
  if (s.leadingUntilMs === undefined) return s;
  out.push({ type: "stoppedLeading", reason });
  return { ...s, leadingUntilMs: undefined };
};

const finish = (s: ElectionState, out: ElectionAction[]): ElectionState => {
  out.push({ type: "done" });
  return { ...s, pending: undefined, phase: "stopped" };
};

function onTick(s: ElectionState, nowMs: number, out: ElectionAction[]): ElectionState {
  if (s.phase !== "running" || s.pending || nowMs < s.nextAttemptAtMs) return s;
  const lease = s.observed?.lease;
  if (s.leadingUntilMs !== undefined && lease && holderOf(lease) === s.config.identity) {
    out.push({ type: "update", lease: claim(s, nowMs, lease) });
    return send(s, "renew", nowMs);
  }
  out.push({ type: "get" });
  return send(s, "read", nowMs);
}

function onRead(s: ElectionState, nowMs: number, r: ReadResult, out: ElectionAction[]) {
  const purpose = s.pending?.purpose;
  if (purpose !== "read" && purpose !== "releaseRead") return s;
  const me = s.config.identity;
  if (purpose === "releaseRead") {
    if (r.type !== "found" || holderOf(r.lease) !== me) return finish(s, out);
    out.push({ type: "update", lease: release(nowMs, r.lease) });
    return send(observe(s, r.lease, nowMs, out), "releaseRetry", nowMs);
  }
  switch (r.type) {
    case "failed":
      return retryLater(s, nowMs);
    case "absent":
      out.push({ type: "create", lease: claim(s, nowMs, undefined) });
      return send(s, "acquire", nowMs);
    case "found": {
      let next = observe(s, r.lease, nowMs, out);
      const holder = holderOf(r.lease);
      if (holder === me) {
        out.push({ type: "update", lease: claim(next, nowMs, r.lease) });
        return send(next, "acquire", nowMs);
      }
      next = stepDown(next, out, "lostLease");
      const seconds = r.lease.spec?.leaseDurationSeconds;
      const durationMs = seconds && seconds > 0 ? seconds * 1000 : s.config.leaseDurationMs;
      const seenAtMs = next.observed?.atMs ?? nowMs;
      if (holder !== "" && seenAtMs + durationMs > nowMs) return retryLater(next, nowMs);
      out.push({ type: "update", lease: claim(next, nowMs, r.lease) });
      return send(next, "acquire", nowMs);
    }
  }
}

function onWrote(s: ElectionState, nowMs: number, r: WriteResult, out: ElectionAction[]) {
  const pending = s.pending;
  if (!pending || pending.purpose === "read" || pending.purpose === "releaseRead") return s;
  if (pending.purpose !== "acquire" && pending.purpose !== "renew") {
    if (r.type === "ok") return finish(observe(s, r.lease, nowMs, out), out);
    if (r.type === "conflict" && pending.purpose === "release") {
      out.push({ type: "get" });
      return send(s, "releaseRead", nowMs);
    }
    return finish(s, out);
  }
  switch (r.type) {
    case "ok": {
      const next = observe(s, r.lease, nowMs, out);
      const until = pending.sentAtMs + s.config.renewDeadlineMs;
      if (nowMs >= until) return retryLater(stepDown(next, out, "lostLease"), nowMs);
      if (next.leadingUntilMs === undefined) out.push({ type: "startedLeading" });
      // Renew one retry period after the last renewal was sent: its deadline runs from then.
      const nextAttemptAtMs = Math.max(nowMs, pending.sentAtMs + s.config.retryPeriodMs);
      return { ...next, leadingUntilMs: until, pending: undefined, nextAttemptAtMs };
    }
    case "conflict":
      if (pending.purpose === "renew") {
        out.push({ type: "get" });
        return send(s, "read", nowMs);
      }
      return retryLater(s, nowMs);
    case "failed":
      return retryLater(s, nowMs);
  }
}

function onStop(s: ElectionState, nowMs: number, out: ElectionAction[]): ElectionState {
  if (s.phase !== "running") return s;
  const next = stepDown({ ...s, pending: undefined }, out, "stopping");
  const lease = next.observed?.lease;
  if (!next.config.releaseOnStop || !lease || holderOf(lease) !== next.config.identity) {
    return finish(next, out);
  }
  out.push({ type: "update", lease: release(nowMs, lease) });
  return send({ ...next, phase: "stopping" }, "release", nowMs);
}

/**
 * Advances one candidate by one event: `(state, event) -> (state, actions)`.
 *
 * Like client-go's `tryAcquireOrRenew` loop, but a pure function of what was observed, with a
 * stricter step-down rule: a leader believes it leads only until `renewDeadlineMs` after it
 * *sent* its last successful write. Since the write committed after it was sent, and a
 * challenger waits `leaseDuration` after it first saw that write before taking over (on its own
 * clock), the leader stops strictly before anyone else can start.
 *
 * Guarantees: at most one request in flight; `startedLeading`/`stoppedLeading` alternate;
 * after `stop`, `stoppedLeading` (if leading) comes before the release write, and `done` last.
 * Assumptions: clocks of candidates run at the same rate (skew of the offset is fine); the
 * server applies PUTs only when `resourceVersion` matches. Caveats: a leader's in-flight work
 * must itself stop within `leaseDurationMs - renewDeadlineMs` of the step-down.
 *
 * @example
 * ```ts
 * import { initialElection } from "./election_state.ts";
 * import { stepElection } from "./step_election.ts";
 * const config = {
 *   identity: "a", name: "ctl", namespace: "default", leaseDurationMs: 15_000,
 *   renewDeadlineMs: 10_000, retryPeriodMs: 2_000, releaseOnStop: true, seed: 1,
 * };
 * const s0 = initialElection(config, 0);
 * const s1 = stepElection(s0, { type: "tick", nowMs: 0 }); // actions: [{ type: "get" }]
 * const s2 = stepElection(s1.state, { type: "read", nowMs: 5, result: { type: "absent" } });
 * s2.actions[0].type; // "create"
 * ```
 */
export function stepElection(state: ElectionState, event: ElectionEvent): ElectionStep {
  const out: ElectionAction[] = [];
  let s = state;
  if (s.phase === "running" && s.leadingUntilMs !== undefined && event.nowMs >= s.leadingUntilMs) {
    out.push({ type: "stoppedLeading", reason: "deadline" });
    s = { ...s, leadingUntilMs: undefined };
  }
  switch (event.type) {
    case "tick":
      s = onTick(s, event.nowMs, out);
      break;
    case "read":
      s = onRead(s, event.nowMs, event.result, out);
      break;
    case "wrote":
      s = onWrote(s, event.nowMs, event.result, out);
      break;
    case "stop":
      s = onStop(s, event.nowMs, out);
      break;
  }
  return { state: s, actions: out };
}
