import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  byControllerOwnerUid,
  byLabel,
  byNamespace,
  createStore,
  type DeepReadonly,
  type Indexer,
  type KubeObject,
  objectKey,
  stripManagedFields,
} from "../../mod.ts";
import { freezeDeep, reorderUnrelated, scriptFromChoices } from "../../lib/testing/mod.ts";

const indexers: Record<string, Indexer<DeepReadonly<KubeObject>>> = {
  namespace: byNamespace,
  owner: byControllerOwnerUid,
  app: byLabel("app"),
  // a custom multi-value indexer: every label key
  labelKeys: (o) => Object.keys(o.metadata?.labels ?? {}),
};

Deno.test("indexes always agree with a recomputation from list(), for any history", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { maxLength: 80, size: "max" }),
      fc.array(fc.nat(), { maxLength: 8 }),
      (choices, shuffle) => {
        const events = reorderUnrelated(scriptFromChoices(choices).reconnect().events(), shuffle);
        const { reader, writer } = createStore<KubeObject>({ indexers });
        for (const event of events) {
          writer.apply(event);
          for (const [name, indexer] of Object.entries(indexers)) {
            const expected = new Map<string, string[]>();
            for (const o of reader.list()) {
              for (const v of indexer(o)) {
                expected.set(v, [...(expected.get(v) ?? []), objectKey(o as KubeObject)]);
              }
            }
            assert.deepEqual([...reader.indexValues(name)].sort(), [...expected.keys()].sort());
            for (const [value, keys] of expected) {
              assert.deepEqual([...reader.keysByIndex(name, value)].sort(), keys.sort());
              const objects = reader.byIndex(name, value).map((o) => objectKey(o as KubeObject));
              assert.deepEqual(objects.sort(), keys.sort());
            }
          }
        }
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("the reader cannot mutate stored objects when the store freezes them", () => {
  const { reader, writer } = createStore<KubeObject>({
    transform: (o) => freezeDeep(stripManagedFields(o)) as KubeObject,
  });
  writer.apply({
    type: "Apply",
    object: { metadata: { name: "a", labels: { app: "x" }, managedFields: [{ manager: "m" }] } },
  });
  const a = reader.get("a")!;
  assert.equal(a.metadata?.managedFields, undefined);
  assert.throws(() => {
    // @ts-expect-error: stored objects are read-only
    a.metadata!.labels!.app = "y";
  }, TypeError);
  assert.equal(reader.get("a")?.metadata?.labels?.app, "x");
});

Deno.test("byIndex() on an unknown index throws naming the index", () => {
  const { reader } = createStore<KubeObject>({ indexers: { namespace: byNamespace } });
  assert.throws(() => reader.byIndex("nope", "x"), /index "nope".*known: namespace/);
  assert.deepEqual(reader.byIndex("namespace", "absent"), []);
});

Deno.test("synced$ emits once after the first InitDone, and at once for late subscribers", () => {
  const { reader, writer } = createStore<KubeObject>();
  const seen: string[] = [];
  reader.synced$.subscribe({ next: () => seen.push("early"), complete: () => seen.push("done") });
  writer.apply({ type: "Init" });
  assert.equal(reader.hasSynced(), false);
  writer.apply({ type: "InitDone", resourceVersion: "3" });
  writer.apply({ type: "Init" });
  writer.apply({ type: "InitDone", resourceVersion: "4" });
  reader.synced$.subscribe(() => seen.push("late"));
  assert.deepEqual(seen, ["early", "done", "late"]);
  assert.equal(reader.hasSynced(), true);
});

Deno.test("resourceVersion follows lists, bookmarks and changed objects", () => {
  const { reader, writer } = createStore<KubeObject>();
  assert.equal(reader.resourceVersion, undefined);
  writer.apply({ type: "Init" });
  writer.apply({ type: "InitDone", resourceVersion: "5" });
  assert.equal(reader.resourceVersion, "5");
  writer.apply({ type: "Apply", object: { metadata: { name: "a", resourceVersion: "7" } } });
  assert.equal(reader.resourceVersion, "7");
  writer.apply({ type: "Bookmark", resourceVersion: "9" });
  assert.equal(reader.resourceVersion, "9");
});

Deno.test("list() returns the same array until the next write", () => {
  const { reader, writer } = createStore<KubeObject>();
  writer.apply({ type: "Apply", object: { metadata: { name: "a" } } });
  const first = reader.list();
  assert.equal(reader.list(), first);
  assert.equal(reader.size, 1);
  writer.apply({ type: "Apply", object: { metadata: { name: "b" } } });
  assert.notEqual(reader.list(), first);
  assert.deepEqual(reader.keys(), ["a", "b"]);
});

Deno.test("index updates run the indexers on the new object only and keep unchanged entries", () => {
  let calls = 0;
  const counting: Indexer<DeepReadonly<KubeObject>> = (o) => (calls++, byLabel("tier")(o));
  const { reader, writer } = createStore<KubeObject>({ indexers: { tier: counting } });
  const v = (rv: string, tier: string) => ({
    metadata: { namespace: "ns", name: "a", resourceVersion: rv, labels: { tier } },
  });
  writer.apply({ type: "Apply", object: v("1", "x") });
  writer.apply({ type: "Apply", object: v("2", "x") });
  assert.equal(calls, 2); // once per write: what the old object was filed under is remembered
  assert.deepEqual(reader.keysByIndex("tier", "x"), ["ns/a"]);
  writer.apply({ type: "Apply", object: v("3", "y") });
  assert.deepEqual(reader.indexValues("tier"), ["y"]);
  assert.deepEqual(reader.keysByIndex("tier", "y"), ["ns/a"]);
  writer.apply({ type: "Delete", object: v("4", "y") });
  assert.equal(calls, 3); // a delete unfiles what was filed, without the indexer
  assert.deepEqual(reader.indexValues("tier"), []);
});

Deno.test("addIndexers() files the objects already stored under a new index", async () => {
  const { createStore: make } = await import("../../lib/store/create_store.ts");
  const { writer, reader } = make<{ metadata: { name: string; namespace: string } }>();
  writer.apply({ type: "Init" });
  writer.apply({ type: "InitApply", object: { metadata: { name: "a", namespace: "x" } } });
  writer.apply({ type: "InitDone", resourceVersion: "1" });
  writer.addIndexers({ ns: (o) => [o.metadata.namespace] });
  if (reader.byIndex("ns", "x").length !== 1) throw new Error("not backfilled");
  writer.apply({ type: "Apply", object: { metadata: { name: "b", namespace: "x" } } });
  if (reader.byIndex("ns", "x").length !== 2) throw new Error("not maintained");
});

Deno.test("an index value with many keys keeps them exact through removals and moves", () => {
  const { reader, writer } = createStore<KubeObject>({
    indexers: { tier: byLabel("tier"), twice: (o) => [o.metadata?.name ?? "", "all", "all"] },
  });
  const pod = (i: number, tier: string, rv: number) => ({
    metadata: { namespace: "ns", name: `p${i}`, resourceVersion: String(rv), labels: { tier } },
  });
  writer.apply({ type: "Init" });
  for (let i = 0; i < 40; i++) writer.apply({ type: "InitApply", object: pod(i, "web", i + 1) });
  writer.apply({ type: "InitDone", resourceVersion: "40" });
  // A value the indexer returns twice files the key once.
  assert.equal(reader.keysByIndex("twice", "all").length, 40);
  for (let i = 0; i < 40; i += 3) writer.apply({ type: "Delete", object: pod(i, "web", 100 + i) });
  for (let i = 1; i < 40; i += 3) writer.apply({ type: "Apply", object: pod(i, "db", 200 + i) });
  const keysOf = (tier: string) =>
    reader.list().filter((o) => o.metadata?.labels?.tier === tier).map((o) =>
      objectKey(o as KubeObject)
    ).sort();
  assert.deepEqual([...reader.keysByIndex("tier", "web")].sort(), keysOf("web"));
  assert.deepEqual([...reader.keysByIndex("tier", "db")].sort(), keysOf("db"));
  assert.equal(keysOf("web").length + keysOf("db").length, reader.size);
  assert.equal(reader.keysByIndex("twice", "all").length, reader.size);
  for (let i = 0; i < 40; i++) {
    writer.apply({ type: "Delete", object: pod(i, "x", 300 + i) });
  }
  assert.deepEqual(reader.indexValues("tier"), []);
  assert.deepEqual(reader.indexValues("twice"), []);
});
