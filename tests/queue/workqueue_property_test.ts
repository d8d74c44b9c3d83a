import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { rx, Subject } from "../../lib/deps.ts";
import {
  exponentialBackoff,
  type ProcessResult,
  type QueueInput,
  type RunOutcome,
  workqueue,
} from "../../mod.ts";

/** What one run does: take `durationMs`, then succeed, ask for a requeue, or fail. */
type Behaviour = { durationMs: number; kind: "ok" | "requeue" | "fail"; afterMs: number };
type Add = { key: string; atMs: number; priority: "live" | "initial" };
type LogEntry =
  | { type: "add"; key: string; atMs: number }
  | { type: "start"; key: string; atMs: number }
  | { type: "end"; key: string; atMs: number; outcome: RunOutcome };

const arbAdd = (priorities: ("live" | "initial")[]) =>
  fc.record({
    key: fc.constantFrom("a", "b", "c", "d", "e"),
    atMs: fc.nat(200),
    priority: fc.constantFrom(...priorities),
  });
const arbBehaviour = (kinds: Behaviour["kind"][]) =>
  fc.record({
    durationMs: fc.nat(20),
    kind: fc.constantFrom(...kinds),
    afterMs: fc.integer({ min: 1, max: 50 }),
  });

/** Runs the adds on virtual time; the first 3 attempts of a key follow `behaviours`, later ones succeed. */
function simulate(adds: Add[], behaviours: Behaviour[], concurrency: number): LogEntry[] {
  const vts = new rx.VirtualTimeScheduler();
  const input = new Subject<QueueInput>();
  const log: LogEntry[] = [];
  const attempts = new Map<string, number>();
  const active = new Set<string>();
  let completed = false;
  const process = (key: string) => {
    assert.ok(!active.has(key), `${key} started while it was running`);
    active.add(key);
    assert.ok(
      active.size <= concurrency,
      `${active.size} runs at once, concurrency ${concurrency}`,
    );
    log.push({ type: "start", key, atMs: vts.now() });
    const n = attempts.get(key) ?? 0;
    attempts.set(key, n + 1);
    const b = n < 3
      ? behaviours[(key.charCodeAt(0) * 7 + n) % behaviours.length]
      : { durationMs: 1, kind: "ok" as const, afterMs: 0 };
    return rx.timer(b.durationMs, vts).pipe(rx.map((): ProcessResult => {
      if (b.kind === "fail") throw new Error(`${key} failed`);
      return b.kind === "requeue" ? { requeueAfterMs: b.afterMs } : undefined;
    }));
  };
  input.pipe(
    workqueue(process, {
      concurrency,
      scheduler: vts,
      drain: "all",
      limiter: exponentialBackoff(),
    }),
  )
    .subscribe({
      next: (outcome) => {
        active.delete(outcome.key);
        log.push({ type: "end", key: outcome.key, atMs: vts.now(), outcome });
      },
      complete: () => void (completed = true),
    });
  for (const add of adds) {
    vts.schedule(() => {
      log.push({ type: "add", key: add.key, atMs: vts.now() });
      input.next(add.priority === "live" ? add.key : { key: add.key, priority: add.priority });
    }, add.atMs);
  }
  vts.schedule(() => input.complete(), 201);
  vts.flush();
  assert.ok(completed, "the workqueue did not complete after its input did");
  assert.equal(active.size, 0);
  return log;
}

/** Checks the guarantees every run of the queue must keep. */
function checkInvariants(log: LogEntry[]): void {
  const owed = new Map<string, boolean>(); // a run is owed: added since last start, or retry due
  const running = new Map<string, { addedDuring: boolean }>();
  const failures = new Map<string, number>();
  const dueAt = new Map<string, number>(); // earliest next start after a delay, unless re-added
  for (const e of log) {
    switch (e.type) {
      case "add":
        owed.set(e.key, true);
        dueAt.delete(e.key);
        if (running.has(e.key)) running.get(e.key)!.addedDuring = true;
        break;
      case "start":
        assert.ok(owed.get(e.key), `${e.key} ran at ${e.atMs} without an add or retry owing it`);
        assert.ok(e.atMs >= (dueAt.get(e.key) ?? 0), `${e.key} ran at ${e.atMs} before its delay`);
        owed.set(e.key, false);
        dueAt.delete(e.key);
        running.set(e.key, { addedDuring: false });
        break;
      case "end": {
        const o = e.outcome;
        const run = running.get(e.key);
        assert.ok(run, `${e.key} ended without running`);
        running.delete(e.key);
        if (o.type === "failed") {
          const n = (failures.get(e.key) ?? 0) + 1;
          failures.set(e.key, n);
          assert.equal(o.failures, n, `${e.key}: consecutive failures`);
          // A success resets the backoff; a re-add during the run makes the retry immediate.
          assert.equal(o.retryInMs, run.addedDuring ? 0 : 5 * 2 ** (n - 1));
          owed.set(e.key, true);
          if (!run.addedDuring) dueAt.set(e.key, e.atMs + o.retryInMs!);
        } else if (o.type === "requeued") {
          failures.set(e.key, 0);
          owed.set(e.key, true);
          if (!run.addedDuring) dueAt.set(e.key, e.atMs + o.afterMs);
        } else {
          assert.equal(o.type, "done");
          failures.set(e.key, 0);
        }
      }
    }
  }
  for (const [key, isOwed] of owed) assert.ok(!isOwed, `${key} was never run after its last add`);
}

Deno.test("workqueue() keeps its guarantees under random adds, failures and requeues", () => {
  fc.assert(
    fc.property(
      fc.array(arbAdd(["live", "initial"]), { maxLength: 40 }),
      fc.array(arbBehaviour(["ok", "requeue", "fail"]), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 3 }),
      (adds, behaviours, concurrency) => checkInvariants(simulate(adds, behaviours, concurrency)),
    ),
    { numRuns: 300 },
  );
});

Deno.test("workqueue() runs ready live keys in FIFO order under random adds", () => {
  fc.assert(
    fc.property(
      fc.array(arbAdd(["live"]), { maxLength: 40 }),
      fc.array(arbBehaviour(["ok"]), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 3 }),
      (adds, behaviours, concurrency) => {
        const log = simulate(adds, behaviours, concurrency);
        checkInvariants(log);
        // A key is ready from an add while idle, or from the end of a run it was added during.
        const readySince = new Map<string, number>();
        const running = new Set<string>();
        const addedDuring = new Set<string>();
        log.forEach((e, i) => {
          if (e.type === "add") {
            if (running.has(e.key)) addedDuring.add(e.key);
            else if (!readySince.has(e.key)) readySince.set(e.key, i);
          } else if (e.type === "start") {
            const mine = readySince.get(e.key)!;
            for (const [other, since] of readySince) {
              assert.ok(since >= mine, `${e.key} overtook ${other}, which was ready earlier`);
            }
            readySince.delete(e.key);
            running.add(e.key);
          } else {
            running.delete(e.key);
            if (addedDuring.delete(e.key)) readySince.set(e.key, i);
          }
        });
      },
    ),
    { numRuns: 300 },
  );
});
