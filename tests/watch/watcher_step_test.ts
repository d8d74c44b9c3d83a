import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { statusError } from "../../lib/client/api_error.ts";
import { failure } from "../../lib/core/status.ts";
import type { WatchEvent, WireEvent } from "../../mod.ts";
import {
  initialWatcherState,
  watcherCommand,
  type WatcherInput,
  type WatcherState,
} from "../../lib/watch/watcher_state.ts";
import { watcherStep } from "../../lib/watch/watcher_step.ts";

type Obj = { metadata: { name: string; resourceVersion?: string } };
const obj = (name: string, rv: string): Obj => ({ metadata: { name, resourceVersion: rv } });

/** Runs inputs through the machine, collecting events and the command after each. */
function run(inputs: WatcherInput[], state: WatcherState = initialWatcherState()) {
  const events: WatchEvent<Obj>[] = [];
  const commands: string[] = [];
  const notes: string[] = [];
  for (const input of inputs) {
    const out = watcherStep<Obj>(state, input);
    state = out.state;
    events.push(...out.events);
    notes.push(...out.notes.map((n) => n.message));
    const c = watcherCommand(state);
    commands.push(
      c.type === "watch"
        ? `watch@${c.resourceVersion}`
        : c.type === "list" && c.continue
        ? `list+${c.continue}`
        : c.type,
    );
  }
  return { state, events, commands, notes };
}
const received = (event: WireEvent): WatcherInput => ({ type: "received", event });

Deno.test("watcherStep() lists page by page, then watches from the list's resourceVersion", () => {
  const r = run([
    { type: "listed", page: { items: [obj("a", "1")], resourceVersion: "5", continue: "t1" } },
    { type: "listed", page: { items: [obj("b", "2")], resourceVersion: "9" } },
    { type: "watchStarted" },
    received({ type: "MODIFIED", object: obj("a", "6") }),
    received({ type: "BOOKMARK", object: { metadata: { resourceVersion: "8" } } }),
    { type: "watchEnded", durationMs: 300_000 },
  ]);
  assert.deepEqual(r.events.map((e) => e.type), [
    "Init",
    "InitApply",
    "InitApply",
    "InitDone",
    "Apply",
    "Bookmark",
  ]);
  assert.deepEqual(r.events[3], { type: "InitDone", resourceVersion: "5" });
  assert.deepEqual(r.commands, ["list+t1", "watch@5", "read", "read", "read", "watch@8"]);
});

Deno.test("watcherStep() relists at once after 410 Gone, as an ERROR event or a response", () => {
  const listed: WatcherInput = { type: "listed", page: { items: [], resourceVersion: "5" } };
  const viaEvent = run([
    listed,
    { type: "watchStarted" },
    received({ type: "ERROR", object: failure("Expired", "too old resource version: 5 (9)") }),
  ]);
  assert.equal(viaEvent.commands.at(-1), "list");
  const viaResponse = run([listed, { type: "watchFailed", error: statusError(410, "") }]);
  assert.equal(viaResponse.commands.at(-1), "list");
});

Deno.test("watcherStep() backs off and re-watches after network errors, 429 and garbage lines", () => {
  const listed: WatcherInput = { type: "listed", page: { items: [], resourceVersion: "5" } };
  for (
    const failure of [
      { type: "watchFailed", error: { type: "network", message: "reset", cause: null } },
      { type: "watchFailed", error: statusError(429, "") },
      { type: "badLine", message: "not JSON" },
    ] as WatcherInput[]
  ) {
    const r = run([listed, { type: "watchStarted" }, failure, { type: "waited" }]);
    assert.deepEqual(r.commands.slice(-2), ["wait", "watch@5"], JSON.stringify(failure));
  }
});

Deno.test("watcherStep() backs off then relists after a list failure or a forbidden watch", () => {
  const r = run([{ type: "listFailed", error: statusError(500, "") }, { type: "waited" }]);
  assert.deepEqual(r.commands, ["wait", "list"]);
  const w = run([
    { type: "listed", page: { items: [], resourceVersion: "5" } },
    { type: "watchFailed", error: statusError(403, "") },
    { type: "waited" },
  ]);
  assert.deepEqual(w.commands, ["watch@5", "wait", "list"]);
});

