import assert from "node:assert/strict";
import { from, TestScheduler } from "../../lib/deps.ts";
import { createStore, type KubeObject, reflect, type WatchEvent } from "../../mod.ts";

const a1: KubeObject = { metadata: { name: "a", resourceVersion: "1" } };
const a2: KubeObject = { metadata: { name: "a", resourceVersion: "2" } };

Deno.test("reflect() emits deltas in step with the events and the store already reflects each", () => {
  const scheduler = new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));
  scheduler.run(({ cold, expectObservable }) => {
    const { writer } = createStore<KubeObject>();
    const events = cold<WatchEvent<KubeObject>>("-i-a-d-b-u-x|", {
      i: { type: "Init" },
      a: { type: "InitApply", object: a1 },
      d: { type: "InitDone", resourceVersion: "1" },
      b: { type: "Bookmark", resourceVersion: "1" },
      u: { type: "Apply", object: a2 },
      x: { type: "Delete", object: a2 },
    });
    const deltas = events.pipe(reflect(writer));
    expectObservable(deltas).toBe("-----(AS)U-X|", {
      A: { type: "Added", object: a1 },
      S: { type: "Synced", resourceVersion: "1" },
      U: { type: "Updated", old: a1, object: a2 },
      X: { type: "Deleted", object: a2, finalStateUnknown: false },
    });
  });
});

Deno.test("reflect() lets the store be read at each delta with the delta applied", () => {
  const { reader, writer } = createStore<KubeObject>();
  const seen: (string | undefined)[] = [];
  const events: WatchEvent<KubeObject>[] = [
    { type: "Apply", object: a1 },
    { type: "Apply", object: a2 },
    { type: "Delete", object: a2 },
  ];
  from(events).pipe(reflect(writer)).subscribe(() =>
    seen.push(reader.get("a")?.metadata?.resourceVersion)
  );
  assert.deepEqual(seen, ["1", "2", undefined]);
});

Deno.test("reflect() passes errors through and keeps the store", () => {
  const scheduler = new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));
  scheduler.run(({ cold, expectObservable }) => {
    const { reader, writer } = createStore<KubeObject>();
    const events = cold<WatchEvent<KubeObject>>("-u-#", { u: { type: "Apply", object: a1 } });
    expectObservable(events.pipe(reflect(writer))).toBe("-A-#", {
      A: { type: "Added", object: a1 },
    });
    scheduler.flush();
    assert.equal(reader.size, 1);
  });
});
