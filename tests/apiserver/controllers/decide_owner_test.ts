import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { decideOwner } from "../../../lib/apiserver/controllers/decide_owner.ts";

const owner = fc.record({
  deleting: fc.boolean(),
  finalizers: fc.subarray(["orphan", "foregroundDeletion", "example.com/x"]),
});
const deps = fc.uniqueArray(
  fc.record({ uid: fc.string({ minLength: 1, maxLength: 3 }), blocks: fc.boolean() }),
  { selector: (d) => d.uid, maxLength: 6 },
);

Deno.test("decideOwner() acts only on owners being deleted with a GC finalizer", () => {
  fc.assert(
    fc.property(owner, deps, (o, ds) => {
      const d = decideOwner(o, ds);
      const gc = o.finalizers.includes("orphan") || o.finalizers.includes("foregroundDeletion");
      assert.equal(d.type === "none", !o.deleting || !gc);
    }),
  );
});

Deno.test("decideOwner() orphans every dependent, preferring orphan over foreground", () => {
  fc.assert(
    fc.property(owner, deps, (o, ds) => {
      const d = decideOwner(o, ds);
      if (o.deleting && o.finalizers.includes("orphan")) {
        assert.deepEqual(d, { type: "orphan", dependents: ds.map((x) => x.uid) });
      }
    }),
  );
});

Deno.test("decideOwner() releases a foreground owner exactly when no dependent blocks it", () => {
  fc.assert(
    fc.property(deps, (ds) => {
      const d = decideOwner({ deleting: true, finalizers: ["foregroundDeletion"] }, ds);
      assert.equal(d.type, ds.some((x) => x.blocks) ? "awaitDependents" : "finishForeground");
    }),
  );
});
