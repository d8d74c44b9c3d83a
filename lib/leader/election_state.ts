/**
 * The state, inputs and outputs of the leader election state machine ({@link stepElection}).
 *
 * @module
 */
import type { Lease } from "./lease.ts";

/** What one candidate needs to know; every duration is in ms on the candidate's own clock. */
export interface ElectionConfig {
  /** This candidate's identity, written to `spec.holderIdentity`. */
  readonly identity: string;
  readonly name: string;
  readonly namespace: string;
  /** How long others wait after the last change they saw before taking over (default 15 s). */
  readonly leaseDurationMs: number;
  /** A leader whose last successful renew was *sent* this long ago steps down (default 10 s). */
  readonly renewDeadlineMs: number;
  /** Pause between attempts; non-leaders add up to 1.2x of it as jitter (default 2 s). */
  readonly retryPeriodMs: number;
  /** On stop, hand the lease back (`holderIdentity: ""`) so others take over at once. */
  readonly releaseOnStop: boolean;
  /** Seed of the jitter's pseudo-random numbers. */
  readonly seed: number;
}

/** The request the candidate waits for, what it is for, and when it was sent. */
export interface Pending {
  /**
   * `read`/`acquire`: GET then POST or PUT; `renew`: a leader's PUT of its cached Lease;
   * `release`, then after a conflict `releaseRead` and one `releaseRetry`.
   */
  readonly purpose: "read" | "acquire" | "renew" | "release" | "releaseRead" | "releaseRetry";
  readonly sentAtMs: number;
}

/**
 * One candidate's view: the last Lease seen (and when, on its own clock), whether it leads
 * (and until when), the request in flight and the next attempt.
 */
export interface ElectionState {
  readonly config: ElectionConfig;
  /** The last Lease read or written, and when its `resourceVersion` was first seen. */
  readonly observed?: { readonly lease: Lease; readonly atMs: number };
  /** Defined exactly while this candidate believes it leads: the moment it must step down. */
  readonly leadingUntilMs?: number;
  readonly pending?: Pending;
  readonly nextAttemptAtMs: number;
  /** `stopping` while the release is in flight; `stopped` once nothing more will happen. */
  readonly phase: "running" | "stopping" | "stopped";
  /** Pseudo-random state for jitter. */
  readonly seed: number;
}

/** The outcome of a GET of the Lease. */
export type ReadResult =
  | { readonly type: "found"; readonly lease: Lease }
  | { readonly type: "absent" }
  | { readonly type: "failed"; readonly message: string };

/** The outcome of a POST or conditional PUT of the Lease. */
export type WriteResult =
  | { readonly type: "ok"; readonly lease: Lease }
  /** 409: someone else wrote first (or created it first). */
  | { readonly type: "conflict" }
  | { readonly type: "failed"; readonly message: string };

/** What the state machine observes; `nowMs` is read from the candidate's clock. */
export type ElectionEvent =
  /** A timer fired (next attempt or the leadership deadline). */
  | { readonly type: "tick"; readonly nowMs: number }
  | { readonly type: "read"; readonly nowMs: number; readonly result: ReadResult }
  | { readonly type: "wrote"; readonly nowMs: number; readonly result: WriteResult }
  /** Shut down; the shell has abandoned the request in flight, if any. */
  | { readonly type: "stop"; readonly nowMs: number };

/** Why a candidate stopped leading. */
export type StepDownReason = "deadline" | "lostLease" | "stopping";

/** What the shell must do. */
export type ElectionAction =
  | { readonly type: "get" }
  | { readonly type: "create"; readonly lease: Lease }
  /** A PUT conditional on `lease.metadata.resourceVersion`. */
  | { readonly type: "update"; readonly lease: Lease }
  | { readonly type: "startedLeading" }
  | { readonly type: "stoppedLeading"; readonly reason: StepDownReason }
  /** The Lease now names another holder (`""`: nobody). */
  | { readonly type: "holderChanged"; readonly holder: string }
  /** Stopped: nothing is in flight and nothing more will be asked. */
  | { readonly type: "done" };

/**
 * The initial state of a candidate: nothing seen, first attempt at `nowMs`.
 *
 * Throws a `RangeError` (a programmer error) unless
 * `leaseDurationMs > renewDeadlineMs > 1.2 × retryPeriodMs > 0`, the rule client-go enforces.
 *
 * @example
 * ```ts
 * import { initialElection } from "./election_state.ts";
 * const s = initialElection({
 *   identity: "a", name: "ctl", namespace: "default", leaseDurationMs: 15_000,
 *   renewDeadlineMs: 10_000, retryPeriodMs: 2_000, releaseOnStop: true, seed: 1,
 * }, 0);
 * s.nextAttemptAtMs; // 0
 * ```
 */
export function initialElection(config: ElectionConfig, nowMs: number): ElectionState {
  const { leaseDurationMs: lease, renewDeadlineMs: renew, retryPeriodMs: retry } = config;
  if (!(retry > 0 && renew > 1.2 * retry && lease > renew)) {
    throw new RangeError(
      `Cannot elect a leader for Lease "${config.namespace}/${config.name}": need ` +
        `leaseDurationMs (${lease}) > renewDeadlineMs (${renew}) > 1.2 × retryPeriodMs (${retry}) > 0`,
    );
  }
  if (config.identity === "") {
    throw new RangeError(
      `Cannot elect a leader for Lease "${config.namespace}/${config.name}": identity is empty`,
    );
  }
  return { config, nextAttemptAtMs: nowMs, phase: "running", seed: config.seed >>> 0 };
}

/**
 * When the shell should next send a `tick`: the next attempt or the leadership deadline,
 * whichever is first (`undefined`: wait for the request in flight, or stopped).
 *
 * @example
 * ```ts
 * import { initialElection, nextWakeMs } from "./election_state.ts";
 * const s = initialElection({
 *   identity: "a", name: "ctl", namespace: "default", leaseDurationMs: 15_000,
 *   renewDeadlineMs: 10_000, retryPeriodMs: 2_000, releaseOnStop: true, seed: 1,
 * }, 5);
 * nextWakeMs(s); // 5
 * ```
 */
export function nextWakeMs(state: ElectionState): number | undefined {
  if (state.phase !== "running") return undefined;
  const deadline = state.leadingUntilMs;
  if (state.pending) return deadline;
  return deadline === undefined ? state.nextAttemptAtMs : Math.min(deadline, state.nextAttemptAtMs);
}
