import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type KubeObject, type Op, planChildren } from "../../mod.ts";

const OWNER = "owner-uid";
const own = (uid: string) => [{ apiVersion: "x/v1", kind: "X", name: "x", uid, controller: true }];

const cm = (name: string, data: string, owner: string | undefined, extra = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    namespace: "d",
    name,
    ...(owner ? { ownerReferences: own(owner) } : {}),
    ...extra,
  },
  data: { k: data },
});

const name = fc.constantFrom("a", "b", "c", "d", "e", "f");
const desiredArb = fc.uniqueArray(fc.tuple(name, fc.constantFrom("1", "2")), {
  selector: ([n]) => n,
  maxLength: 5,
}).map((xs) => xs.map(([n, v]) => cm(n, v, OWNER)));
const observedArb = fc.uniqueArray(
  fc.record({
    name,
    data: fc.constantFrom("1", "2"),
    owner: fc.constantFrom<string | undefined>(OWNER, OWNER, "other", undefined),
    terminating: fc.boolean(),
  }),
  { selector: (o) => o.name, maxLength: 6 },
).map((xs) =>
  xs.map((o) =>
    cm(o.name, o.data, o.owner, {
      uid: `uid-${o.name}`,
      resourceVersion: "5",
      ...(o.terminating ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
    })
  )
);

/** The server model: create adds (server fields filled), apply replaces the owned fields, delete removes. */
function execute(observed: readonly KubeObject[], ops: readonly Op[]): KubeObject[] {
  let out = [...observed];
  const find = (n: string | undefined) => out.findIndex((o) => o.metadata?.name === n);
  for (const op of ops) {
    switch (op.type) {
      case "create":
        assert.equal(find(op.object.metadata?.name), -1, "AlreadyExists");
        out.push({
          ...structuredClone(op.object) as KubeObject,
          metadata: {
            ...structuredClone(op.object.metadata) as KubeObject["metadata"],
            uid: "new",
            resourceVersion: "1",
          },
        });
        break;
      case "apply": {
        const i = find(op.object.metadata?.name);
        assert.ok(i >= 0);
        out[i] = {
          ...out[i],
          ...structuredClone(op.object) as KubeObject,
          metadata: out[i].metadata,
        };
        break;
      }
      case "delete": {
        const i = find(op.ref.name);
        assert.equal(out[i].metadata?.uid, op.ref.uid, "uid precondition");
        out = out.filter((_, j) => j !== i);
        break;
      }
      default:
        assert.fail(`unexpected ${op.type}`);
    }
  }
  return out;
}

const isOwned = (o: KubeObject) => o.metadata?.ownerReferences?.[0]?.uid === OWNER;

Deno.test("planChildren() reaches a fixpoint: its ops applied, it plans nothing more", () => {
  fc.assert(
    fc.property(desiredArb, observedArb, (desired, observed) => {
      const first = planChildren(desired, observed, { ownerUid: OWNER });
      const after = execute(observed, first.ops);
      const terminatingWanted = observed.some((o) =>
        o.metadata?.deletionTimestamp && isOwned(o) &&
        desired.some((d) => d.metadata?.name === o.metadata?.name)
      );
      const second = planChildren(desired, after, { ownerUid: OWNER });
      if (!terminatingWanted) assert.deepEqual(second.ops, []);
      assert.deepEqual(second.conflicts, first.conflicts);
    }),
    { numRuns: 300 },
  );
});

Deno.test("planChildren() never touches objects the owner does not control and reports their names", () => {
  fc.assert(
    fc.property(desiredArb, observedArb, (desired, observed) => {
      const { ops, conflicts } = planChildren(desired, observed, { ownerUid: OWNER });
      const foreign = observed.filter((o) => !isOwned(o)).map((o) => o.metadata?.name);
      for (const op of ops) {
        const n = op.type === "delete"
          ? op.ref.name
          : op.type === "create" || op.type === "apply"
          ? op.object.metadata?.name
          : undefined;
        assert.ok(!foreign.includes(n), `touched foreign ${n}`);
      }
      const expected = desired.map((d) => d.metadata?.name).filter((n) => foreign.includes(n));
      assert.deepEqual(conflicts, expected.map((n) => `d/${n}`));
    }),
    { numRuns: 300 },
  );
});

Deno.test("planChildren() deletes extras first, then creates, then applies only drifted children", () => {
  const observed = [
    cm("a", "1", OWNER, { uid: "ua" }),
    cm("b", "1", OWNER, { uid: "ub" }),
    cm("c", "1", OWNER, { uid: "uc" }),
    cm("t", "1", OWNER, { uid: "ut", deletionTimestamp: "2025-01-01T00:00:00Z" }),
  ];
  const desired = [cm("a", "1", OWNER), cm("b", "2", OWNER), cm("n", "1", OWNER)];
  const { ops } = planChildren(desired, observed, { ownerUid: OWNER });
  const nameOf = (o: Op) =>
    o.type === "delete" || o.type === "patch" || o.type === "status"
      ? o.ref.name
      : o.type === "event"
      ? o.regarding?.name
      : o.object.metadata?.name;
  assert.deepEqual(ops.map((o) => [o.type, nameOf(o)]), [
    ["delete", "c"],
    ["create", "n"],
    ["apply", "b"],
  ]);
  assert.deepEqual(ops[0], {
    type: "delete",
    ref: { apiVersion: "v1", kind: "ConfigMap", namespace: "d", name: "c", uid: "uc" },
  });
});
