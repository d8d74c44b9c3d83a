import assert from "node:assert/strict";
import {
  type Lease,
  leaseResource,
  type LogFields,
  type Logger,
  runLeaderElection,
} from "../../mod.ts";
import { createTestApi, type TestApi } from "../../lib/testing/mod.ts";
import { Subject, type Subscription } from "../../lib/deps.ts";

// client-go's recommended durations: on virtual time they cost nothing.
const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
/** The longest wait between two tries of a non-leader: the retry period plus 1.2x jitter. */
const maxRetryMs = 2.2 * timing.retryPeriodMs;

/** A candidate: its transitions with virtual timestamps, and whether it stopped. */
interface Candidate {
  readonly identity: string;
  readonly transitions: { leading: boolean; atMs: number }[];
  /** The holder it saw last, once it stopped. */
  stopped?: string;
  sub?: Subscription;
}

function candidate(
  api: TestApi,
  identity: string,
  extra: { releaseOnStop?: boolean; stop$?: Subject<void> } = {},
): Candidate {
  const c: Candidate = { identity, transitions: [] };
  const logger: Logger = {
    debug: () => {},
    warn: () => {},
    error: () => {},
    info: (msg: string, fields?: LogFields) => {
      if (msg === "leader election stopped") c.stopped = String(fields?.holder);
    },
  };
  // The identity is also the client's User-Agent, so faults can cut one candidate off.
  const client = api.client({ userAgent: identity, maxRetries: 0 });
  c.sub = runLeaderElection(client, {
    name: "ctl",
    identity,
    ...timing,
    logger,
    scheduler: api.clock.scheduler,
    random: () => 0.5,
    ...extra,
  }).subscribe((leading) => c.transitions.push({ leading, atMs: api.clock.now() }));
  return c;
}

/** Unsubscribes; the candidate stops leading (synchronously) at this moment. */
function unsubscribe(api: TestApi, c: Candidate): void {
  c.sub?.unsubscribe();
  if (leads(c)) c.transitions.push({ leading: false, atMs: api.clock.now() });
}

const leads = (c: Candidate) => c.transitions.at(-1)?.leading === true;
const becameLeaderAt = (c: Candidate) => c.transitions.findLast((t) => t.leading)!.atMs;

/** Leadership intervals [start, end) of a candidate (an open one ends at `endMs`). */
function intervals(c: Candidate, endMs: number): [number, number][] {
  const out: [number, number][] = [];
  let start: number | undefined;
  for (const t of c.transitions) {
    if (t.leading && start === undefined) start = t.atMs;
    if (!t.leading && start !== undefined) (out.push([start, t.atMs]), start = undefined);
  }
  if (start !== undefined) out.push([start, endMs]);
  return out;
}

function assertNoOverlap(api: TestApi, a: Candidate, b: Candidate): void {
  for (const [s1, e1] of intervals(a, api.clock.now())) {
    for (const [s2, e2] of intervals(b, api.clock.now())) {
      assert.ok(
        e1 <= s2 || e2 <= s1,
        `${a.identity} [${s1},${e1}) overlaps ${b.identity} [${s2},${e2})`,
      );
    }
  }
}

const lease = (api: TestApi) => api.get<Lease>(leaseResource, "ctl", "default")!;

async function shutDown(api: TestApi, ...cs: Candidate[]): Promise<void> {
  for (const c of cs) unsubscribe(api, c);
  await api.clock.advanceUntil(() => cs.every((c) => c.stopped !== undefined), { what: "stop" });
}

