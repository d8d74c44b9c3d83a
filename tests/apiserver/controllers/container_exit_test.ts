import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { containerExit } from "../../../lib/apiserver/controllers/container_exit.ts";

const policy = fc.constantFrom("Always", "OnFailure", "Never");
const status = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map((code): Deno.CommandStatus => ({
    success: code === 0,
    code,
    signal: null,
  })),
  // Deno reports a killed process as code 128 + the signal's number, with the signal.
  fc.constantFrom<[Deno.Signal, number]>(["SIGKILL", 137], ["SIGTERM", 143]).map((
    [signal, code],
  ): Deno.CommandStatus => ({ success: false, code, signal })),
);

Deno.test("containerExit(): the restart policy decides, back-off doubles per restart up to 60 s", () => {
  fc.assert(fc.property(
    status,
    policy,
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 1, max: 5_000 }),
    (st, restartPolicy, restartCount, backoffMs) => {
      const next = containerExit(st, {
        startedAtMs: 5,
        nowMs: 9,
        restartPolicy,
        restartCount,
        backoffMs,
      });
      const code = next.ended.exitCode;
      assert.equal(next.ended.reason, code === 0 ? "Completed" : "Error");
      assert.deepEqual([next.ended.startedAtMs, next.ended.finishedAtMs], [5, 9]);
      const stays = restartPolicy === "Never" || (restartPolicy === "OnFailure" && code === 0);
      assert.equal(next.type, stays ? "done" : "restart");
      if (next.type === "restart") {
        assert.equal(next.waitMs, Math.min(backoffMs * 2 ** restartCount, 60_000));
      }
    },
  ));
});

Deno.test("containerExit(): a killed process ends with its code and the signal's number", () => {
  const next = containerExit(
    { success: false, code: 137, signal: "SIGKILL" },
    {
      startedAtMs: 0,
      nowMs: 1,
      restartPolicy: "Never",
      restartCount: 0,
      backoffMs: 1_000,
    },
  );
  assert.deepEqual(next, {
    type: "done",
    ended: {
      type: "terminated",
      exitCode: 137,
      reason: "Error",
      signal: 9,
      startedAtMs: 0,
      finishedAtMs: 1,
    },
  });
});
