import assert from "node:assert/strict";
import {
  byControllerOwnerUid,
  byLabel,
  controllerUid,
  createStore,
  deleteOp,
  isControlledBy,
  isEmptyPlan,
  type KubeObject,
  ownerReference,
  refOf,
  terminal,
  transient,
  worldFromObjects,
  worldFromStore,
} from "../../mod.ts";

const ref = (uid: string, controller?: boolean) => ({
  apiVersion: "x/v1",
  kind: "X",
  name: "x",
  uid,
  ...(controller === undefined ? {} : { controller }),
});
const objects: KubeObject[] = [
  {
    metadata: {
      namespace: "d",
      name: "a",
      labels: { app: "w" },
      ownerReferences: [ref("u1", true)],
    },
  },
  { metadata: { namespace: "d", name: "b", ownerReferences: [ref("u1")] } },
  { metadata: { namespace: "d", name: "c", ownerReferences: [ref("u2", true)] } },
  { metadata: { name: "n" } },
];

Deno.test("worldFromObjects() answers get, list, byIndex and ownedBy (controller references only)", () => {
  const w = worldFromObjects<KubeObject>(objects, { indexers: { app: byLabel("app") } });
  assert.equal(w.get("d/a")?.metadata?.name, "a");
  assert.equal(w.get("n")?.metadata?.name, "n");
  assert.equal(w.get("d/zz"), undefined);
  assert.equal(w.list().length, 4);
  assert.deepEqual(w.byIndex("app", "w").map((o) => o.metadata?.name), ["a"]);
  assert.deepEqual(w.ownedBy("u1").map((o) => o.metadata?.name), ["a"]);
  assert.deepEqual(w.ownedBy("nope"), []);
  assert.throws(() => w.byIndex("missing", "x"), /no such index/);
});

Deno.test("worldFromStore() reads the controller index of a store", () => {
  const { reader, writer } = createStore<KubeObject>({
    indexers: { controller: byControllerOwnerUid },
  });
  writer.apply({ type: "Init" });
  for (const o of objects) writer.apply({ type: "InitApply", object: o });
  writer.apply({ type: "InitDone", resourceVersion: "1" });
  const w = worldFromStore(reader);
  assert.deepEqual(w.ownedBy("u2").map((o) => o.metadata?.name), ["c"]);
  assert.equal(w.get("d/b")?.metadata?.name, "b");
  assert.equal(w.list().length, 4);
});

Deno.test("ownerReference() points at the owner as its controller, blocking owner deletion", () => {
  const owner = { apiVersion: "x/v1", kind: "X", metadata: { name: "x", uid: "u9" } };
  const r = ownerReference(owner);
  assert.deepEqual(r, { ...ref("u9", true), blockOwnerDeletion: true });
  const child = { metadata: { ownerReferences: [ref("u0"), r] } };
  assert.equal(controllerUid(child), "u9");
  assert.ok(isControlledBy(child, "u9"));
  assert.ok(!isControlledBy(child, "u0"));
  assert.ok(!isControlledBy({ metadata: {} }, ""));
});

Deno.test("refOf() and deleteOp() address an object, the delete pinned by uid", () => {
  const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", uid: "u" } };
  assert.deepEqual(refOf(pod), { apiVersion: "v1", kind: "Pod", name: "p" });
  assert.deepEqual(deleteOp({ ...pod, metadata: { ...pod.metadata, namespace: "d" } }), {
    type: "delete",
    ref: { apiVersion: "v1", kind: "Pod", namespace: "d", name: "p", uid: "u" },
  });
});

Deno.test("isEmptyPlan() and the error constructors build plain values", () => {
  assert.ok(isEmptyPlan({ ops: [] }));
  assert.ok(!isEmptyPlan({ ops: [], requeueAfterMs: 0 }));
  assert.deepEqual(terminal("bad"), { type: "terminal", message: "bad" });
  assert.deepEqual(transient("later", { requeueAfterMs: 5 }), {
    type: "transient",
    message: "later",
    requeueAfterMs: 5,
  });
});
