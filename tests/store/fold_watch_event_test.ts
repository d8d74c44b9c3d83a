import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { createStore, type Delta, type KubeObject, objectKey } from "../../mod.ts";
import { reorderUnrelated, script, scriptFromChoices } from "../../lib/testing/mod.ts";
import { applyDelta } from "../../lib/store/apply_delta.ts";
import { emptyModel, modelFold, view } from "./_model.ts";

const cm = (name: string, v: string): KubeObject => ({
  metadata: { namespace: "d", name },
  data: { v },
});
const rvOf = (o: KubeObject | undefined) => o?.metadata?.resourceVersion;

Deno.test("the store equals the model map and replaying deltas on the previous store gives the next, for any history", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { maxLength: 80, size: "max" }),
      fc.array(fc.nat(1000), { maxLength: 8 }),
      (choices, shuffle) => {
        const events = reorderUnrelated(scriptFromChoices(choices).reconnect().events(), shuffle);
        const { reader, writer } = createStore<KubeObject>();
        let model = emptyModel();
        for (const event of events) {
          const before = new Map(reader.keys().map((k) => [k, reader.get(k) as KubeObject]));
          const deltas = writer.apply(event) as Delta<KubeObject>[];
          model = modelFold(model, event);
          const after = new Map(reader.keys().map((k) => [k, reader.get(k) as KubeObject]));
          assert.deepEqual(view(after), view(model.cache));
          const replayed = deltas.reduce(applyDelta, new Map(before));
          assert.deepEqual(view(replayed), view(after));
          if (event.type === "InitDone") {
            assert.deepEqual(deltas.at(-1), {
              type: "Synced",
              resourceVersion: event.resourceVersion,
            });
            const vanished = [...before.keys()].filter((k) => !after.has(k)).sort();
            const deleted = deltas.filter((d) => d.type === "Deleted");
            assert.deepEqual(deleted.map((d) => objectKey(d.object)).sort(), vanished);
            assert.ok(deleted.every((d) => d.type === "Deleted" && d.finalStateUnknown));
            const changed = [...after.keys()].filter((k) =>
              rvOf(before.get(k)) !== rvOf(after.get(k))
            );
            const applied = deltas.filter((d) => d.type === "Added" || d.type === "Updated");
            assert.deepEqual(applied.map((d) => objectKey(d.object)).sort(), changed.sort());
          } else if (event.type === "Init" || event.type === "InitApply") {
            assert.deepEqual(deltas, []);
          }
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("the store ends equal to the server's state after any scripted history", () => {
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 80, size: "max" }), (choices) => {
      const s = scriptFromChoices(choices).reconnect();
      const { reader, writer } = createStore<KubeObject>();
      for (const event of s.events()) writer.apply(event);
      assert.deepEqual(
        view(new Map(reader.keys().map((k) => [k, reader.get(k)]))),
        view(s.state()),
      );
      assert.equal(reader.hasSynced(), true);
    }),
    { numRuns: 200 },
  );
});

Deno.test("a relist of identical objects emits only Synced", () => {
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 40, size: "max" }), (choices) => {
      const s = scriptFromChoices(choices).reconnect();
      const { writer } = createStore<KubeObject>();
      for (const event of s.events()) writer.apply(event);
      const before = s.events().length;
      s.relist([...s.state().values()]);
      const deltas = s.events().slice(before).flatMap((e) => writer.apply(e));
      assert.deepEqual(deltas, [{ type: "Synced", resourceVersion: s.resourceVersion() }]);
    }),
    { numRuns: 100 },
  );
});

Deno.test("objects missing from a relist come out as Deleted with finalStateUnknown: true", () => {
  const s = script<KubeObject>().list([cm("a", "1"), cm("b", "1"), cm("c", "1")]);
  const { reader, writer } = createStore<KubeObject>();
  for (const e of s.events()) writer.apply(e);
  const b = reader.get("d/b");
  const start = s.events().length;
  s.disconnect().delete("d/b").apply(cm("c", "2")).gone();
  const deltas = s.events().slice(start).flatMap((e) => writer.apply(e));
  assert.deepEqual(deltas.map((d) => d.type), ["Deleted", "Updated", "Synced"]);
  assert.deepEqual(deltas[0], { type: "Deleted", object: b, finalStateUnknown: true });
  assert.equal(reader.get("d/b"), undefined);
  assert.deepEqual(reader.keys(), ["d/a", "d/c"]);
});

Deno.test("a relist in progress is not visible in the store until InitDone", () => {
  const { reader, writer } = createStore<KubeObject>();
  const s = script<KubeObject>().list([cm("a", "1")]).relist([cm("b", "1")]);
  const events = s.events();
  const initDone = events.lastIndexOf(events.at(-1)!);
  for (const e of events.slice(0, initDone)) writer.apply(e);
  assert.deepEqual(reader.keys(), ["d/a"]);
  writer.apply(events[initDone]);
  assert.deepEqual(reader.keys(), ["d/b"]);
});

Deno.test("live Apply emits Added then Updated with the old object, Delete emits the final state", () => {
  const { writer } = createStore<KubeObject>();
  const a1 = { metadata: { name: "a", resourceVersion: "1" } };
  const a2 = { metadata: { name: "a", resourceVersion: "2" } };
  const a3 = { metadata: { name: "a", resourceVersion: "3" } };
  assert.deepEqual(writer.apply({ type: "Apply", object: a1 }), [{ type: "Added", object: a1 }]);
  assert.deepEqual(writer.apply({ type: "Apply", object: a2 }), [
    { type: "Updated", old: a1, object: a2 },
  ]);
  assert.deepEqual(writer.apply({ type: "Delete", object: a3 }), [
    { type: "Deleted", object: a3, finalStateUnknown: false },
  ]);
  assert.deepEqual(writer.apply({ type: "Delete", object: a3 }), []);
});

Deno.test("an InitApply with the cached resourceVersion reuses the cached object and skips the transform", () => {
  let transforms = 0;
  const { reader, writer } = createStore<KubeObject>({ transform: (o) => (transforms++, o) });
  const a = { metadata: { name: "a", resourceVersion: "1" } };
  writer.apply({ type: "Apply", object: a });
  writer.apply({ type: "Init" });
  writer.apply({ type: "InitApply", object: { metadata: { name: "a", resourceVersion: "1" } } });
  assert.deepEqual(writer.apply({ type: "InitDone", resourceVersion: "1" }), [
    { type: "Synced", resourceVersion: "1" },
  ]);
  assert.equal(reader.get("a"), a);
  assert.equal(transforms, 1);
});

Deno.test("objects without a resourceVersion are never taken as unchanged on relist", () => {
  const { writer } = createStore<KubeObject>();
  writer.apply({ type: "Apply", object: { metadata: { name: "a" } } });
  writer.apply({ type: "Init" });
  writer.apply({ type: "InitApply", object: { metadata: { name: "a" } } });
  const deltas = writer.apply({ type: "InitDone", resourceVersion: "2" });
  assert.deepEqual(deltas.map((d) => d.type), ["Updated", "Synced"]);
});
