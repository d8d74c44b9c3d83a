/** `runCommandOn(scheduler)`: the exec plugin timeout runs on the client's scheduler. */
import assert from "node:assert/strict";
import { runCommandOn } from "../../../lib/client/config/run_command.ts";
import { virtualTime } from "../../../lib/testing/mod.ts";

Deno.test("runCommandOn: a plugin still running when virtual time passes timeoutMs is killed", async () => {
  if (Deno.build.os === "windows") return;
  const time = virtualTime();
  const run = runCommandOn(time.scheduler);
  // An hour of timeout and a 30 s plugin: only virtual time can end it at once.
  const result = run({ command: "sleep", args: ["30"], env: {}, timeoutMs: 3_600_000 });
  time.advanceBy(3_599_999);
  let ended = false;
  result.finally(() => ended = true);
  await time.settle();
  assert.equal(ended, false, "not killed before timeoutMs");
  time.advanceBy(1);
  const r = await result;
  assert.equal(r.timedOut, true);
  assert.notEqual(r.code, 0);
});

Deno.test("runCommandOn: a command that ends in time is not marked timed out", async () => {
  const time = virtualTime();
  const r = await runCommandOn(time.scheduler)({
    command: Deno.execPath(),
    args: ["eval", "console.log('ok')"],
    env: {},
    timeoutMs: 1000,
  });
  assert.equal(r.code, 0);
  assert.equal(r.stdout.trim(), "ok");
  assert.equal(r.timedOut, undefined);
  assert.equal(time.scheduler.actions.length, 0, "the timeout is cancelled");
});
