import assert from "node:assert/strict";
import { E } from "../../lib/deps.ts";
import { informers } from "../../lib/informer/informers.ts";
import { byNamespace } from "../../lib/store/by_namespace.ts";
import { stripManagedFields } from "../../lib/store/strip_managed_fields.ts";
import type { Delta } from "../../lib/store/delta.ts";
import { eventually, serverAndClient } from "../client/_server.ts";

const cm = { apiVersion: "v1", kind: "ConfigMap" } as const;

Deno.test("informers() shares one list and one watch between subscribers of an informer", async () => {
  const { server, client, close } = await serverAndClient();
  const factory = informers(client);
  const a = factory.informer(cm, { namespace: "default", indexers: { namespace: byNamespace } });
  const b = factory.informer(cm, { namespace: "default" });
  assert.equal(a, b);
  const seenA: Delta<unknown>[] = [];
  const seenB: Delta<unknown>[] = [];
  const subA = a.deltas$.subscribe((d) => seenA.push(d));
  const subB = b.deltas$.subscribe((d) => seenB.push(d));
  await eventually(() => a.hasSynced(), 5000, "synced");
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "x" } })));
  await eventually(() => seenB.some((d) => d.type === "Added"), 5000, "Added");
  assert.deepEqual(seenA.map((d) => d.type), seenB.map((d) => d.type));
  assert.equal(a.store.byIndex("namespace", "default").length, 1);
  const counts = server.requestCounts();
  assert.equal(counts["list configmaps"], 1);
  assert.equal(counts["watch configmaps"], 1);
  subA.unsubscribe();
  subB.unsubscribe();
  await new Promise((r) => setTimeout(r, 20));
  await close();
});

Deno.test("informers() keeps informers of different scopes apart", async () => {
  const { client, close } = await serverAndClient();
  const factory = informers(client);
  const all = factory.informer(cm);
  const def = factory.informer(cm, { namespace: "default" });
  const web = factory.informer(cm, { namespace: "default", labelSelector: "app=web" });
  assert.notEqual(all, def);
  assert.notEqual(def, web);
  assert.equal(factory.size, 3);
  await close();
});

Deno.test("an informer stops watching when its last subscriber leaves and relists on return", async () => {
  const { server, client, close } = await serverAndClient();
  const pods = informers(client).informer(cm, { namespace: "default" });
  const sub = pods.deltas$.subscribe();
  await eventually(() => (server.requestCounts()["watch configmaps"] ?? 0) === 1, 5000, "watch");
  sub.unsubscribe();
  await new Promise((r) => setTimeout(r, 20));
  assert.ok(E.isRight(await client.create({ ...cm, metadata: { name: "while-away" } })));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(pods.store.size, 0, "nothing is watched without subscribers");
  const back: Delta<unknown>[] = [];
  const again = pods.deltas$.subscribe((d) => back.push(d));
  await eventually(() => pods.store.size === 1, 5000, "relisted");
  assert.equal(server.requestCounts()["list configmaps"], 2);
  assert.deepEqual(back.map((d) => d.type), ["Added", "Synced"]);
  again.unsubscribe();
  await new Promise((r) => setTimeout(r, 20));
  await close();
});

Deno.test("a later request for the same informer adds its indexers to the shared store", async () => {
  const { informers: make } = await import("../../lib/informer/informers.ts");
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
  const factory = informers(client);
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
