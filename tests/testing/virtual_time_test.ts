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
