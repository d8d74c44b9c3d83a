import assert from "node:assert/strict";
import {
  failureConditions,
  reconcileFailedCondition,
  withFailureCondition,
} from "../../lib/apply/report_failure.ts";
import type { Condition, KubeObject } from "../../mod.ts";

Deno.test("failureConditions() sets ReconcileFailed once and clears it only when set", () => {
  const set = failureConditions([], { message: "rejected", now: 1000, generation: 3 })!;
  assert.equal(set[0].status, "True");
  assert.equal(set[0].observedGeneration, 3);
  assert.equal(
    failureConditions(set, { message: "rejected", now: 2000, generation: 3 }),
    undefined,
  );
  assert.equal(failureConditions([], { message: undefined, now: 0 }), undefined);
  const cleared = failureConditions(set, { message: undefined, now: 3000 })!;
  assert.equal(cleared[0].status, "False");
});

const primary: KubeObject = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { namespace: "d", name: "w", generation: 2 },
  status: {
    conditions: [{
      type: "Ready",
      status: "True",
      reason: "Up",
      message: "",
      lastTransitionTime: "2025-01-01T00:00:00Z",
    }],
  },
};
const ref = { apiVersion: "example.com/v1", kind: "Widget", namespace: "d", name: "w" };
const types = (conditions: unknown) =>
  (conditions as Condition[]).map((c) => `${c.type}=${c.status}`);

Deno.test("withFailureCondition() folds ReconcileFailed into the plan's own status write", () => {
  const planned = {
    type: "status" as const,
    ref,
    status: {
      replicas: 3,
      conditions: [{
        type: "Ready",
        status: "False",
        reason: "Down",
        message: "",
        lastTransitionTime: "2025-01-02T00:00:00Z",
      }],
    },
  };
  const r = withFailureCondition([planned], primary, { message: "rejected", now: 0 });
  assert.equal(r.extra, false);
  assert.equal(r.ops.length, 1);
  // The plan's conditions (Ready=False) are kept, not the observed ones: one writer.
  assert.deepEqual(types(r.ops[0].status.conditions), [
    "Ready=False",
    `${reconcileFailedCondition}=True`,
  ]);
  assert.equal((r.ops[0].status as { replicas?: number }).replicas, 3);
});

Deno.test("withFailureCondition() starts from the observed conditions when the plan's status has none", () => {
  const r = withFailureCondition(
    [{ type: "status", ref, status: { replicas: 1 } }],
    primary,
    { message: "rejected", now: 0 },
  );
  assert.deepEqual(types(r.ops[0].status.conditions), [
    "Ready=True",
    `${reconcileFailedCondition}=True`,
  ]);
});

Deno.test("withFailureCondition() writes the conditions alone only when there is no status op and they change", () => {
  const r = withFailureCondition([], primary, { message: "rejected", now: 0 });
  assert.equal(r.extra, true);
  assert.deepEqual(Object.keys(r.ops[0].status), ["conditions"]);
  assert.deepEqual(withFailureCondition([], primary, { message: undefined, now: 0 }), {
    ops: [],
    extra: false,
  });
});
