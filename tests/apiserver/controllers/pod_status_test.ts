import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  nodeLostPodStatus,
  runningPodStatus,
} from "../../../lib/apiserver/controllers/pod_status.ts";
import { simulatedNodeStatus } from "../../../lib/apiserver/controllers/simulated_node.ts";

const containers = fc.uniqueArray(
  fc.record({ name: fc.stringMatching(/^[a-z]{1,6}$/), image: fc.constantFrom("nginx", "x/y:1") }),
  { selector: (c) => c.name, minLength: 1, maxLength: 4 },
);
// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("runningPodStatus() reports every container running and ready, and all conditions True", () => {
  fc.assert(
    fc.property(containers, (cs) => {
      const scheduledAt = "2020-01-01T00:00:00Z";
      const pod = {
        metadata: { uid: "u" },
        spec: { containers: cs },
        status: {
          phase: "Pending",
          qosClass: "BestEffort",
          conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: scheduledAt }],
        },
      };
      const s: Any = runningPodStatus(pod, { hostIP: "10.0.0.11", podIP: "10.244.1.2", nowMs: 0 });
      assert.equal(s.phase, "Running");
      assert.equal(s.qosClass, "BestEffort", "other status fields are kept");
      assert.deepEqual(s.containerStatuses.map((c: Any) => c.name), cs.map((c) => c.name));
      for (const c of s.containerStatuses) {
        assert.deepEqual([c.ready, c.started, c.restartCount], [true, true, 0]);
        assert.equal(typeof c.imageID, "string");
      }
      for (const t of ["PodScheduled", "Initialized", "ContainersReady", "Ready"]) {
        assert.equal(s.conditions.find((c: Any) => c.type === t).status, "True");
      }
      const scheduled = s.conditions.find((c: Any) => c.type === "PodScheduled");
      assert.equal(
        scheduled.lastTransitionTime,
        scheduledAt,
        "an unchanged condition keeps its time",
      );
    }),
  );
});

Deno.test("nodeLostPodStatus() fails the pod with NodeLost and unready, terminated containers", () => {
  const pod = {
    metadata: { name: "p", uid: "u" },
    spec: { nodeName: "n1", containers: [{ name: "app", image: "nginx" }] },
  };
  const running: Any = runningPodStatus(pod, { hostIP: "h", podIP: "p", nowMs: 0 });
  const lost: Any = nodeLostPodStatus({ ...pod, status: running }, 1000);
  assert.equal(lost.phase, "Failed");
  assert.equal(lost.reason, "NodeLost");
  assert.match(lost.message, /Node n1 which was running pod p is unresponsive/);
  assert.equal(lost.conditions.find((c: Any) => c.type === "Ready").status, "False");
  assert.equal(lost.containerStatuses[0].ready, false);
  assert.ok(lost.containerStatuses[0].state.terminated);
});

Deno.test("simulatedNodeStatus() is Ready or Unknown, with all ten nodeInfo fields", () => {
  const ready: Any = simulatedNodeStatus(1, 0, true);
  const lost: Any = simulatedNodeStatus(1, 0, false);
  assert.equal(ready.conditions.find((c: Any) => c.type === "Ready").status, "True");
  assert.equal(lost.conditions.find((c: Any) => c.type === "Ready").status, "Unknown");
  assert.equal(Object.keys(ready.nodeInfo).length, 10);
  assert.equal(ready.addresses[0].address, "10.0.0.11");
});
