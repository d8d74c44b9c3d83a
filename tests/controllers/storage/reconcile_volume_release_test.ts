/**
 * The volume half of the binder with pv-protection: a volume whose claim is gone is Released
 * before a Delete policy deletes it (pv-protection lets only an unbound volume go), and a
 * volume being deleted gets its phase but never a reclaim.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { worldFromObjects } from "../../../mod.ts";
import { reconcileVolume } from "../../../controllers/storage/reconcile_volume.ts";

Deno.test("reconcileVolume(): a volume whose claim is gone is Released first; deleted only when Released and not already being deleted", () => {
  fc.assert(
    fc.property(
      fc.constantFrom("Delete", "Retain", "Recycle"),
      fc.constantFrom("Bound", "Released"),
      fc.boolean(),
      (policy, phase, deleting) => {
        const pv = {
          metadata: { name: "pv1", uid: "v", ...(deleting ? { deletionTimestamp: "t" } : {}) },
          spec: {
            persistentVolumeReclaimPolicy: policy,
            claimRef: { namespace: "ns", name: "gone", uid: "u" },
          },
          status: { phase },
        };
        const plan = reconcileVolume(pv, { claims: worldFromObjects([]) }, { now: 0 });
        assert.equal(plan._tag, "Right");
        if (plan._tag !== "Right") return;
        const types = plan.right.ops.map((o) => o.type);
        if (!deleting && policy === "Delete" && phase === "Released") {
          assert.deepEqual(types, ["delete"]);
        } else if (!deleting && policy === "Recycle") {
          assert.deepEqual(types, ["patch", "status"]);
        } else {
          assert.deepEqual(types, ["status"]);
          const op = plan.right.ops[0];
          assert.equal(op.type === "status" && op.status.phase, "Released");
        }
      },
    ),
  );
});
