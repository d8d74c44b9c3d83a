import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { ObjectStorage } from "../../lib/apiserver/storage.ts";
import { snapshotAt } from "../../lib/apiserver/snapshot.ts";

type Op = { type: "put"; res: number; key: string; v: number } | {
  type: "remove";
  res: number;
  key: string;
};

const arbOp: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    type: fc.constant("put" as const),
    res: fc.integer({ min: 0, max: 1 }),
    key: fc.constantFrom("a/x", "a/y", "b/x", "b/z"),
    v: fc.nat(9),
  }),
  fc.record({
    type: fc.constant("remove" as const),
    res: fc.integer({ min: 0, max: 1 }),
    key: fc.constantFrom("a/x", "a/y", "b/x", "b/z"),
  }),
);

const obj = (key: string, v: number) => {
  const [namespace, name] = key.split("/");
  return { metadata: { namespace, name }, v };
};

Deno.test("storage: lists, snapshots and watch replays agree with a model for any write sequence", () => {
  fc.assert(
    fc.property(
      fc.array(arbOp, { maxLength: 60 }),
      fc.integer({ min: 2, max: 50 }),
      (ops, history) => {
        const s = new ObjectStorage({ historySize: history });
        const resources = ["/configmaps", "/secrets"];
        const model = resources.map(() => new Map<string, number>());
        const snapshots: { rv: number; states: Map<string, number>[] }[] = [];
        let lastRv = s.rv;
        for (const op of ops) {
          const res = resources[op.res];
          if (op.type === "put") {
            s.put(res, op.key, obj(op.key, op.v));
            model[op.res].set(op.key, op.v);
          } else if (s.remove(res, op.key)) model[op.res].delete(op.key);
          if (s.rv !== lastRv) {
            assert.equal(s.rv, lastRv + 1, "each write takes exactly the next revision");
            lastRv = s.rv;
            snapshots.push({ rv: s.rv, states: model.map((m) => new Map(m)) });
          }
        }
        resources.forEach((res, i) => {
          const listed = s.list(res).map((
            x,
          ) => [`${x.object.metadata!.namespace}/${x.object.metadata!.name}`, x.object.v]);
          assert.deepEqual(listed, [...model[i]].sort(([a], [b]) => (a < b ? -1 : 1)));
          for (const after of ["", "a/x", "a/y", "a/zz", "b/x", "c"]) {
            const scanned = [...s.scan(res, undefined, after || undefined)].map((x) =>
              `${x.object.metadata!.namespace}/${x.object.metadata!.name}`
            );
            const expected = [...model[i].keys()].filter((k) => k > after).sort();
            assert.deepEqual(scanned, expected, `scan after ${after}`);
            const inB = [...s.scan(res, "b", after || undefined)].map((x) =>
              x.object.metadata!.name
            );
            assert.deepEqual(
              inB,
              expected.filter((k) => k.startsWith("b/")).map((k) => k.slice(2)),
            );
          }
          const nsA = s.list(res, "a").map((x) => x.object.metadata!.name);
          assert.deepEqual(
            nsA,
            [...model[i].keys()].filter((k) => k.startsWith("a/")).map((k) => k.slice(2)).sort(),
          );
        });
        for (const snap of snapshots) {
          resources.forEach((res, i) => {
            const items = snapshotAt(s, res, snap.rv);
            const replay = s.hub.since(res, snap.rv);
            assert.equal(items === undefined, replay.type === "expired");
            if (!items) return;
            const got = items.map((it) => [it.key, it.object.v]);
            assert.deepEqual(got, [...snap.states[i]].sort(([a], [b]) => (a < b ? -1 : 1)));
          });
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("storage: the DELETED event carries the last state with the deletion revision", () => {
  const s = new ObjectStorage();
  const events: { type: string; rv: string | undefined }[] = [];
  s.hub.subscribe("/configmaps", {
    deliver: (e) => events.push({ type: e.type, rv: e.object.metadata?.resourceVersion }),
  });
  s.put("/configmaps", "a/x", obj("a/x", 1));
  s.remove("/configmaps", "a/x");
  assert.deepEqual(events, [{ type: "ADDED", rv: "2" }, { type: "DELETED", rv: "3" }]);
  assert.equal(s.remove("/configmaps", "a/x"), undefined);
});