Deno.test("watcherStep() treats a very short empty watch as a failure", () => {
  const r = run([
    { type: "listed", page: { items: [], resourceVersion: "5" } },
    { type: "watchStarted" },
    { type: "watchEnded", durationMs: 10 },
  ]);
  assert.equal(r.commands.at(-1), "wait");
  assert.ok(r.notes.some((n) => n.includes("very short watch")));
});

Deno.test("watcherStep() streams a list up to the annotated bookmark and falls back to LIST when rejected", () => {
  const streaming = initialWatcherState({ streamingList: true });
  const ok = run([
    { type: "watchStarted" },
    received({ type: "ADDED", object: obj("a", "3") }),
    received({ type: "BOOKMARK", object: { metadata: { resourceVersion: "7" } } }),
    received({
      type: "BOOKMARK",
      object: {
        metadata: { resourceVersion: "7", annotations: { "k8s.io/initial-events-end": "true" } },
      },
    }),
    received({ type: "ADDED", object: obj("b", "8") }),
  ], streaming);
  assert.deepEqual(ok.events.map((e) => e.type), ["Init", "InitApply", "InitDone", "Apply"]);
  const rejected = run([{ type: "watchFailed", error: statusError(422, "") }], streaming);
  assert.equal(rejected.commands[0], "list");
  assert.equal(rejected.state.streamingList, false);
});

Deno.test("watcherStep() skips objects that fail the check, naming them, and keeps the others", () => {
  const r = run([
    {
      type: "listed",
      page: {
        items: [obj("a", "1"), { kind: "Pod", metadata: {} }, obj("b", "2")],
        resourceVersion: "5",
      },
    },
  ]);
  assert.deepEqual(r.events.map((e) => e.type), ["Init", "InitApply", "InitApply", "InitDone"]);
  assert.ok(r.notes.some((n) => n.includes("Pod without metadata.name")));
});

const inputs: fc.Arbitrary<WatcherInput> = fc.oneof(
  fc.constant<WatcherInput>({ type: "watchStarted" }),
  fc.constant<WatcherInput>({ type: "waited" }),
  fc.nat({ max: 9 }).map((n): WatcherInput => ({
    type: "listed",
    page: {
      items: [obj(`o${n}`, `${n}`)],
      resourceVersion: `${n}`,
      ...(n % 3 === 0 ? { continue: "c" } : {}),
    },
  })),
  fc.constantFrom(404, 410, 429, 500).map((code): WatcherInput => ({
    type: "listFailed",
    error: statusError(code, ""),
  })),
  fc.constantFrom(403, 410, 429, 503).map((code): WatcherInput => ({
    type: "watchFailed",
    error: statusError(code, ""),
  })),
  fc.nat({ max: 9 }).map((n): WatcherInput =>
    received({ type: n % 2 ? "MODIFIED" : "DELETED", object: obj(`o${n}`, `${10 + n}`) })
  ),
  fc.constant<WatcherInput>({ type: "badLine", message: "x" }),
  fc.nat({ max: 2000 }).map((durationMs): WatcherInput => ({ type: "watchEnded", durationMs })),
);

Deno.test("watcherStep() on any input sequence: frames lists correctly and emits live events only while watching", () => {
  fc.assert(
    fc.property(fc.array(inputs, { maxLength: 60 }), (seq) => {
      let state = initialWatcherState();
      let inList = false;
      let synced = false;
      for (const input of seq) {
        const before = state;
        const out = watcherStep<Obj>(state, input);
        state = out.state;
        for (const e of out.events) {
          if (e.type === "Init") inList = true;
          if (e.type === "InitApply") assert.ok(inList, "InitApply outside a list");
          if (e.type === "InitDone") {
            assert.ok(inList, "InitDone without Init");
            inList = false;
            synced = true;
          }
          if (e.type === "Apply" || e.type === "Delete" || e.type === "Bookmark") {
            assert.ok(synced && !inList, "live event before the list completed");
            assert.ok(before.phase.type === "Watching" && before.phase.connected);
          }
        }
        assert.ok(state.failures >= 0);
        assert.ok(watcherCommand(state));
      }
    }),
    { numRuns: 300 },
  );
});
