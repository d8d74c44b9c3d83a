import assert from "node:assert/strict";
import { createQueueState } from "./create_queue_state.ts";

const takeAll = (q: ReturnType<typeof createQueueState>, nowMs: number): string[] => {
  const keys: string[] = [];
  for (let t = q.take(nowMs); t !== undefined; t = q.take(nowMs)) keys.push(t.key);
  return keys;
};

Deno.test("createQueueState() gives an aged initial key every other turn against live keys", () => {
  const q = createQueueState({ agingMs: 10 });
  q.add("i1", "initial", 0);
  q.add("i2", "initial", 0);
  for (const k of ["l1", "l2", "l3", "l4"]) q.add(k, "live", 0);
  assert.equal(q.take(5)?.key, "l1"); // initial keys not aged yet
  assert.deepEqual(takeAll(q, 10), ["i1", "l2", "i2", "l3", "l4"]);
});

Deno.test("createQueueState() serves initial keys when no live key waits", () => {
  const q = createQueueState();
  q.add("i1", "initial", 0);
  q.add("i2", "initial", 0);
  assert.deepEqual(takeAll(q, 0), ["i1", "i2"]);
});

Deno.test("createQueueState() moves an initial key to the live lane when it is added live", () => {
  const q = createQueueState();
  q.add("i1", "initial", 0);
  q.add("i2", "initial", 0);
  q.add("l1", "live", 1);
  assert.equal(q.add("i2", "live", 2), false);
  assert.equal(q.depth, 3);
  const first = q.take(3);
  assert.deepEqual(first, { key: "l1", queuedMs: 2 });
  // i2 keeps its queue latency from its first add.
  assert.deepEqual(q.take(3), { key: "i2", queuedMs: 3 });
  assert.deepEqual(takeAll(q, 3), ["i1"]);
});

Deno.test("createQueueState() never hands out a processing key, and re-queues it once when re-added", () => {
  const q = createQueueState();
  q.add("a", "live", 0);
  assert.equal(q.take(0)?.key, "a");
  assert.equal(q.add("a", "live", 1), true);
  assert.equal(q.add("a", "live", 2), false);
  assert.equal(q.take(3), undefined);
  assert.deepEqual(q.finish("a", { type: "done" }, 4), { delayMs: 0, failures: 0 });
  assert.deepEqual(q.take(5), { key: "a", queuedMs: 4 });
  q.finish("a", { type: "done" }, 6);
  assert.equal(q.take(7), undefined);
});

Deno.test("createQueueState() delays failed keys, ticks them in when due, and resets on success", () => {
  const q = createQueueState();
  q.add("a", "live", 0);
  q.take(0);
  assert.deepEqual(q.finish("a", { type: "failed", terminal: false }, 0), {
    delayMs: 5,
    failures: 1,
  });
  assert.equal(q.waiting, 1);
  assert.equal(q.nextDueMs(), 5);
  assert.equal(q.tick(4), 0);
  assert.equal(q.tick(5), 1);
  q.take(5);
  assert.deepEqual(q.finish("a", { type: "failed", terminal: false }, 5), {
    delayMs: 10,
    failures: 2,
  });
  q.tick(15);
  q.take(15);
  assert.deepEqual(q.finish("a", { type: "requeue", afterMs: 0 }, 15), { delayMs: 0, failures: 0 });
  q.take(15);
  assert.deepEqual(q.finish("a", { type: "failed", terminal: false }, 16), {
    delayMs: 5,
    failures: 1,
  });
});

Deno.test("createQueueState() drops waiting and queued keys on request", () => {
  const q = createQueueState();
  q.add("a", "live", 0);
  q.take(0);
  q.finish("a", { type: "requeue", afterMs: 100 }, 0);
  q.add("b", "live", 0);
  q.add("c", "initial", 0);
  assert.deepEqual(q.dropWaiting(), ["a"]);
  assert.equal(q.nextDueMs(), undefined);
  assert.deepEqual(q.dropQueued(), ["b", "c"]);
  assert.equal(q.depth, 0);
  assert.equal(q.tick(1000), 0);
});

Deno.test("createQueueState() refuses to finish a key that is not processing", () => {
  const q = createQueueState();
  assert.throws(
    () => q.finish("x", { type: "done" }, 0),
    /Cannot finish key "x": it is not being processed/,
  );
});
