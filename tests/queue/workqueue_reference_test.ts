/**
 * The composed operators against the single-operator workqueue they replaced: on random
 * histories (adds of live and initial keys, runs that take time, succeed, requeue, fail or fail
 * terminally, every drain mode) both start the same keys at the same virtual times and emit the
 * same outcomes.
 *
 * One difference is by design: the old queue moved keys whose delay had passed into the ready
 * queue before every start, the operators add them when their timer fires or with the next
 * signal at or after their due time. So when a key falls due at the instant another key is
 * added, the two may start in the other order; with fewer slots than keys that can change
 * which of them runs first. Here every key has a slot, and events of one instant are compared
 * as a set.
 */
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { rx, Subject } from "../../lib/deps.ts";
import {
  exponentialBackoff,
  type ProcessResult,
  type QueueInput,
  workqueue,
  type WorkqueueOptions,
} from "../../mod.ts";
import { referenceWorkqueue } from "./_reference/reference_workqueue.ts";

type Run = { durationMs: number; kind: "ok" | "requeue" | "fail" | "fatal"; afterMs: number };
type Add = { key: string; atMs: number; priority: "live" | "initial" };
type Scenario = {
  adds: Add[];
  runs: Run[];
  concurrency: number;
  drain: "ready" | "all" | "none";
  agingMs: number;
  endMs: number;
};

const arbScenario: fc.Arbitrary<Scenario> = fc.record({
  adds: fc.array(
    fc.record({
      key: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      atMs: fc.nat(120),
      priority: fc.constantFrom("live" as const, "initial" as const),
    }),
    { maxLength: 30 },
  ),
  runs: fc.array(
    fc.record({
      durationMs: fc.nat(15),
      kind: fc.constantFrom("ok" as const, "requeue" as const, "fail" as const, "fatal" as const),
      afterMs: fc.nat(30),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  // A slot for every key: which key wins a slot when a timer and another event fall on the
  // same instant is decided differently (see below); prioritize_test.ts covers the order.
  concurrency: fc.constant(6),
  drain: fc.constantFrom("ready" as const, "all" as const, "none" as const),
  agingMs: fc.integer({ min: 0, max: 40 }),
  endMs: fc.integer({ min: 0, max: 130 }),
});

/** Runs one scenario on virtual time through `queue` and logs starts and outcomes. */
function play(s: Scenario, queue: typeof workqueue): string[] {
  const vts = new rx.VirtualTimeScheduler();
  const input = new Subject<QueueInput>();
  const log: string[] = [];
  const attempts = new Map<string, number>();
  const options: WorkqueueOptions = {
    concurrency: s.concurrency,
    scheduler: vts,
    drain: s.drain,
    agingMs: s.agingMs,
    // Per-key backoff only: a shared token bucket hands its tokens out in the order failures
    // of one instant are handled, which may differ (see above).
    limiter: exponentialBackoff({ baseMs: 2 }),
    isTerminal: (e) => e === "fatal",
  };
  input.pipe(queue((key) => {
    const n = attempts.get(key) ?? 0;
    attempts.set(key, n + 1);
    log.push(`${vts.now()} start ${key}`);
    // Later attempts succeed, so "all" drains end.
    const r = n < 4 ? s.runs[(key.charCodeAt(0) * 5 + n) % s.runs.length] : undefined;
    return rx.timer(r?.durationMs ?? 1, vts).pipe(rx.map((): ProcessResult => {
      if (r?.kind === "fail") throw "boom";
      if (r?.kind === "fatal") throw "fatal";
      return r?.kind === "requeue" ? { requeueAfterMs: r.afterMs } : undefined;
    }));
  }, options)).subscribe({
    next: (o) => log.push(`${vts.now()} ${JSON.stringify(o)}`),
    error: (e) => log.push(`${vts.now()} error ${e}`),
    complete: () => log.push(`${vts.now()} complete`),
  });
  for (const add of s.adds) {
    vts.schedule(
      () => input.next(add.priority === "live" ? add.key : { key: add.key, priority: "initial" }),
      add.atMs,
    );
  }
  vts.schedule(() => input.complete(), s.endMs);
  vts.flush();
  return log;
}

/** The log with the events of each instant sorted: timers due at the same instant may fire in
 * another order (the operators arm theirs at another point of the same instant). */
function byInstant(log: string[]): string[] {
  const at = (line: string) => Number(line.slice(0, line.indexOf(" ")));
  return log.map((line, i) => ({ line, i })).sort((a, b) =>
    at(a.line) - at(b.line) || (a.line < b.line ? -1 : a.line > b.line ? 1 : a.i - b.i)
  ).map((x) => x.line);
}

Deno.test("workqueue() starts the same keys at the same times and emits the same outcomes as the single-operator queue it replaced", () => {
  fc.assert(
    fc.property(arbScenario, (s) => {
      assert.deepEqual(
        byInstant(play(s, workqueue)),
        byInstant(play(s, referenceWorkqueue as typeof workqueue)),
      );
    }),
    { numRuns: 400 },
  );
});
