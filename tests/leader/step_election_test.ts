import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  type ElectionAction,
  type ElectionConfig,
  type ElectionEvent,
  type ElectionState,
  initialElection,
  nextWakeMs,
} from "../../lib/leader/election_state.ts";
import { stepElection } from "../../lib/leader/step_election.ts";
import { type CandidatePlan, type Fate, simulate } from "./_simulate.ts";
import type { Lease } from "../../mod.ts";

const config = (identity: string, over: Partial<ElectionConfig> = {}): ElectionConfig => ({
  identity,
  name: "ctl",
  namespace: "default",
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  releaseOnStop: true,
  seed: 7,
  ...over,
});

/** Feeds events in order; returns the final state and every action. */
function run(state: ElectionState, events: ElectionEvent[]) {
  const actions: ElectionAction[] = [];
  for (const e of events) {
    const step = stepElection(state, e);
    state = step.state;
    actions.push(...step.actions);
  }
  return { state, actions };
}

const held = (holder: string, rv: string, over: Partial<Lease["spec"]> = {}): Lease => ({
  apiVersion: "coordination.k8s.io/v1",
  kind: "Lease",
  metadata: { name: "ctl", namespace: "default", resourceVersion: rv },
  spec: {
    holderIdentity: holder,
    leaseDurationSeconds: 15,
    acquireTime: "1970-01-01T00:00:00.000000Z",
    renewTime: "1970-01-01T00:00:00.000000Z",
    leaseTransitions: 3,
    ...over,
  },
});

const written = (actions: readonly ElectionAction[]): Lease => {
  const w = actions.find((a) => a.type === "update" || a.type === "create");
  if (!w || (w.type !== "update" && w.type !== "create")) throw new Error("no write");
  return w.lease;
};

/** A leader "a" that created the Lease at t=0 (sent) and got the answer at t=10. */
function leaderA() {
  const s0 = initialElection(config("a"), 0);
  return run(s0, [
    { type: "tick", nowMs: 0 },
    { type: "read", nowMs: 0, result: { type: "absent" } },
    {
      type: "wrote",
      nowMs: 10,
      result: { type: "ok", lease: held("a", "1", { leaseTransitions: 0 }) },
    },
  ]);
}

Deno.test("stepElection() creates an absent Lease and leads until renewDeadline after sending", () => {
  const s0 = initialElection(config("a"), 0);
  const r1 = run(s0, [{ type: "tick", nowMs: 0 }]);
  assert.deepEqual(r1.actions, [{ type: "get" }]);
  const r2 = run(r1.state, [{ type: "read", nowMs: 4, result: { type: "absent" } }]);
  const created = written(r2.actions);
  assert.equal(r2.actions[0].type, "create");
  assert.deepEqual(created.spec, {
    holderIdentity: "a",
    leaseDurationSeconds: 15,
    acquireTime: "1970-01-01T00:00:00.004000Z",
    renewTime: "1970-01-01T00:00:00.004000Z",
    leaseTransitions: 0,
  });
  const { state, actions } = leaderA();
  assert.deepEqual(actions.filter((a) => a.type === "startedLeading"), [{
    type: "startedLeading",
  }]);
  assert.equal(state.leadingUntilMs, 10_000);
  assert.equal(nextWakeMs(state), 2_000, "the next renewal is due a retry period after sending");
});

Deno.test("stepElection() waits a full lease duration after the last change before taking over", () => {
  const s0 = initialElection(config("b"), 1_000);
  const other = held("a", "5");
  const seen = run(s0, [
    { type: "tick", nowMs: 1_000 },
    { type: "read", nowMs: 1_000, result: { type: "found", lease: other } },
  ]);
  assert.deepEqual(seen.actions, [{ type: "get" }, { type: "holderChanged", holder: "a" }]);
  assert.equal(seen.state.pending, undefined);
  // A renewal (new resourceVersion) at 12 s restarts the wait.
  const renewed = held("a", "6");
  const wait = (s: ElectionState, nowMs: number, lease: Lease) =>
    run({ ...s, nextAttemptAtMs: nowMs }, [
      { type: "tick", nowMs },
      { type: "read", nowMs, result: { type: "found", lease } },
    ]);
  const r1 = wait(seen.state, 12_000, renewed);
  assert.ok(!r1.actions.some((a) => a.type === "update"));
  const r2 = wait(r1.state, 26_999, renewed);
  assert.ok(!r2.actions.some((a) => a.type === "update"), "still within 15 s of 12 s");
  const r3 = wait(r2.state, 27_000, renewed);
  const taken = written(r3.actions);
  assert.equal(taken.metadata?.resourceVersion, "6");
  assert.equal(taken.spec?.holderIdentity, "b");
  assert.equal(taken.spec?.leaseTransitions, 4);
  assert.equal(taken.spec?.acquireTime, "1970-01-01T00:00:27.000000Z");
});

