import assert from "node:assert/strict";
import { timer } from "../../lib/deps.ts";
import { virtualTime } from "../../lib/testing/mod.ts";

Deno.test("virtualTime() runs timers only when advanced, at their due time", () => {
  const clock = virtualTime();
  const fired: number[] = [];
  timer(100, clock.scheduler).subscribe(() => fired.push(clock.now()));
  timer(1000, clock.scheduler).subscribe(() => fired.push(clock.now()));
  clock.advanceBy(99);
  assert.deepEqual(fired, []);
  assert.equal(clock.now(), 99);
  clock.advanceBy(1);
  assert.deepEqual(fired, [100]);
  clock.advanceTo(500);
  assert.equal(clock.now(), 500);
  assert.equal(clock.flush(), 1000);
  assert.deepEqual(fired, [100, 1000]);
});

Deno.test("virtualTime() schedules new work relative to the advanced clock", () => {
  const clock = virtualTime();
  clock.advanceBy(40);
  let at = -1;
  timer(10, clock.scheduler).subscribe(() => (at = clock.now()));
  clock.advanceBy(10);
  assert.equal(at, 50);
  assert.throws(() => clock.advanceTo(10), /Cannot advance virtual time to 10/);
});

Deno.test("virtualTime().advance() fires a timer set after an await at its own instant", async () => {
  const clock = virtualTime();
  const fired: number[] = [];
  const later = async (ms: number) => {
    await Promise.resolve();
    await null;
    timer(ms, clock.scheduler).subscribe(() => fired.push(clock.now()));
  };
  later(10);
  await clock.advance(5);
  assert.deepEqual(fired, []);
  // A chain: each timer awaits before setting the next one.
  timer(1, clock.scheduler).subscribe(() => void later(3));
  await clock.advance(100);
  assert.deepEqual(fired, [9, 10]);
  assert.equal(clock.now(), 105);
});

Deno.test("virtualTime().advanceUntil() stops at the instant the condition holds, or times out", async () => {
  const clock = virtualTime();
  let n = 0;
  const tick = () => timer(7, clock.scheduler).subscribe(() => (n++, Promise.resolve().then(tick)));
  tick();
  assert.equal(await clock.advanceUntil(() => n === 3), 21);
  assert.equal(clock.now(), 21);
  await assert.rejects(
    clock.advanceUntil(() => n === 100, { withinMs: 30, what: "100 ticks" }),
    /Timed out after 30 virtual ms waiting for 100 ticks/,
  );
  assert.equal(clock.now(), 51);
  clock.flush(); // nothing left running: the sanitizers would complain otherwise
});
