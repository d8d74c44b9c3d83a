import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  namespaceDeletionBlocked,
  planNamespace,
} from "../../../lib/apiserver/controllers/plan_namespace.ts";

const contents = fc.uniqueArray(
  fc.record({ id: fc.string({ minLength: 1, maxLength: 5 }), deleting: fc.boolean() }),
  { selector: (c) => c.id, maxLength: 8 },
);
const ns = fc.record({
  metadata: fc.record({
    name: fc.constant("team"),
    deletionTimestamp: fc.option(fc.constant("2025-01-01T00:00:00Z"), { nil: undefined }),
  }),
  spec: fc.record({ finalizers: fc.subarray(["kubernetes", "example.com/x"]) }),
  status: fc.record({ phase: fc.constantFrom("Active", "Terminating") }),
});

Deno.test("planNamespace() deletes what is not yet deleting and finalizes only an empty namespace", () => {
  fc.assert(
    fc.property(ns, contents, (n, cs) => {
      const plan = planNamespace(n, cs);
      if (!n.metadata.deletionTimestamp) {
        assert.deepEqual(plan, { markTerminating: false, delete: [], finalize: false });
        return;
      }
      assert.deepEqual(plan.delete, cs.filter((c) => !c.deleting).map((c) => c.id));
      assert.equal(plan.finalize, cs.length === 0 && n.spec.finalizers.includes("kubernetes"));
      assert.equal(plan.markTerminating, n.status.phase !== "Terminating");
    }),
  );
});

Deno.test("namespaceDeletionBlocked() holds namespaces with spec.finalizers and nothing else", () => {
  const info = { storageKey: "/namespaces" };
  assert.equal(namespaceDeletionBlocked(info, { spec: { finalizers: ["kubernetes"] } }), true);
  assert.equal(namespaceDeletionBlocked(info, { spec: {} }), false);
  assert.equal(
    namespaceDeletionBlocked({ storageKey: "/configmaps" }, { spec: { finalizers: ["x"] } }),
    false,
  );
});