Deno.test("stepElection() takes a released Lease at once", () => {
  const s0 = initialElection(config("b"), 0);
  const r = run(s0, [
    { type: "tick", nowMs: 0 },
    {
      type: "read",
      nowMs: 0,
      result: { type: "found", lease: held("", "9", { leaseDurationSeconds: 1 }) },
    },
  ]);
  assert.equal(written(r.actions).spec?.holderIdentity, "b");
});

Deno.test("stepElection() keeps acquireTime and transitions when a leader renews", () => {
  const { state } = leaderA();
  const r = run(state, [{ type: "tick", nowMs: 2_010 }]);
  const renewal = written(r.actions);
  assert.equal(r.actions[0].type, "update");
  assert.equal(renewal.metadata?.resourceVersion, "1");
  assert.equal(renewal.spec?.acquireTime, "1970-01-01T00:00:00.000000Z");
  assert.equal(renewal.spec?.renewTime, "1970-01-01T00:00:02.010000Z");
  assert.equal(renewal.spec?.leaseTransitions, 0);
  assert.equal(r.state.pending?.purpose, "renew");
});

Deno.test("stepElection() reads the Lease at once when a leader's renewal conflicts", () => {
  const { state } = leaderA();
  const r = run(state, [
    { type: "tick", nowMs: 2_010 },
    { type: "wrote", nowMs: 2_020, result: { type: "conflict" } },
  ]);
  assert.equal(r.actions.at(-1)?.type, "get");
  assert.equal(r.state.pending?.purpose, "read");
});

Deno.test("stepElection() steps down at the renew deadline when renewals keep failing", () => {
  let { state } = leaderA();
  const downs: number[] = [];
  for (let i = 0; i < 20 && downs.length === 0; i++) {
    const wake = nextWakeMs(state)!;
    const r = run(state, [{ type: "tick", nowMs: wake }]);
    state = r.state;
    if (r.actions.some((a) => a.type === "stoppedLeading")) downs.push(wake);
    if (state.pending) {
      state =
        run(state, [{ type: "wrote", nowMs: wake + 1, result: { type: "failed", message: "x" } }])
          .state;
    }
  }
  assert.deepEqual(downs, [10_000]);
});

Deno.test("stepElection() does not lead on a write answered after its deadline", () => {
  const s0 = initialElection(config("a"), 0);
  const r = run(s0, [
    { type: "tick", nowMs: 0 },
    { type: "read", nowMs: 0, result: { type: "absent" } },
    { type: "wrote", nowMs: 10_000, result: { type: "ok", lease: held("a", "1") } },
  ]);
  assert.ok(!r.actions.some((a) => a.type === "startedLeading"));
  assert.equal(r.state.leadingUntilMs, undefined);
});

Deno.test("stepElection() steps down before releasing on stop, then is done", () => {
  const { state } = leaderA();
  const r = run(state, [{ type: "stop", nowMs: 500 }]);
  assert.deepEqual(r.actions.map((a) => a.type), ["stoppedLeading", "update"]);
  const released = written(r.actions);
  assert.equal(released.spec?.holderIdentity, "");
  assert.equal(released.spec?.leaseDurationSeconds, 1);
  assert.equal(released.spec?.renewTime, "1970-01-01T00:00:00.500000Z");
  assert.equal(nextWakeMs(r.state), undefined);
  const stored = { ...released, metadata: { ...released.metadata, resourceVersion: "2" } };
  const done = run(r.state, [{ type: "wrote", nowMs: 510, result: { type: "ok", lease: stored } }]);
  assert.deepEqual(done.actions.map((a) => a.type), ["holderChanged", "done"]);
  assert.equal(done.state.phase, "stopped");
});

Deno.test("stepElection() retries a conflicting release once after reading the Lease", () => {
  const { state } = leaderA();
  const r = run(state, [
    { type: "stop", nowMs: 500 },
    { type: "wrote", nowMs: 510, result: { type: "conflict" } },
    { type: "read", nowMs: 520, result: { type: "found", lease: held("a", "2") } },
  ]);
  assert.deepEqual(r.actions.map((a) => a.type), ["stoppedLeading", "update", "get", "update"]);
  assert.equal(written(r.actions.slice(3)).metadata?.resourceVersion, "2");
  const again = run(r.state, [{ type: "wrote", nowMs: 530, result: { type: "conflict" } }]);
  assert.deepEqual(again.actions, [{ type: "done" }]);
});