Deno.test("runLeaderElection() lets exactly one of two candidates lead and records it in the Lease", async () => {
  using api = createTestApi();
  const a = candidate(api, "a");
  const b = candidate(api, "b");
  await api.clock.advanceUntil(() => leads(a) || leads(b), { what: "a leader" });
  await api.clock.advance(60_000); // renewals go on, nobody else takes over
  assert.equal([a, b].filter(leads).length, 1);
  const leader = leads(a) ? a : b;
  assert.equal(lease(api).spec?.holderIdentity, leader.identity);
  assert.equal(lease(api).spec?.leaseDurationSeconds, 15);
  // MicroTime, renewed within the last retry period.
  const renewed = Date.parse(lease(api).spec!.renewTime!);
  assert.match(lease(api).spec!.renewTime!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.ok(api.clock.now() - renewed <= timing.retryPeriodMs, "renewed at every retry period");
  assert.equal(lease(api).spec?.leaseTransitions, 0);
  assertNoOverlap(api, a, b);
  await shutDown(api, a, b);
});

Deno.test("runLeaderElection() hands over within one retry period when the leader releases", async () => {
  using api = createTestApi();
  const a = candidate(api, "a");
  await api.clock.advanceUntil(() => leads(a), { what: "a leads" });
  const b = candidate(api, "b");
  await api.clock.advance(5_000);
  assert.ok(!leads(b));
  const releasedAt = api.clock.now();
  unsubscribe(api, a);
  await api.clock.advanceUntil(() => leads(b), { what: "b leads" });
  assert.equal(a.stopped, "");
  assert.ok(
    becameLeaderAt(b) - releasedAt <= timing.retryPeriodMs * 1.2,
    "b took over at its next try",
  );
  assert.equal(lease(api).spec?.leaseTransitions, 1);
  assertNoOverlap(api, a, b);
  await shutDown(api, b);
});

Deno.test("runLeaderElection() with stop$ emits false, releases the Lease, then completes", async () => {
  using api = createTestApi();
  const stop$ = new Subject<void>();
  const a = candidate(api, "a", { stop$ });
  await api.clock.advanceUntil(() => leads(a), { what: "a leads" });
  stop$.next();
  await api.clock.advanceUntil(() => a.stopped !== undefined, { what: "stopped" });
  assert.equal(a.stopped, "");
  assert.deepEqual(a.transitions.map((t) => t.leading), [false, true, false]);
  assert.equal(lease(api).spec?.holderIdentity, "");
  assert.equal(lease(api).spec?.leaseDurationSeconds, 1);
});

Deno.test("runLeaderElection() hands over one lease duration after the leader dies", async () => {
  using api = createTestApi();
  const a = candidate(api, "a", { releaseOnStop: false });
  await api.clock.advanceUntil(() => leads(a), { what: "a leads" });
  const b = candidate(api, "b");
  await api.clock.advance(5_000);
  const lastRenewal = Date.parse(lease(api).spec!.renewTime!);
  unsubscribe(api, a);
  await api.clock.advanceUntil(() => leads(b), { what: "b leads" });
  assert.equal(a.stopped, "a");
  // b sees the last renewal at its next try, waits a lease duration from then, and takes over
  // at the try after that.
  const waited = becameLeaderAt(b) - lastRenewal;
  assert.ok(
    waited >= timing.leaseDurationMs &&
      waited <= timing.leaseDurationMs + 2 * maxRetryMs,
    `b took over ${waited} ms after the last renewal`,
  );
  await shutDown(api, b);
});

Deno.test("runLeaderElection() makes a partitioned leader step down before another starts", async () => {
  using api = createTestApi();
  const a = candidate(api, "a");
  await api.clock.advanceUntil(() => leads(a), { what: "a leads" });
  const b = candidate(api, "b");
  await api.clock.advance(5_000);
  const lastRenewal = Date.parse(lease(api).spec!.renewTime!);
  api.faults.disconnect({ userAgent: "a", times: Infinity });
  await api.clock.advanceUntil(() => leads(b), { what: "b leads" });
  const stepDown = a.transitions.at(-1)!;
  assert.equal(stepDown.leading, false);
  assert.ok(stepDown.atMs - lastRenewal <= timing.renewDeadlineMs, "a stepped down in time");
  assert.ok(stepDown.atMs < becameLeaderAt(b), "a stepped down before b started");
  assertNoOverlap(api, a, b);
  assert.equal(lease(api).spec?.holderIdentity, "b");
  assert.equal(lease(api).spec?.leaseTransitions, 1);
  await shutDown(api, a, b);
  assert.equal(a.stopped, "a", "the partitioned candidate could not release");
});
