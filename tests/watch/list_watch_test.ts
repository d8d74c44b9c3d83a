import assert from "node:assert/strict";
import type { Subscription } from "../../lib/deps.ts";
import {
  type Client,
  createStore,
  type Delta,
  E,
  type KubeObject,
  listWatch,
  reflect,
  type WatchEvent,
} from "../../mod.ts";
import { eventually, serverAndClient } from "../client/_server.ts";

const cm = { apiVersion: "v1", kind: "ConfigMap" } as const;
const configMap = (name: string, labels?: Record<string, string>): KubeObject => ({
  ...cm,
  metadata: { name, namespace: "default", ...(labels ? { labels } : {}) },
});
const names = (events: WatchEvent<KubeObject>[], type: WatchEvent<KubeObject>["type"]) =>
  events.flatMap((e) => e.type === type && "object" in e ? [e.object.metadata?.name] : []);

async function createAll(client: Client, objs: KubeObject[]) {
  for (const o of objs) assert.ok(E.isRight(await client.create(o)));
}

/** Stops a subscription and lets the aborted request settle (sanitizers). */
async function stop(sub: Subscription) {
  sub.unsubscribe();
  await new Promise((r) => setTimeout(r, 20));
}

Deno.test("listWatch() lists in pages, then sees adds, modifications and deletions", async () => {
  const { server, client, close } = await serverAndClient();
  await createAll(client, ["a", "b", "c", "d", "e"].map((n) => configMap(n)));
  const events: WatchEvent<KubeObject>[] = [];
  const sub = listWatch(client, cm, { namespace: "default", pageSize: 2 }).subscribe((e) =>
    events.push(e)
  );
  await eventually(() => events.some((e) => e.type === "InitDone"), 5000, "InitDone");
  assert.deepEqual(names(events, "InitApply"), ["a", "b", "c", "d", "e"]);
  assert.equal(server.requestCounts()["list configmaps"], 3);
  await createAll(client, [configMap("f")]);
  assert.ok(
    E.isRight(
      await client.patch(cm, "a", { patch: { type: "merge", body: { data: { k: "v" } } } }),
    ),
  );
  assert.ok(E.isRight(await client.delete(cm, "b")));
  await eventually(() => names(events, "Delete").length === 1, 5000, "Delete");
  assert.deepEqual(names(events, "Apply"), ["f", "a"]);
  assert.deepEqual(names(events, "Delete"), ["b"]);
  await stop(sub);
  await close();
});

Deno.test("listWatch() re-watches from the last resourceVersion when the server ends the watch", async () => {
  const { server, client, close } = await serverAndClient();
  const events: WatchEvent<KubeObject>[] = [];
  const sub = listWatch(client, cm, { namespace: "default", timeoutSeconds: 1 }).subscribe((e) =>
    events.push(e)
  );
  await eventually(
    () => (server.requestCounts()["watch configmaps"] ?? 0) >= 2,
    5000,
    "second watch",
  );
  await createAll(client, [configMap("late")]);
  await eventually(() => names(events, "Apply").includes("late"), 5000, "late");
  assert.equal(server.requestCounts()["list configmaps"], 1, "no relist");
  assert.equal(events.filter((e) => e.type === "Init").length, 1);
  await stop(sub);
  await close();
});

Deno.test("listWatch() relists after 410 Gone and the store reports objects deleted meanwhile", async () => {
  let blocked = false;
  const streams = new Set<AbortController>();
  // A fetch that can cut open watches and refuse new ones, to force a disconnect.
  const flaky: typeof fetch = (input, init) => {
    const url = String(input);
    if (!url.includes("watch=true")) return fetch(input, init);
    if (blocked) return Promise.reject(new TypeError("connection refused (test)"));
    const ac = new AbortController();
    streams.add(ac);
    init?.signal?.addEventListener("abort", () => ac.abort());
    return fetch(input, { ...init, signal: ac.signal });
  };
  const { server, client, close } = await serverAndClient({ fetch: flaky });
  await createAll(client, [configMap("keep"), configMap("doomed")]);
  const { reader, writer } = createStore<KubeObject>();
  const deltas: Delta<unknown>[] = [];
  const sub = listWatch(client, cm, { namespace: "default", backoff: { initialMs: 20, maxMs: 50 } })
    .pipe(reflect(writer)).subscribe((d) => deltas.push(d));
  await eventually(() => reader.hasSynced(), 5000, "synced");
  await eventually(() => streams.size === 1, 5000, "watch open");
  blocked = true;
  for (const s of streams) s.abort();
  assert.ok(E.isRight(await client.delete(cm, "doomed")));
  server.compactHistory();
  blocked = false;
  await eventually(() => (server.requestCounts()["list configmaps"] ?? 0) === 2, 5000, "relist");
  await eventually(() => deltas.some((d) => d.type === "Deleted"), 5000, "Deleted delta");
  const deleted = deltas.find((d) => d.type === "Deleted");
  assert.ok(deleted?.type === "Deleted");
  assert.equal(deleted.finalStateUnknown, true);
  assert.equal((deleted.object as KubeObject).metadata?.name, "doomed");
  assert.deepEqual(reader.keys(), ["default/keep"]);
  await stop(sub);
  await close();
});