Deno.test("stepElection() only stops when it never held the Lease or must not release", () => {
  const idle = run(initialElection(config("a"), 0), [{ type: "stop", nowMs: 1 }]);
  assert.deepEqual(idle.actions, [{ type: "done" }]);
  const { state } = leaderA();
  const kept = run({ ...state, config: { ...state.config, releaseOnStop: false } }, [
    { type: "stop", nowMs: 1 },
  ]);
  assert.deepEqual(kept.actions, [{ type: "stoppedLeading", reason: "stopping" }, {
    type: "done",
  }]);
});

Deno.test("initialElection() rejects durations that break leaseDuration > renewDeadline > 1.2 × retry", () => {
  assert.throws(() => initialElection(config("a", { renewDeadlineMs: 15_000 }), 0), RangeError);
  assert.throws(() => initialElection(config("a", { retryPeriodMs: 9_000 }), 0), RangeError);
  assert.throws(() => initialElection(config("a", { retryPeriodMs: 0 }), 0), RangeError);
  assert.throws(() => initialElection(config("", {}), 0), /identity is empty/);
});

// ---- properties on virtual time against a model server ----

/** Mostly quick answers, sometimes slow ones (past the request timeout). */
const delayArb = fc.oneof(
  { weight: 4, arbitrary: fc.noBias(fc.nat(4)) },
  { weight: 2, arbitrary: fc.noBias(fc.nat(30)) },
  { weight: 1, arbitrary: fc.noBias(fc.nat(400)) },
);
const fateArb: fc.Arbitrary<Fate> = fc.record({
  commitDelayMs: delayArb,
  responseDelayMs: delayArb,
  kind: fc.constantFrom<Fate["kind"]>("ok", "ok", "ok", "ok", "ok", "lost", "unanswered"),
});

const configOf = (
  identity: string,
  retryPeriodMs: number,
  renewDeadlineMs: number,
  leaseDurationMs: number,
) =>
  fc.record({ releaseOnStop: fc.boolean(), seed: fc.nat() }).map((r): ElectionConfig => ({
    identity,
    name: "ctl",
    namespace: "default",
    retryPeriodMs,
    renewDeadlineMs,
    leaseDurationMs,
    ...r,
  }));

/**
 * Durations at the edge of safety: whole-second leases (the Lease records whole seconds, so
 * anything else adds margin) and a renew deadline often just below the lease duration.
 */
const tightConfigArb = (identity: string): fc.Arbitrary<ElectionConfig> =>
  fc.record({
    seconds: fc.integer({ min: 1, max: 2 }),
    margin: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 500 })),
    retry: fc.oneof(fc.integer({ min: 10, max: 40 }), fc.integer({ min: 10, max: 300 })),
  }).chain(({ seconds, margin, retry }) => {
    const lease = seconds * 1_000;
    const renew = lease - margin;
    return configOf(identity, Math.min(retry, Math.floor((renew - 1) / 1.2)), renew, lease);
  });

/** Roomy durations: the renew deadline leaves two retry periods and 100 ms or more. */
const roomyConfigArb = (identity: string): fc.Arbitrary<ElectionConfig> =>
  fc.record({ retry: fc.integer({ min: 50, max: 300 }), extra: fc.nat(500), lease: fc.nat(1_500) })
    .chain(({ retry, extra, lease }) => {
      const renew = 2 * retry + 100 + extra;
      return configOf(identity, retry, renew, renew + 1 + lease);
    });

const horizonMs = 8_000;
const momentArb = fc.noBias(fc.nat(horizonMs));
const windowArb = fc.tuple(momentArb, fc.noBias(fc.nat(3_000))).map(([fromMs, len]) => ({
  fromMs,
  toMs: fromMs + len,
}));

const planArb = (identity: string): fc.Arbitrary<CandidatePlan> =>
  fc.record({
    config: tightConfigArb(identity),
    clockOffsetMs: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    partition: fc.option(windowArb, { nil: undefined, freq: 2 }),
    crashAtMs: fc.option(momentArb, { nil: undefined, freq: 2 }),
    stopAtMs: fc.option(momentArb, { nil: undefined, freq: 2 }),
    fates: fc.array(fateArb, { minLength: 1, maxLength: 30 }),
  }).map((p) => {
    const out: { -readonly [K in keyof CandidatePlan]: CandidatePlan[K] } = { ...p };
    if (out.partition === undefined) delete out.partition;
    if (out.crashAtMs === undefined) delete out.crashAtMs;
    if (out.stopAtMs === undefined) delete out.stopAtMs;
    return out;
  });

const assertDisjoint = (intervals: readonly (readonly [number, number])[][]) => {
  for (let i = 0; i < intervals.length; i++) {
    for (let j = i + 1; j < intervals.length; j++) {
      for (const [s1, e1] of intervals[i]) {
        for (const [s2, e2] of intervals[j]) {
          assert.ok(e1 <= s2 || e2 <= s1, `c${i} [${s1},${e1}) overlaps c${j} [${s2},${e2})`);
        }
      }
    }
  }
};

