import assert from "node:assert/strict";
import { admitDefaultTolerationSeconds } from "../../../lib/apiserver/admission/mod.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

const notReady = {
  key: "node.kubernetes.io/not-ready",
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: 300,
};
const unreachable = { ...notReady, key: "node.kubernetes.io/unreachable" };
const admitted = (tolerations?: unknown[]) => {
  const pod = { spec: { containers: [], ...(tolerations ? { tolerations } : {}) } };
  admitDefaultTolerationSeconds(pod as unknown as KubeObject);
  return (pod.spec as { tolerations?: unknown[] }).tolerations;
};

Deno.test("DefaultTolerationSeconds adds the not-ready and unreachable tolerations a pod lacks", () => {
  assert.deepEqual(admitted(), [notReady, unreachable]);
  // A toleration of the key (any or NoExecute effect) is kept and not doubled.
  const own = { key: "node.kubernetes.io/not-ready", operator: "Exists", tolerationSeconds: 5 };
  assert.deepEqual(admitted([own]), [own, unreachable]);
  // Another effect does not count.
  const noSchedule = { ...unreachable, effect: "NoSchedule" };
  assert.deepEqual(admitted([noSchedule]), [noSchedule, notReady, unreachable]);
  // An empty key with Exists tolerates every taint: nothing is added.
  const all = { operator: "Exists" };
  assert.deepEqual(admitted([all]), [all]);
});
