import assert from "node:assert/strict";
import { configMap, openWatch, withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";

Deno.test("a watch without resourceVersion sends ADDED for the state, then changes in order", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    const w = await openWatch(api, `${cms}?watch=true`);
    assert.equal(w.res.status, 200);
    const first = await w.events.next();
    assert.equal(first.type, "ADDED");
    assert.equal(first.object.metadata.name, "a");
    assert.equal(first.object.kind, "ConfigMap");
    await api.post(cms, configMap("b"));
    await api.patch(`${cms}/b`, { data: { x: "1" } });
    const del = await api.del(`${cms}/a`);
    assert.equal(del.body.kind, "Status");
    assert.equal(del.body.status, "Success");
    const events = [await w.events.next(), await w.events.next(), await w.events.next()];
    assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), [
      "ADDED b",
      "MODIFIED b",
      "DELETED a",
    ]);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(rvs, [...rvs].sort((x, y) => x - y));
    assert.equal(
      rvs[2],
      api.server.context.storage.rv,
      "DELETED carries the deletion resourceVersion",
    );
    await w.events.close();
  }));

Deno.test("a watch from a resourceVersion replays exactly the later changes", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, configMap("a"))).body;
    await api.post(cms, configMap("b"));
    await api.patch(`${cms}/a`, { data: { y: "2" } });
    const w = await openWatch(api, `${cms}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
    const e1 = await w.events.next();
    const e2 = await w.events.next();
    assert.deepEqual([e1.type, e1.object.metadata.name, e2.type, e2.object.metadata.name], [
      "ADDED",
      "b",
      "MODIFIED",
      "a",
    ]);
    await w.events.close();
  }));

Deno.test("a watch from a compacted resourceVersion gets a 410 Expired ERROR event and the stream ends", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    for (let i = 0; i < 5; i++) await api.post(cms, configMap(`x${i}`));
    const w = await openWatch(api, `${cms}?watch=true&resourceVersion=2`);
    const e = await w.events.next();
    assert.equal(e.type, "ERROR");
    assert.equal(e.object.code, 410);
    assert.equal(e.object.reason, "Expired");
    assert.match(e.object.message, /too old resource version: 2/);
    assert.equal(await w.events.next(), undefined);
  }, { historySize: 3 }));

Deno.test("selector watches see objects entering as ADDED and leaving as DELETED", () =>
  withApi(async (api) => {
    const w = await openWatch(api, `${cms}?watch=true&labelSelector=app%3Dweb`);
    await api.post(cms, configMap("a", {}, { app: "db" }));
    await api.patch(`${cms}/a`, { metadata: { labels: { app: "web" } } });
    await api.patch(`${cms}/a`, { data: { x: "1" } });
    await api.patch(`${cms}/a`, { metadata: { labels: { app: "db" } } });
    const types = [];
    for (let i = 0; i < 3; i++) types.push((await w.events.next()).type);
    assert.deepEqual(types, ["ADDED", "MODIFIED", "DELETED"]);
    await w.events.close();
  }));

Deno.test("a watch on one object by fieldSelector metadata.name sees only that object", () =>
  withApi(async (api) => {
    const w = await openWatch(api, `${cms}?watch=true&fieldSelector=metadata.name%3Db`);
    await api.post(cms, configMap("a"));
    await api.post(cms, configMap("b"));
    const e = await w.events.next();
    assert.equal(e.object.metadata.name, "b");
    await w.events.close();
  }));

Deno.test("bookmarks carry the current resourceVersion with kind and apiVersion", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    const rv = api.server.context.storage.rv;
    const w = await openWatch(
      api,
      `${cms}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`,
    );
    const e = await w.events.next();
    assert.equal(e.type, "BOOKMARK");
    assert.deepEqual(e.object, {
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { resourceVersion: String(rv) },
    });
    await w.events.close();
  }, { bookmarkIntervalMs: 20 }));

Deno.test("sendInitialEvents streams the state and ends it with the annotated bookmark", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    await api.post(cms, configMap("b"));
    const w = await openWatch(
      api,
      `${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    const events = [await w.events.next(), await w.events.next(), await w.events.next()];
    assert.deepEqual(events.map((e) => e.type), ["ADDED", "ADDED", "BOOKMARK"]);
    assert.equal(events[2].object.metadata.annotations["k8s.io/initial-events-end"], "true");
    assert.equal(events[2].object.metadata.resourceVersion, String(api.server.context.storage.rv));
    await w.events.close();
    const invalid = await api.get(`${cms}?watch=true&sendInitialEvents=true`);
    assert.equal(invalid.status, 422);
    const matchOnly = await api.get(
      `${cms}?watch=true&resourceVersionMatch=NotOlderThan&resourceVersion=1`,
    );
    assert.equal(matchOnly.status, 422);
  }));

Deno.test("timeoutSeconds closes the stream cleanly", () =>
  withApi(async (api) => {
    const w = await openWatch(api, `${cms}?watch=true&timeoutSeconds=1&resourceVersion=1`);
    assert.equal(await w.events.next(), undefined);
  }));

Deno.test("watches with the Table Accept get Table rows, column definitions only first", () =>
  withApi(async (api) => {
    const accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    const w = await openWatch(api, `${cms}?watch=true`, { accept });
    await api.post(cms, configMap("a"));
    await api.post(cms, configMap("b"));
    const [e1, e2] = [await w.events.next(), await w.events.next()];
    assert.equal(e1.object.kind, "Table");
    assert.ok(e1.object.columnDefinitions.length > 0);
    assert.equal(e2.object.columnDefinitions, null);
    assert.equal(e2.object.rows[0].cells[0], "b");
    await w.events.close();
  }));

Deno.test("closing the server ends open watches", async () => {
  let ended: Promise<unknown> | undefined;
  await withApi(async (api) => {
    const w = await openWatch(api, `${cms}?watch=true&resourceVersion=1`);
    ended = w.events.next();
  });
  assert.equal(await ended, undefined);
});

Deno.test("a watch still in flight when the server closes does not hold the shutdown open", async () => {
  const { startApiServer } = await import("../../lib/apiserver/server.ts");
  const server = await startApiServer({ faults: { seed: 1, latencyMs: 100 } });
  const pending = fetch(`${server.url}${cms}?watch=true&resourceVersion=1`)
    .then((r) => r.text())
    .catch(() => "");
  await new Promise((r) => setTimeout(r, 20)); // the request now waits in the latency fault
  const closed = server.close().then(() => "closed");
  const timeout = new Promise((r) => setTimeout(() => r("hung"), 3000));
  const outcome = await Promise.race([closed, timeout]);
  assert.equal(outcome, "closed");
  await pending;
});
