/**
 * `ApiServerOptions.scheduler`: the server's timers (watch `timeoutSeconds`, bookmarks) run
 * on the given scheduler, and its clock follows it, so virtual time drives both.
 */
import assert from "node:assert/strict";
import { virtualTime } from "../../lib/testing/mod.ts";
import { configMap, openWatch, withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";
const START = Date.parse("2026-01-01T00:00:00Z");

Deno.test("scheduler: the server's clock follows the scheduler when no `now` is given", async () => {
  const time = virtualTime({ startMs: START });
  await withApi(async (api) => {
    const created = await api.post(cms, configMap("a"));
    assert.equal(created.body.metadata.creationTimestamp, "2026-01-01T00:00:00Z");
    await time.advance(90_000);
    const later = await api.post(cms, configMap("b"));
    assert.equal(later.body.metadata.creationTimestamp, "2026-01-01T00:01:30Z");
  }, { scheduler: time.scheduler });
});

Deno.test("scheduler: a watch with timeoutSeconds=30 ends when virtual time passes 30 s, not before", async () => {
  const time = virtualTime({ startMs: START });
  await withApi(async (api) => {
    const rv = api.server.context.storage.rv;
    const w = await openWatch(api, `${cms}?watch=true&resourceVersion=${rv}&timeoutSeconds=30`);
    assert.equal(w.res.status, 200);
    await time.advance(29_999);
    // Still open: a change made now is delivered.
    await api.post(cms, configMap("a"));
    const e = await w.events.next();
    assert.equal(e?.type, "ADDED");
    await time.advance(1);
    // Closed at 30 s of virtual time: a change made now is not delivered.
    await api.post(cms, configMap("b"));
    assert.equal(await w.events.next(), undefined, "the stream ends at 30 s");
  }, { scheduler: time.scheduler });
});

Deno.test("scheduler: bookmarks arrive at the bookmark interval in virtual time", async () => {
  const time = virtualTime({ startMs: START });
  await withApi(async (api) => {
    const rv = api.server.context.storage.rv;
    const w = await openWatch(api, `${cms}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=1`);
    await time.advance(59_999);
    // No bookmark before the interval: the next event is the change made now.
    const a = await api.post(cms, configMap("a"));
    assert.equal((await w.events.next())?.type, "ADDED");
    await time.advance(1);
    await api.post(cms, configMap("c")); // after the bookmark, which is due now
    const first = await w.events.next();
    assert.equal(first?.type, "BOOKMARK");
    assert.equal(first.object.metadata.resourceVersion, a.body.metadata.resourceVersion);
    assert.equal((await w.events.next())?.type, "ADDED");
    await time.advance(59_999);
    await api.post(cms, configMap("b"));
    assert.equal((await w.events.next())?.type, "ADDED");
    await time.advance(1);
    await api.post(cms, configMap("d"));
    assert.equal((await w.events.next())?.type, "BOOKMARK", "again one interval later");
    assert.equal((await w.events.next())?.type, "ADDED");
    await w.events.close();
  }, { scheduler: time.scheduler });
});
