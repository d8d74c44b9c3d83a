import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { clientFromKubeconfig } from "../../lib/client/connect.ts";
import type { Client } from "../../lib/client/client_types.ts";
import type { LogFields, Logger } from "../../lib/core/logger.ts";
import { Subject, type Subscription } from "../../lib/deps.ts";
import { leaderElection, type Lease, leaseResource } from "../../lib/leader/mod.ts";

// Small durations keep the suite fast: the Lease records 1 s (leaseDurationSeconds is whole).
const timing = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 100 };

/** A candidate: its client (whose fetch can be cut), its transitions with timestamps. */
interface Candidate {
  readonly identity: string;
  readonly client: Client;
  readonly transitions: { leading: boolean; atMs: number }[];
  readonly stopped: Promise<string>;
  partition(): void;
  sub?: Subscription;
}

async function candidate(
  kubeconfig: string,
  identity: string,
  extra: { releaseOnStop?: boolean; stop$?: Subject<void> } = {},
): Promise<Candidate> {
  let cut = false;
  const cutFetch: typeof fetch = (input, init) =>
    cut ? Promise.reject(new TypeError("partitioned")) : fetch(input, init);
  const made = await clientFromKubeconfig(kubeconfig, { fetch: cutFetch, maxRetries: 0 });
  if (made._tag === "Left") throw new Error(made.left.message);
  const { promise: stopped, resolve } = Promise.withResolvers<string>();
  const logger: Logger = {
    debug: () => {},
    warn: () => {},
    error: () => {},
    info: (msg: string, fields?: LogFields) => {
      if (msg === "leader election stopped") resolve(String(fields?.holder));
    },
  };
  const c: Candidate = {
    identity,
    client: made.right,
    transitions: [],
    stopped,
    partition: () => void (cut = true),
  };
  c.sub = leaderElection(made.right, { name: "ctl", identity, ...timing, logger, ...extra })
    .subscribe((leading) => c.transitions.push({ leading, atMs: performance.now() }));
  return c;
}

/** Unsubscribes; the candidate stops leading (synchronously) at this moment. */
function unsubscribe(c: Candidate): void {
  c.sub?.unsubscribe();
  if (leads(c)) c.transitions.push({ leading: false, atMs: performance.now() });
}

const leads = (c: Candidate) => c.transitions.at(-1)?.leading === true;

async function until(what: string, cond: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = performance.now();
  while (!cond()) {
    if (performance.now() - start > timeoutMs) throw new Error(`Timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

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

function assertNoOverlap(a: Candidate, b: Candidate): void {
  const end = performance.now();
  for (const [s1, e1] of intervals(a, end)) {
    for (const [s2, e2] of intervals(b, end)) {
      assert.ok(
        e1 <= s2 || e2 <= s1,
        `${a.identity} [${s1},${e1}) overlaps ${b.identity} [${s2},${e2})`,
      );
    }
  }
}

async function withServer(run: (kubeconfig: string, server: Client) => Promise<void>) {
  const server = await startApiServer();
  const made = await clientFromKubeconfig(server.kubeconfig);
  if (made._tag === "Left") throw new Error(made.left.message);
  try {
    await run(server.kubeconfig, made.right);
  } finally {
    made.right.close();
    await server.close();
  }
}

async function readLease(client: Client): Promise<Lease> {
  const r = await client.get<Lease>(leaseResource, "ctl", { namespace: "default" });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

async function shutDown(...cs: Candidate[]): Promise<void> {
  for (const c of cs) unsubscribe(c);
  await Promise.all(cs.map((c) => c.stopped));
  for (const c of cs) c.client.close();
}

Deno.test("leaderElection() lets exactly one of two candidates lead and records it in the Lease", async () => {
  await withServer(async (kubeconfig, client) => {
    const a = await candidate(kubeconfig, "a");
    const b = await candidate(kubeconfig, "b");
    await until("a leader", () => leads(a) || leads(b));
    await new Promise((r) => setTimeout(r, 400));
    assert.equal([a, b].filter(leads).length, 1);
    const leader = leads(a) ? a : b;
    const lease = await readLease(client);
    assert.equal(lease.spec?.holderIdentity, leader.identity);
    assert.equal(lease.spec?.leaseDurationSeconds, 1);
    assert.match(lease.spec?.renewTime ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(lease.spec?.leaseTransitions, 0);
    assertNoOverlap(a, b);
    await shutDown(a, b);
  });
});

Deno.test("leaderElection() hands over well within the lease duration when the leader releases", async () => {
  await withServer(async (kubeconfig, client) => {
    const a = await candidate(kubeconfig, "a");
    await until("a leads", () => leads(a));
    const b = await candidate(kubeconfig, "b");
    await new Promise((r) => setTimeout(r, 150));
    assert.ok(!leads(b));
    const releasedAt = performance.now();
    unsubscribe(a);
    assert.equal(await a.stopped, "");
    await until("b leads", () => leads(b));
    assert.ok(b.transitions.at(-1)!.atMs - releasedAt < 500, "b took over quickly");
    assert.equal((await readLease(client)).spec?.leaseTransitions, 1);
    assertNoOverlap(a, b);
    await shutDown(b);
  });
});

Deno.test("leaderElection() with stop$ emits false, releases the Lease, then completes", async () => {
  await withServer(async (kubeconfig, client) => {
    const stop$ = new Subject<void>();
    const a = await candidate(kubeconfig, "a", { stop$ });
    await until("a leads", () => leads(a));
    stop$.next();
    assert.equal(await a.stopped, "");
    assert.deepEqual(a.transitions.map((t) => t.leading), [false, true, false]);
    const lease = await readLease(client);
    assert.equal(lease.spec?.holderIdentity, "");
    assert.equal(lease.spec?.leaseDurationSeconds, 1);
    a.client.close();
  });
});

Deno.test("leaderElection() hands over after about the lease duration when the leader dies", async () => {
  await withServer(async (kubeconfig) => {
    const a = await candidate(kubeconfig, "a", { releaseOnStop: false });
    await until("a leads", () => leads(a));
    const b = await candidate(kubeconfig, "b");
    await new Promise((r) => setTimeout(r, 150));
    const killedAt = performance.now();
    unsubscribe(a);
    assert.equal(await a.stopped, "a");
    await until("b leads", () => leads(b));
    const waited = b.transitions.at(-1)!.atMs - killedAt;
    assert.ok(waited > 700 && waited < 1_800, `b took over after ${waited} ms`);
    await shutDown(b);
  });
});

Deno.test("leaderElection() makes a partitioned leader step down before another starts", async () => {
  await withServer(async (kubeconfig, client) => {
    const a = await candidate(kubeconfig, "a");
    await until("a leads", () => leads(a));
    const b = await candidate(kubeconfig, "b");
    await new Promise((r) => setTimeout(r, 150));
    const cutAt = performance.now();
    a.partition();
    await until("b leads", () => leads(b));
    const stepDown = a.transitions.at(-1)!;
    assert.equal(stepDown.leading, false);
    assert.ok(stepDown.atMs - cutAt <= timing.renewDeadlineMs + 50, "a stepped down in time");
    assert.ok(stepDown.atMs < b.transitions.at(-1)!.atMs, "a stepped down before b started");
    assertNoOverlap(a, b);
    const lease = await readLease(client);
    assert.equal(lease.spec?.holderIdentity, "b");
    assert.equal(lease.spec?.leaseTransitions, 1);
    unsubscribe(a);
    assert.equal(await a.stopped, "a", "the partitioned candidate could not release");
    await shutDown(b);
    a.client.close();
  });
});
