import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  decideDependent,
  type OwnerState,
} from "../../../lib/apiserver/controllers/decide_dependent.ts";

const state = fc.constantFrom<OwnerState>("solid", "dangling", "waiting", "unresolvable");
const facts = fc.record({
  owners: fc.uniqueArray(fc.record({ uid: fc.string({ minLength: 1, maxLength: 4 }), state }), {
    selector: (o) => o.uid,
    maxLength: 5,
  }),
  deleting: fc.boolean(),
  hasDependents: fc.boolean(),
  finalizers: fc.subarray(["orphan", "foregroundDeletion", "example.com/x"]),
});

Deno.test("decideDependent() deletes exactly the dependents without a living owner", () => {
  fc.assert(
    fc.property(facts, (f) => {
      const d = decideDependent(f);
      const alive = f.owners.some((o) => o.state === "solid" || o.state === "unresolvable");
      const shouldDelete = !f.deleting && f.owners.length > 0 && !alive;
      assert.equal(d.type === "delete", shouldDelete);
    }),
  );
});

Deno.test("decideDependent() removes only references to gone or waiting owners, and only while another lives", () => {
  fc.assert(
    fc.property(facts, (f) => {
      const d = decideDependent(f);
      if (d.type !== "removeOwnerRefs") return;
      const byUid = new Map(f.owners.map((o) => [o.uid, o.state]));
      assert.ok(d.uids.length > 0);
      for (const uid of d.uids) assert.ok(["dangling", "waiting"].includes(byUid.get(uid)!));
      assert.ok(f.owners.some((o) => o.state === "solid" || o.state === "unresolvable"));
      const expected = f.owners.filter((o) => o.state === "dangling" || o.state === "waiting");
      assert.equal(d.uids.length, expected.length);
    }),
  );
});

Deno.test("decideDependent() uses Foreground when a waiting owner has a dependent with dependents, else the finalizers' policy", () => {
  fc.assert(
    fc.property(facts, (f) => {
      const d = decideDependent(f);
      if (d.type !== "delete") return;
      const waiting = f.owners.some((o) => o.state === "waiting");
      const expected = waiting && f.hasDependents
        ? "Foreground"
        : f.finalizers.includes("orphan")
        ? "Orphan"
        : f.finalizers.includes("foregroundDeletion")
        ? "Foreground"
        : "Background";
      assert.equal(d.propagation, expected);
    }),
  );
});

Deno.test("decideDependent() keeps objects without owners and objects already being deleted", () => {
  assert.deepEqual(
    decideDependent({ owners: [], deleting: false, hasDependents: true, finalizers: [] }),
    { type: "keep" },
  );
  assert.deepEqual(
    decideDependent({
      owners: [{ uid: "a", state: "dangling" }],
      deleting: true,
      hasDependents: false,
      finalizers: [],
    }),
    { type: "keep" },
  );
});
