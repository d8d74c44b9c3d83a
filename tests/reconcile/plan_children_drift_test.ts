/**
 * planChildren() and fields a controller stops rendering: drift read from managed fields, on a
 * model server that applies with the embedded server's own server-side apply.
 */
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type KubeObject, type Op, planChildren, stripManagedFields } from "../../mod.ts";
import { ownerReference } from "../../lib/reconcile/owner_reference.ts";
import { modelApply, modelCreate } from "../_model_writes.ts";

const M = "kubefold-parent";
const OWNER: KubeObject = {
  apiVersion: "example.com/v1",
  kind: "Parent",
  metadata: { namespace: "d", name: "p", uid: "owner-uid" },
};
const UID = OWNER.metadata!.uid!;

type Child = {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly data: Record<string, string>;
};
const cm = (c: Child): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    namespace: "d",
    name: c.name,
    ...(Object.keys(c.labels).length ? { labels: c.labels } : {}),
  },
  ...(Object.keys(c.data).length ? { data: c.data } : {}),
});

/** The applier and the server: owner reference added, creates and applies as server-side apply. */
function execute(world: Map<string, KubeObject>, ops: readonly Op[]): void {
  let uids = world.size;
  for (const op of ops) {
    if (op.type === "delete") {
      if (world.get(op.ref.name)?.metadata?.uid === op.ref.uid) world.delete(op.ref.name);
      continue;
    }
    if (op.type !== "create" && op.type !== "apply") assert.fail(`unexpected ${op.type}`);
    const o = structuredClone(op.object) as KubeObject;
    const sent = { ...o, metadata: { ...o.metadata, ownerReferences: [ownerReference(OWNER)] } };
    const name = o.metadata!.name!;
    const live = world.get(name);
    if (op.type === "create") assert.equal(live, undefined, "created over a live object");
    const r = op.type === "create" && !op.apply
      ? { type: "written" as const, object: modelCreate(sent, M, 0) }
      : modelApply(live, sent, M, { force: op.type === "apply", now: 0 });
    assert.equal(r.type, "written");
    if (r.type !== "written") return;
    world.set(name, {
      ...r.object,
      metadata: { ...r.object.metadata, uid: live?.metadata?.uid ?? `u${++uids}` },
    });
  }
}

const plan = (world: Map<string, KubeObject>, desired: readonly Child[], fieldManager?: string) =>
  planChildren(desired.map(cm), [...world.values()], {
    ownerUid: UID,
    ...(fieldManager ? { fieldManager } : {}),
  });

const dict = fc.dictionary(fc.constantFrom("a", "b", "c"), fc.constantFrom("1", "2"), {
  maxKeys: 3,
  noNullPrototype: true,
});
const setArb = fc.uniqueArray(
  fc.record({ name: fc.constantFrom("x", "y", "z"), labels: dict, data: dict }),
  { selector: (c) => c.name, maxLength: 3 },
);

Deno.test("planChildren() with the field manager converges on exactly the desired fields: what a later desired set drops is removed, then nothing more is planned", () => {
  fc.assert(
    fc.property(fc.array(setArb, { minLength: 1, maxLength: 5 }), (sets) => {
      const world = new Map<string, KubeObject>();
      for (const desired of sets) {
        execute(world, plan(world, desired, M).ops);
        assert.deepEqual(plan(world, desired, M).ops, [], "a converged resync writes nothing");
        assert.deepEqual([...world.keys()].sort(), desired.map((c) => c.name).sort());
        for (const c of desired) {
          const o = world.get(c.name)!;
          assert.deepEqual(o.metadata?.labels ?? {}, c.labels);
          assert.deepEqual(o.data ?? {}, c.data);
        }
      }
    }),
    { numRuns: 300 },
  );
});

const first: Child = { name: "x", labels: { a: "1", b: "2" }, data: { k: "1" } };
const fewer: Child = { name: "x", labels: { a: "1" }, data: { k: "1" } };

Deno.test("planChildren() creates children by server-side apply and applies one whose applied label desired dropped", () => {
  const world = new Map<string, KubeObject>();
  const created = plan(world, [first], M).ops;
  assert.deepEqual(created.map((o) => [o.type, o.type === "create" && o.apply]), [[
    "create",
    true,
  ]]);
  execute(world, created);
  assert.deepEqual(plan(world, [first], M).ops, []);
  const ops = plan(world, [fewer], M).ops;
  assert.deepEqual(ops, [{ type: "apply", object: cm(fewer) }]);
  execute(world, ops);
  assert.deepEqual(world.get("x")?.metadata?.labels, { a: "1" });
});

Deno.test("planChildren() keeps today's rule without the field manager or without managed fields in the cache", () => {
  const world = new Map<string, KubeObject>();
  execute(world, plan(world, [first], M).ops);
  assert.deepEqual(plan(world, [fewer]).ops, [], "no field manager: a dropped field is not drift");
  const stripped = new Map([...world].map(([k, o]) => [k, stripManagedFields(o)]));
  assert.deepEqual(plan(stripped, [fewer], M).ops, [], "stripped: no managed fields to tell");
});

Deno.test("planChildren() leaves fields of a child created by POST to its Update entry: server-side apply cannot remove them", () => {
  const world = new Map<string, KubeObject>();
  execute(world, [{ type: "create", object: cm(first) }]);
  assert.deepEqual(plan(world, [fewer], M).ops, []);
  // Once applied, what the apply adds is the Apply entry's alone, and pruned when dropped.
  const more: Child = { ...first, data: { k: "1", extra: "1" } };
  execute(world, plan(world, [more], M).ops);
  assert.deepEqual(plan(world, [first], M).ops, [{ type: "apply", object: cm(first) }]);
  execute(world, plan(world, [first], M).ops);
  assert.deepEqual(world.get("x")?.data, { k: "1" });
  // A label both entries own: the apply gives up the Apply entry's claim once; the POST's
  // Update entry keeps the label, and nothing more is planned.
  execute(world, plan(world, [fewer], M).ops);
  assert.deepEqual(world.get("x")?.metadata?.labels, { a: "1", b: "2" });
  assert.deepEqual(plan(world, [fewer], M).ops, []);
});

Deno.test("planChildren() does not count the owner reference the applier adds as stale", () => {
  const world = new Map<string, KubeObject>();
  execute(world, plan(world, [first], M).ops);
  assert.ok(
    world.get("x")?.metadata?.managedFields?.some((e) =>
      JSON.stringify(e.fieldsV1).includes("f:ownerReferences")
    ),
  );
  assert.deepEqual(plan(world, [first], M).ops, []);
});