Deno.test("listWatch() can use a streaming list instead of LIST", async () => {
  const { server, client, close } = await serverAndClient();
  await createAll(client, [configMap("a"), configMap("b")]);
  const events: WatchEvent<KubeObject>[] = [];
  const sub = listWatch(client, cm, { namespace: "default", streamingList: true }).subscribe((e) =>
    events.push(e)
  );
  await eventually(() => events.some((e) => e.type === "InitDone"), 5000, "InitDone");
  assert.deepEqual(names(events, "InitApply").sort(), ["a", "b"]);
  await createAll(client, [configMap("c")]);
  await eventually(() => names(events, "Apply").includes("c"), 5000, "c");
  assert.equal(server.requestCounts()["list configmaps"] ?? 0, 0);
  await stop(sub);
  await close();
});

Deno.test("listWatch() is scoped by namespace and label selector", async () => {
  const { client, close } = await serverAndClient();
  await createAll(client, [configMap("x", { app: "web" }), configMap("y", { app: "db" })]);
  assert.ok(
    E.isRight(
      await client.create({
        ...cm,
        metadata: { name: "z", namespace: "kube-system", labels: { app: "web" } },
      }),
    ),
  );
  const events: WatchEvent<KubeObject>[] = [];
  const sub = listWatch(client, cm, { namespace: "default", labelSelector: "app=web" }).subscribe((
    e,
  ) => events.push(e));
  await eventually(() => events.some((e) => e.type === "InitDone"), 5000, "InitDone");
  await createAll(client, [configMap("w", { app: "web" }), configMap("v", { app: "db" })]);
  await eventually(() => names(events, "Apply").length === 1, 5000, "Apply");
  assert.deepEqual(names(events, "InitApply"), ["x"]);
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(names(events, "Apply"), ["w"]);
  await stop(sub);
  await close();
});

Deno.test("listWatch() survives garbage and undecodable objects, naming what it skipped", async () => {
  let watches = 0;
  const lines = [
    '{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"ok","resourceVersion":"2"}}}',
    '{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"namespace":"default"}}}',
    "this is not json",
  ];
  const fake = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/v1") {
      return Response.json({
        resources: [{ name: "configmaps", kind: "ConfigMap", namespaced: true }],
      });
    }
    if (url.searchParams.get("watch") !== "true") {
      return Response.json({ metadata: { resourceVersion: "1" }, items: [] });
    }
    watches++;
    return new Response(watches === 1 ? lines.join("\n") + "\n" : "", {
      headers: { "content-type": "application/json" },
    });
  });
  const { createClient } = await import("../../lib/client/create_client.ts");
  const client = createClient({
    server: `http://127.0.0.1:${fake.addr.port}`,
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  });
  const logs: string[] = [];
  const log = (m: string, f?: Record<string, unknown>) =>
    void logs.push(`${m} ${JSON.stringify(f)}`);
  const events: WatchEvent<KubeObject>[] = [];
  const sub = listWatch(client, cm, {
    backoff: { initialMs: 5, maxMs: 10 },
    logger: { debug: log, info: log, warn: log, error: log },
  }).subscribe((e) => events.push(e));
  await eventually(() => watches >= 2, 5000, "reconnect");
  assert.deepEqual(names(events, "Apply"), ["ok"]);
  assert.ok(
    logs.some((l) => l.includes("skipped") && l.includes("ConfigMap without metadata.name")),
    logs.join("\n"),
  );
  assert.ok(
    logs.some((l) => l.includes("undecodable watch line") && l.includes("this is not json")),
    logs.join("\n"),
  );
  await stop(sub);
  client.close();
  await fake.shutdown();
});

Deno.test("unsubscribing from listWatch() stops the watch", async () => {
  const { server, client, close } = await serverAndClient();
  const events: WatchEvent<KubeObject>[] = [];
  const sub = listWatch(client, cm, { namespace: "default" }).subscribe((e) => events.push(e));
  await eventually(() => (server.requestCounts()["watch configmaps"] ?? 0) === 1, 5000, "watch");
  await stop(sub);
  const seen = events.length;
  await createAll(client, [configMap("after")]);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(events.length, seen);
  await close();
});
