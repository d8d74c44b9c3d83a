import assert from "node:assert/strict";
import { withApi } from "../_api.ts";
import { type Obj, pod, until } from "./_until.ts";
import {
  EXIT_CODE_ANNOTATION,
  podRun,
  RUN_MS_ANNOTATION,
} from "../../../lib/apiserver/controllers/pod_exit_rule.ts";

const pods = "/api/v1/namespaces/default/pods";
const fast = { simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0, podRunMs: 5 } };
const annotated = (name: string, policy: string, a: Record<string, string>) =>
  pod(name, { metadata: { annotations: a }, spec: { restartPolicy: policy } });

Deno.test("podRun() reads run-ms and exit codes per attempt; Always pods without run-ms run on", () => {
  const p = (policy: string, a: Record<string, string> = {}) => ({
    metadata: { annotations: a },
    spec: { restartPolicy: policy },
  });
  assert.equal(podRun(p("Always"), 0, 7), undefined);
  assert.deepEqual(podRun(p("Never"), 0, 7), { runMs: 7, exitCode: 0, then: "Succeeded" });
  assert.deepEqual(podRun(p("Never", { [EXIT_CODE_ANNOTATION]: "3" }), 0, 7), {
    runMs: 7,
    exitCode: 3,
    then: "Failed",
  });
  const seq = p("OnFailure", { [EXIT_CODE_ANNOTATION]: "1,2,0", [RUN_MS_ANNOTATION]: "40" });
  assert.deepEqual([0, 1, 2, 9].map((i) => podRun(seq, i, 7)), [
    { runMs: 40, exitCode: 1, then: "Restart" },
    { runMs: 40, exitCode: 2, then: "Restart" },
    { runMs: 40, exitCode: 0, then: "Succeeded" },
    { runMs: 40, exitCode: 0, then: "Succeeded" },
  ]);
  assert.equal(podRun(p("Always", { [RUN_MS_ANNOTATION]: "5" }), 0, 7)?.then, "Restart");
  // Malformed annotations fall back to the defaults.
  assert.deepEqual(
    podRun(p("Never", { [EXIT_CODE_ANNOTATION]: "x", [RUN_MS_ANNOTATION]: "-1" }), 0, 7),
    {
      runMs: 7,
      exitCode: 0,
      then: "Succeeded",
    },
  );
});

Deno.test("the simulated kubelet ends a Never pod Failed with its exit code, and a default one Succeeded", () =>
  withApi(async (api) => {
    await api.post(pods, annotated("bad", "Never", { [EXIT_CODE_ANNOTATION]: "3" }));
    await api.post(pods, annotated("good", "Never", {}));
    const s = await until(api, pods, (m) =>
      m.get("default/bad")?.status.phase === "Failed" &&
      m.get("default/good")?.status.phase === "Succeeded");
    const bad = s.get("default/bad") as Obj;
    assert.equal(bad.status.containerStatuses[0].state.terminated.exitCode, 3);
    assert.equal(bad.status.containerStatuses[0].state.terminated.reason, "Error");
    const good = s.get("default/good") as Obj;
    assert.equal(good.status.containerStatuses[0].state.terminated.exitCode, 0);
  }, fast));

Deno.test("an OnFailure pod restarts after a failing run (restartCount, lastState) and then succeeds", () =>
  withApi(async (api) => {
    await api.post(pods, annotated("retry", "OnFailure", { [EXIT_CODE_ANNOTATION]: "1,1,0" }));
    const s = await until(api, pods, (m) => m.get("default/retry")?.status.phase === "Succeeded");
    const c = (s.get("default/retry") as Obj).status.containerStatuses[0];
    assert.equal(c.restartCount, 2);
    assert.equal(c.lastState.terminated.exitCode, 1);
    assert.equal(c.state.terminated.exitCode, 0);
  }, fast));

Deno.test("an Always pod with run-ms keeps restarting and stays Running", () =>
  withApi(async (api) => {
    await api.post(pods, annotated("loop", "Always", { [RUN_MS_ANNOTATION]: "1" }));
    const s = await until(
      api,
      pods,
      (m) => (m.get("default/loop")?.status.containerStatuses?.[0]?.restartCount ?? 0) >= 2,
    );
    assert.equal((s.get("default/loop") as Obj).status.phase, "Running");
  }, fast));
