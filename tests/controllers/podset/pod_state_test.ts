import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  isPodFinished,
  isPodTerminating,
  podDeletionOrder,
} from "../../../controllers/podset/pod_state.ts";
import { podsArb } from "./_model.ts";
import { isPodReady } from "../../../mod.ts";

Deno.test("podDeletionOrder() is a total order (antisymmetric, transitive, zero only for equal names)", () => {
  fc.assert(
    fc.property(podsArb, (pods) => {
      for (const a of pods) {
        for (const b of pods) {
          const ab = podDeletionOrder(a, b);
          assert.equal(Math.sign(ab), -Math.sign(podDeletionOrder(b, a)) || 0);
          if (a !== b) assert.notEqual(ab, 0);
          for (const c of pods) {
            if (ab < 0 && podDeletionOrder(b, c) < 0) assert.ok(podDeletionOrder(a, c) < 0);
          }
        }
      }
    }),
    { numRuns: 100 },
  );
});

Deno.test("pod predicates read the Ready condition, the phase and the deletion timestamp", () => {
  assert.ok(isPodReady({ status: { conditions: [{ type: "Ready", status: "True" }] } }));
  assert.ok(!isPodReady({ status: { conditions: [{ type: "Ready", status: "False" }] } }));
  assert.ok(!isPodReady({}));
  assert.ok(isPodFinished({ status: { phase: "Succeeded" } }));
  assert.ok(!isPodFinished({ status: { phase: "Running" } }));
  assert.ok(isPodTerminating({ metadata: { deletionTimestamp: "2025-01-01T00:00:00Z" } }));
  assert.ok(!isPodTerminating({ metadata: {} }));
});
