import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { planReplicas } from "../../mod.ts";

interface Child {
  metadata: {
    name: string;
    deletionTimestamp?: string;
    ownerReferences?: { uid: string; controller?: boolean }[];
  };
  active: boolean;
  rank: number;
}

const childrenArb = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(/^[a-z]{1,3}$/),
    owner: fc.constantFrom("me", "me", "me", "other", "none", "meNotController"),
    active: fc.boolean(),
    terminating: fc.boolean(),
    rank: fc.integer({ min: 0, max: 5 }),
  }),
  { selector: (c) => c.name, maxLength: 12 },
).map((cs) =>
  cs.map((c): Child => ({
    metadata: {
      name: c.name,
      ...(c.terminating ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
      ...(c.owner === "none" ? {} : {
        ownerReferences: [{
          uid: c.owner === "other" ? "other" : "me",
          ...(c.owner === "meNotController" ? {} : { controller: true }),
        }],
      }),
    },
    active: c.active,
    rank: c.rank,
  }))
);

const mine = (c: Child) =>
  c.metadata.ownerReferences?.[0]?.uid === "me" &&
  c.metadata.ownerReferences[0].controller === true;
const order = (a: Child, b: Child) =>
  a.rank - b.rank || (a.metadata.name < b.metadata.name ? -1 : 1);

Deno.test("planReplicas() leaves exactly `replicas` active controlled children with the fewest writes", () => {
  fc.assert(
    fc.property(childrenArb, fc.nat(8), (children, replicas) => {
      const r = planReplicas(children, {
        replicas,
        ownerUid: "me",
        isActive: (c) => c.active,
        deletionOrder: order,
      });
      const live = children.filter((c) => mine(c) && !c.metadata.deletionTimestamp);
      const active = live.filter((c) => c.active);
      const inactive = live.filter((c) => !c.active);
      assert.equal(r.keep.length + r.create, replicas);
      assert.equal(r.create, Math.max(0, replicas - active.length));
      assert.equal(r.delete.length, inactive.length + Math.max(0, active.length - replicas));
      for (const c of [...r.keep, ...r.delete]) {
        assert.ok(live.includes(c), "touched a foreign or terminating child");
      }
      const deletedActive = r.delete.filter((c) => c.active);
      for (const d of deletedActive) for (const k of r.keep) assert.ok(order(d, k) < 0);
    }),
    { numRuns: 300 },
  );
});

Deno.test("planReplicas() counts every non-terminating child as active without isActive", () => {
  const c = (name: string): Child => ({
    metadata: { name, ownerReferences: [{ uid: "me", controller: true }] },
    active: false,
    rank: 0,
  });
  const r = planReplicas([c("a"), c("b")], { replicas: 1, ownerUid: "me", deletionOrder: order });
  assert.deepEqual(r.keep.map((x) => x.metadata.name), ["b"]);
  assert.deepEqual(r.delete.map((x) => x.metadata.name), ["a"]);
  assert.equal(r.create, 0);
});
