import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { createStore, type KubeObject, shareManagedFields } from "../../mod.ts";

const keys = fc.constantFrom("f:a", "f:b", "f:c", ".");
const leaf = fc.dictionary(keys, fc.constant({}), { maxKeys: 2, noNullPrototype: true });
const tree = fc.dictionary(keys, fc.oneof(fc.constant({}), leaf), {
  maxKeys: 3,
  noNullPrototype: true,
});
const object = (name: string, trees: Record<string, unknown>[]): KubeObject => ({
  metadata: {
    name,
    managedFields: trees.map((fieldsV1, i) => ({ manager: `m${i}`, fieldsV1 })),
  },
});

Deno.test("shareManagedFields() returns objects deep-equal to their inputs", () => {
  fc.assert(
    fc.property(fc.array(fc.array(tree, { maxLength: 3 }), { maxLength: 8 }), (sets) => {
      const share = shareManagedFields<KubeObject>({ maxShapes: 3 });
      for (const [i, trees] of sets.entries()) {
        const input = object(`o${i}`, trees);
        const copy = structuredClone(input);
        assert.deepEqual(share(input), copy);
        assert.deepEqual(input, copy); // the input is not mutated
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("shareManagedFields() gives equal trees of different objects one identity", () => {
  const share = shareManagedFields<KubeObject>();
  const a = share(object("a", [{ "f:spec": { "f:x": {} } }, { "f:status": {} }]));
  const b = share(object("b", [{ "f:spec": { "f:x": {} } }, { "f:other": {} }]));
  assert.equal(a.metadata!.managedFields![0].fieldsV1, b.metadata!.managedFields![0].fieldsV1);
  assert.notEqual(a.metadata!.managedFields![1].fieldsV1, b.metadata!.managedFields![1].fieldsV1);
});

Deno.test("shareManagedFields() returns an object without managed fields as it is", () => {
  const share = shareManagedFields<KubeObject>();
  const o = { metadata: { name: "plain" } };
  assert.equal(share(o), o);
  const first = object("first", [{ "f:a": {} }]);
  assert.equal(share(first), first); // the first carrier of a tree keeps it
});

Deno.test("createStore() shares managedFields trees unless told not to", () => {
  for (const shareManagedFields of [true, false]) {
    const { reader, writer } = createStore<KubeObject>({ shareManagedFields });
    writer.apply({ type: "Init" });
    for (const name of ["a", "b"]) {
      writer.apply({ type: "InitApply", object: object_(name) });
    }
    writer.apply({ type: "InitDone", resourceVersion: "1" });
    const same = reader.get("a")!.metadata!.managedFields![0].fieldsV1 ===
      reader.get("b")!.metadata!.managedFields![0].fieldsV1;
    assert.equal(same, shareManagedFields);
  }
});

function object_(name: string): KubeObject {
  return object(name, [{ "f:spec": { "f:replicas": {} } }]);
}
