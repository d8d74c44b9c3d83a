import assert from "node:assert/strict";
import { createTestApi } from "../../lib/testing/mod.ts";
import { cm, cmRes, left, recordWatch, right } from "./_test_api.ts";

Deno.test("faults.conflict() fails the matching write with 409 without applying it", async () => {
  using api = createTestApi();
  const client = api.client();
  const a = right(await client.create(cm("a", { k: "1" })));
  api.faults.conflict({ verb: "update", name: "a" });
  const lost = left(await client.replace({ ...a, data: { k: "2" } }));
  assert.equal(lost.reason, "Conflict");
  assert.deepEqual(api.get(cmRes, "a")?.data, { k: "1" });
  assert.deepEqual(right(await client.replace({ ...a, data: { k: "2" } })).data, { k: "2" });
});

Deno.test("faults.throttle() answers 429 with Retry-After, which the client waits out on virtual time", async () => {
  using api = createTestApi();
  right(await api.client().create(cm("a")));
  api.faults.throttle({ verb: "get", times: 2, retryAfterSeconds: 3 });
  let got: unknown;
  api.client().get(cmRes, "a").then((r) => (got = r));
  const waited = await api.clock.advanceUntil(() => got !== undefined, { what: "the get" });
  assert.ok(waited >= 6_000, `answered after ${waited} virtual ms`);
  assert.equal(api.requestCounts()["get configmaps"], 3);
  api.faults.throttle({ verb: "get", retryAfterSeconds: 3 });
  const refused = left(await api.client({ maxRetries: 0 }).get(cmRes, "a"));
  assert.equal(refused.code, 429);
  assert.equal(refused.retryAfterSeconds, 3);
});

Deno.test("faults.gone() makes the matching watch answer 410 Expired; dropWatches() ends open ones", async () => {
  using api = createTestApi();
  const client = api.client();
  const open = await recordWatch(client, { resourceVersion: "0" });
  api.faults.gone({ resource: "configmaps" });
  const expired = await recordWatch(client, { resourceVersion: "0" });
  await api.clock.settle();
  assert.deepEqual(expired.events, ["ERROR 410"]);
  assert.equal(api.faults.dropWatches({ resource: "pods" }), 0);
  assert.equal(api.faults.dropWatches({ resource: "configmaps" }), 1);
  await api.clock.settle();
  assert.ok(open.ended());
});

Deno.test("faults.loseResponse() applies the write but answers 500", async () => {
  using api = createTestApi();
  api.faults.loseResponse({ verb: "create" });
  assert.equal(left(await api.client().create(cm("a"))).code, 500);
  assert.ok(api.get(cmRes, "a"));
});

Deno.test("faults.delay() answers late on virtual time; disconnect() fails until removed", async () => {
  using api = createTestApi();
  const client = api.client({ maxRetries: 0 });
  right(await client.create(cm("a")));
  api.faults.delay({ verb: "get", ms: 250 });
  const start = api.clock.now();
  let answeredAt = -1;
  client.get(cmRes, "a").then(() => (answeredAt = api.clock.now() - start));
  await api.clock.advance(1_000);
  assert.equal(answeredAt, 250);
  const heal = api.faults.disconnect({ userAgent: "partitioned", times: Infinity });
  const cut = api.client({ userAgent: "partitioned", maxRetries: 0 });
  const r = await cut.get(cmRes, "a");
  assert.ok(r._tag === "Left" && r.left.type === "network", "a network error");
  right(await client.get(cmRes, "a")); // another client still gets through
  heal();
  right(await cut.get(cmRes, "a"));
});

Deno.test("faults.fail() answers the given status to the matching requests only, `times` times", async () => {
  using api = createTestApi();
  const client = api.client({ maxRetries: 0 });
  right(await client.create(cm("a")));
  right(await client.create(cm("b")));
  api.faults.fail({ verb: "get", name: "b", code: 503, times: 2 });
  assert.equal(api.faults.pending(), 1);
  right(await client.get(cmRes, "a"));
  assert.equal(left(await client.get(cmRes, "b")).reason, "ServiceUnavailable");
  assert.equal(left(await client.get(cmRes, "b")).code, 503);
  right(await client.get(cmRes, "b"));
  assert.equal(api.faults.pending(), 0);
  api.faults.fail({ code: 500, times: Infinity });
  api.faults.clear();
  right(await client.get(cmRes, "a"));
});