Deno.test("stepElection() never lets two candidates lead at overlapping times (delays, losses, partitions, crashes, skewed clocks)", () => {
  let handovers = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 4 }).chain((n) =>
        fc.tuple(...Array.from({ length: n }, (_, i) => planArb(`c${i}`)))
      ),
      (plans) => {
        const { intervals } = simulate(plans, horizonMs);
        if (intervals.filter((iv) => iv.length > 0).length > 1) handovers++;
        assertDisjoint(intervals);
      },
    ),
    { numRuns: 300 },
  );
  // The property is only worth something if leadership often changes hands.
  assert.ok(handovers > 60, `only ${handovers} of 300 runs changed leader`);
});

Deno.test("stepElection() makes a partitioned leader step down before a challenger starts, at the edge of its lease", () => {
  const quick = fc.record({
    commitDelayMs: fc.noBias(fc.nat(3)),
    responseDelayMs: fc.noBias(fc.nat(3)),
    kind: fc.constant<Fate["kind"]>("ok"),
  });
  let handovers = 0;
  fc.assert(
    fc.property(
      fc.tuple(tightConfigArb("c0"), tightConfigArb("c1"), tightConfigArb("c2")),
      fc.tuple(
        fc.array(quick, { minLength: 1, maxLength: 5 }),
        fc.array(quick, { minLength: 1, maxLength: 5 }),
      ),
      fc.noBias(fc.integer({ min: 100, max: 3_000 })),
      fc.integer({ min: -5_000, max: 5_000 }),
      (configs, [fates0, fates1], cutAtMs, offset) => {
        const { intervals } = simulate(
          configs.map((config, i) => ({
            config,
            clockOffsetMs: i * offset,
            fates: i === 0 ? fates0 : fates1,
            ...(i === 0 ? { partition: { fromMs: cutAtMs, toMs: 6_000 } } : { startAtMs: 50 }),
          })),
          6_000,
        );
        if (intervals[0].length > 0 && intervals.slice(1).some((iv) => iv.length > 0)) handovers++;
        assertDisjoint(intervals);
      },
    ),
    { numRuns: 300 },
  );
  assert.ok(handovers > 200, `only ${handovers} of 300 runs handed over`);
});

Deno.test("stepElection() elects exactly one leader that keeps leading on a reliable network", () => {
  const reliable = fc.record({
    commitDelayMs: fc.nat(40),
    responseDelayMs: fc.nat(40),
    kind: fc.constant<Fate["kind"]>("ok"),
  });
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 4 }).chain((n) =>
        fc.tuple(
          ...Array.from({ length: n }, (_, i) =>
            fc.record({
              config: roomyConfigArb(`c${i}`),
              clockOffsetMs: fc.integer({ min: -1_000_000, max: 1_000_000 }),
              fates: fc.array(reliable, { minLength: 1, maxLength: 10 }),
            })),
        )
      ),
      (plans) => {
        const { intervals, leadingAtEnd } = simulate(plans, 3_000);
        assert.equal(leadingAtEnd.filter(Boolean).length, 1);
        const leader = leadingAtEnd.indexOf(true);
        assert.equal(intervals[leader].length, 1, "the first leader never stepped down");
        assert.ok(intervals[leader][0][0] < 200, "someone led almost at once");
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("stepElection() hands a released Lease to a waiting candidate within a few retry periods", () => {
  fc.assert(
    fc.property(
      roomyConfigArb("c0"),
      roomyConfigArb("c1"),
      fc.integer({ min: 1_000, max: 3_000 }),
      (c0, c1, stopAtMs) => {
        const fates: Fate[] = [{ commitDelayMs: 5, responseDelayMs: 5, kind: "ok" }];
        const { intervals } = simulate([
          { config: { ...c0, releaseOnStop: true }, clockOffsetMs: 0, fates, stopAtMs },
          // c1 starts second: c0 created the Lease first.
          {
            config: c1,
            clockOffsetMs: 0,
            fates: [{ commitDelayMs: 30, responseDelayMs: 5, kind: "ok" }, ...fates],
          },
        ], stopAtMs + 2_000);
        assert.equal(intervals[0].length, 1);
        assert.equal(intervals[0][0][1], stopAtMs);
        assert.equal(intervals[1].length, 1);
        const gap = intervals[1][0][0] - stopAtMs;
        // One jittered retry, plus the release's commit and at most three round trips of c1.
        assert.ok(gap <= 2.2 * c1.retryPeriodMs + 5 + 3 * 35, `handed over after ${gap} ms`);
      },
    ),
    { numRuns: 100 },
  );
});
