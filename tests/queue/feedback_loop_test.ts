import assert from "node:assert/strict";
import { from, rx } from "../../lib/deps.ts";
import {
  feedbackLoop,
  type MonoTypeOperatorFunction,
  Observable,
  type QueueSignal,
  type RunOutcome,
} from "../../mod.ts";
import { testScheduler } from "./_signals.ts";

const done = (key: string, durationMs = 0): RunOutcome => ({ type: "done", key, durationMs });

/** A body that records what it sees and answers with `f`. */
function body(
  seen: QueueSignal[],
  f: (s: QueueSignal) => QueueSignal[],
): MonoTypeOperatorFunction<QueueSignal> {
  return rx.mergeMap((s: QueueSignal) => {
    seen.push(s);
    return f(s);
  });
}

Deno.test("feedbackLoop() feeds keys in as adds and emits the outcomes that come out", () => {
  const seen: QueueSignal[] = [];
  const out: RunOutcome[] = [];
  from(["a", { key: "b", priority: "initial" as const }, { key: "c" }]).pipe(
    feedbackLoop(
      body(seen, (s) => s.type === "add" ? [{ type: "outcome", outcome: done(s.key) }] : [s]),
    ),
  ).subscribe((o) => out.push(o));
  assert.deepEqual(seen.slice(0, 3), [
    { type: "add", key: "a", priority: "live" },
    { type: "add", key: "b", priority: "initial" },
    { type: "add", key: "c", priority: "live" },
  ]);
  assert.deepEqual(out, [done("a"), done("b"), done("c")]);
});

Deno.test("feedbackLoop() sends other signals round again, one at a time, in order", () => {
  const seen: string[] = [];
  from(["a", "b"]).pipe(
    feedbackLoop(body([], (s) => {
      seen.push(s.type === "after" ? `after ${s.key} ${s.delayMs}` : s.type);
      if (s.type === "add") return [{ type: "after", key: s.key, delayMs: 2 }];
      if (s.type === "after" && s.delayMs > 0) {
        return [{ type: "after", key: s.key, delayMs: s.delayMs - 1 }];
      }
      return s.type === "after" ? [] : [s];
    })),
  ).subscribe();
  // b's add waits until a's signals have been handled: no re-entry.
  assert.deepEqual(seen, [
    "add",
    "after a 2",
    "after a 1",
    "after a 0",
    "add",
    "after b 2",
    "after b 1",
    "after b 0",
    "drain",
    "idle",
  ]);
});

Deno.test("feedbackLoop() loops synchronously 20,000 times without growing the stack", () => {
  let n = 0;
  from(["a"]).pipe(
    feedbackLoop(body([], (s) => {
      if (s.type === "add" || (s.type === "after" && ++n < 20_000)) {
        return [{ type: "after", key: "a", delayMs: 0 }];
      }
      return s.type === "after" ? [] : [s];
    })),
  ).subscribe();
  assert.equal(n, 20_000);
});

const toOutcome = (s: QueueSignal): QueueSignal =>
  s.type === "add" ? { type: "outcome", outcome: done(s.key) } : s;

Deno.test("feedbackLoop() completes when the idle signal comes out after the input completed", () => {
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    expectObservable(cold("-a-|").pipe(feedbackLoop(rx.map(toOutcome)))).toBe("-a-|", {
      a: done("a"),
    });
  });
});

Deno.test("feedbackLoop() stays open while idle is held back and probes again when the loop moves", () => {
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    // On drain the body waits 3 ms (holding idle back), then sends `due` round and lets go.
    const waits: MonoTypeOperatorFunction<QueueSignal> = (source) =>
      new Observable((subscriber) => {
        let waiting = false;
        return source.subscribe((s) => {
          if (s.type === "drain") {
            assert.equal(s.mode, "all");
            waiting = true;
            ts.schedule(() => {
              waiting = false;
              subscriber.next({ type: "due" });
            }, 3);
          }
          if (s.type === "due" || (s.type === "idle" && waiting)) return;
          subscriber.next(toOutcome(s));
        });
      });
    expectObservable(cold("-a|").pipe(feedbackLoop(waits, { drain: "all" }))).toBe("-a---|", {
      a: done("a"),
    });
  });
});

Deno.test("feedbackLoop() passes input errors through and tears the body down", () => {
  let tornDown = false;
  const ts = testScheduler();
  ts.run(({ cold, expectObservable }) => {
    const holding: MonoTypeOperatorFunction<QueueSignal> = (source) =>
      new Observable((s) => {
        const sub = source.pipe(rx.map(toOutcome)).subscribe(s);
        return () => {
          sub.unsubscribe();
          tornDown = true;
        };
      });
    expectObservable(cold("-a#").pipe(feedbackLoop(holding))).toBe("-a#", { a: done("a") });
  });
  assert.ok(tornDown);
});
