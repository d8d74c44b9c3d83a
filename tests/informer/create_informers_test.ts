import assert from "node:assert/strict";
import { byNamespace, createInformers, type Delta, E, stripManagedFields } from "../../mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

const cm = { apiVersion: "v1", kind: "ConfigMap" } as const;

/** A test API, a client, and informers on its virtual clock. */
function setup(options: { maxRetries?: number } = {}) {
  const api = createTestApi();
  const client = api.client(options);
  const factory = createInformers(client, { scheduler: api.clock.scheduler, random: () => 0.5 });
  return { api, client, factory };
}

Deno.test("createInformers() shares one list and one watch between subscribers of an informer", async () => {
  const { api, client, factory } = setup();
  using _ = api;
  const a = factory.informer(cm, { namespace: "default", indexers: { namespace: byNamespace } });
  const b = factory.informer(cm, { namespace: "default" });
  assert.equal(a, b);
  const seenA: Delta<unknown>[] = [];
  const seenB: Delta<unknown>[] = [];
  const subA = a.deltas$.subscribe((d) => seenA.push(d));
  const subB = b.deltas$.subscribe((d) => seenB.push(d));
  await api.clock.advanceUntil(() => a.hasSynced(), { what: "synced" });
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "x" } })));
  await api.clock.advanceUntil(() => seenB.some((d) => d.type === "Added"), { what: "Added" });
  assert.deepEqual(seenA.map((d) => d.type), seenB.map((d) => d.type));
  assert.equal(a.store.byIndex("namespace", "default").length, 1);
  const counts = api.requestCounts();
  assert.equal(counts["list configmaps"], 1);
  assert.equal(counts["watch configmaps"], 1);
  subA.unsubscribe();
  subB.unsubscribe();
});

Deno.test("createInformers() keeps informers of different scopes apart", () => {
  const { api, factory } = setup();
  using _ = api;
  const all = factory.informer(cm);
  const def = factory.informer(cm, { namespace: "default" });
  const web = factory.informer(cm, { namespace: "default", labelSelector: "app=web" });
  assert.notEqual(all, def);
  assert.notEqual(def, web);
  assert.equal(factory.size, 3);
});

Deno.test("an informer stops watching when its last subscriber leaves and relists on return", async () => {
  const { api, client, factory } = setup();
  using _ = api;
  const pods = factory.informer(cm, { namespace: "default" });
  const sub = pods.deltas$.subscribe();
  await api.clock.advanceUntil(() => api.openWatches() === 1, {
    what: "watch",
  });
  sub.unsubscribe();
  await api.clock.settle();
  assert.equal(api.openWatches(), 0, "the watch ended with the subscription");
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "while-away" } })));
  await api.clock.advance(1_000);
  assert.equal(pods.store.size, 0, "nothing is watched without subscribers");
  const back: Delta<unknown>[] = [];
  const again = pods.deltas$.subscribe((d) => back.push(d));
  await api.clock.advanceUntil(() => pods.store.size === 1, { what: "relisted" });
  assert.equal(api.requestCounts()["list configmaps"], 2);
  assert.deepEqual(back.map((d) => d.type), ["Added", "Synced"]);
  again.unsubscribe();
});

Deno.test("an informer re-watches from its last resourceVersion after a dropped watch, without relisting", async () => {
  const { api, client, factory } = setup();
  using _ = api;
  const informer = factory.informer(cm, { namespace: "default" });
  const seen: string[] = [];
  const sub = informer.deltas$.subscribe((d) => seen.push(d.type));
  await api.clock.advanceUntil(() => informer.hasSynced(), { what: "synced" });
  assert.equal(api.faults.dropWatches({ resource: "configmaps" }), 1);
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "during" } })));
  await api.clock.advanceUntil(() => informer.store.size === 1, {
    what: "the change made while away",
  });
  assert.deepEqual(api.requestCounts(), {
    "list configmaps": 1,
    "watch configmaps": 2,
    "create configmaps": 1,
  });
  assert.deepEqual(seen, ["Synced", "Added"]);
  sub.unsubscribe();
});

Deno.test("an informer relists after 410 Gone and sees deletions it missed as Deleted", async () => {
  const { api, client, factory } = setup();
  using _ = api;
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "old" } })));
  const informer = factory.informer(cm, { namespace: "default" });
  const seen: string[] = [];
  const sub = informer.deltas$.subscribe((d) => seen.push(d.type));
  await api.clock.advanceUntil(() => informer.hasSynced(), { what: "synced" });
  // The watch drops; meanwhile "old" goes and the history is compacted: resuming gets 410.
  api.faults.gone({ resource: "configmaps" });
  api.faults.dropWatches();
  assert.ok(E.isRight(await client.delete(cm, "old")));
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "new" } })));
  await api.clock.advanceUntil(() => api.requestCounts()["list configmaps"] === 2, {
    what: "relist",
  });
  await api.clock.advanceUntil(() => informer.store.size === 1, { what: "converged" });
  assert.deepEqual(informer.store.list().map((o) => o.metadata?.name), ["new"]);
  assert.ok(seen.includes("Deleted"), `deltas: ${seen}`);
  sub.unsubscribe();
});

Deno.test("an informer backs off while its list is throttled and syncs once it is not", async () => {
  const { api, factory } = setup({ maxRetries: 0 });
  using _ = api;
  api.faults.throttle({ verb: "list", times: 3, retryAfterSeconds: 0 });
  const informer = factory.informer(cm, { namespace: "default" });
  const sub = informer.deltas$.subscribe();
  const took = await api.clock.advanceUntil(() => informer.hasSynced(), { what: "synced" });
  // Three failed lists, each followed by a backoff wait (800 ms doubling, jittered).
  assert.equal(api.requestCounts()["list configmaps"], 4);
  assert.ok(took >= 800, `synced after ${took} virtual ms`);
  sub.unsubscribe();
});

Deno.test("a later request for the same informer adds its indexers to the shared store", async () => {
  const { createInformers: make } = await import("../../lib/informer/create_informers.ts");
  const { createClient } = await import("../../lib/client/create_client.ts");
  const client = createClient({
    server: "http://127.0.0.1:1",
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  } as never);
  const factory = make(client);
  const first = factory.informer({ apiVersion: "v1", kind: "Pod" });
  const second = factory.informer({ apiVersion: "v1", kind: "Pod" }, {
    indexers: { byName: (o) => [o.metadata?.name ?? ""] },
  });
  if (first !== second) throw new Error("not shared");
  if (second.store.byIndex("byName", "x").length !== 0) throw new Error("index missing");
  client.close();
});

Deno.test("an informer is shared only with requests for the same transform; another one throws, naming it", () => {
  const client = { close() {} } as never; // informers are lazy: nothing is requested here
  const factory = createInformers(client);
  const strip = stripManagedFields;
  const a = factory.informer(cm, { transform: strip });
  assert.equal(factory.informer(cm, { transform: strip }), a);
  assert.throws(
    () => factory.informer(cm, { transform: (o) => o }),
    /Cannot share the informer v1\/ConfigMap ns= .*with another transform/,
  );
  assert.throws(() => factory.informer(cm), /passes none/);
  const plain = factory.informer(cm, { namespace: "default" });
  assert.throws(() => factory.informer(cm, { namespace: "default", transform: strip }), /without/);
  assert.equal(factory.informer(cm, { namespace: "default" }), plain);
});
