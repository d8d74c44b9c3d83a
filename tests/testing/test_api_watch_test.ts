import assert from "node:assert/strict";
import { createTestApi } from "../../lib/testing/mod.ts";
import { cm, cmRes, recordWatch, right } from "./_test_api.ts";

Deno.test("a test API watch sees ADDED, MODIFIED and DELETED in the instant they happen", async () => {
  using api = createTestApi();
  const client = api.client();
  const w = await recordWatch(client, { resourceVersion: "0" });
  const a = right(await client.create(cm("a")));
  await api.clock.settle();
  assert.deepEqual(w.events, [`ADDED a@${a.metadata?.resourceVersion}`]);
  const a2 = right(await client.replace({ ...a, data: { k: "v" } }));
  right(await client.delete(cmRes, "a"));
  await api.clock.settle();
  assert.equal(w.events[1], `MODIFIED a@${a2.metadata?.resourceVersion}`);
  assert.match(w.events[2], /^DELETED a@\d+$/);
  assert.equal(api.clock.now(), Date.UTC(2025, 0, 1)); // no virtual time passed
});

Deno.test("a test API watch resumes from a resourceVersion, or answers 410 once history is gone", async () => {
  using api = createTestApi();
  const client = api.client();
  const a = right(await client.create(cm("a")));
  right(await client.create(cm("b")));
  const resumed = await recordWatch(client, { resourceVersion: a.metadata?.resourceVersion });
  await api.clock.settle();
  assert.deepEqual(resumed.events.map((e) => e.split("@")[0]), ["ADDED b"]);
  api.faults.compact();
  const expired = await recordWatch(client, { resourceVersion: a.metadata?.resourceVersion });
  await api.clock.settle();
  assert.deepEqual(expired.events, ["ERROR 410"]);
  assert.equal(expired.raw[0].object.reason, "Expired");
  assert.ok(expired.ended());
});

Deno.test("a test API watch sends bookmarks on virtual time and ends after timeoutSeconds", async () => {
  using api = createTestApi({ bookmarkIntervalMs: 1_000 });
  const client = api.client();
  const w = await recordWatch(client, { resourceVersion: "0", timeoutSeconds: 3 });
  await api.clock.advance(2_500);
  assert.deepEqual(w.events.map((e) => e.split("@")[0]), ["BOOKMARK ", "BOOKMARK "]);
  assert.ok(!w.ended());
  await api.clock.advance(500);
  assert.ok(w.ended());
  assert.equal(api.faults.dropWatches(), 0); // it unregistered itself
});

Deno.test("a test API watch with a selector turns objects leaving it into DELETED, joining into ADDED", async () => {
  using api = createTestApi();
  const client = api.client();
  const labelled = (app: string) => ({
    metadata: { name: "a", namespace: "default", labels: { app } },
  });
  const a = right(await client.create(cm("a", {}, labelled("web"))));
  const w = await recordWatch(client, {
    resourceVersion: a.metadata?.resourceVersion,
    labelSelector: "app=web",
  });
  const moved = right(await client.replace({ ...a, ...labelled("db") }));
  right(await client.replace({ ...moved, ...labelled("web") }));
  await api.clock.settle();
  assert.deepEqual(w.events.map((e) => e.split("@")[0]), ["DELETED a", "ADDED a"]);
});

Deno.test("a test API streaming list sends the current objects, then a bookmark marking their end", async () => {
  using api = createTestApi();
  const client = api.client();
  right(await client.create(cm("a")));
  const w = await recordWatch(client, { sendInitialEvents: true });
  await api.clock.settle();
  assert.deepEqual(w.events.map((e) => e.split("@")[0]), ["ADDED a", "BOOKMARK "]);
  assert.deepEqual(w.raw[1].object.metadata?.annotations, { "k8s.io/initial-events-end": "true" });
});

Deno.test("aborting a test API watch ends its stream and unregisters it", async () => {
  using api = createTestApi();
  const client = api.client();
  const abort = new AbortController();
  const w = await recordWatch(client, { resourceVersion: "0", signal: abort.signal });
  assert.equal(api.openWatches(), 1);
  abort.abort();
  await api.clock.settle();
  assert.ok(w.ended());
  assert.equal(api.openWatches(), 0);
});
