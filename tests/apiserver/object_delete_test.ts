import assert from "node:assert/strict";
import { configMap, openWatch, withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";

Deno.test("delete with preconditions: a stale uid or resourceVersion is 409", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, configMap("a"))).body;
    const uid = await api.del(`${cms}/a`, { preconditions: { uid: "other" } });
    assert.equal(uid.status, 409);
    assert.match(uid.body.message, /Precondition failed: UID in precondition: other/);
    const rv = await api.del(`${cms}/a`, { preconditions: { resourceVersion: "1" } });
    assert.equal(rv.status, 409);
    const ok = await api.del(`${cms}/a`, {
      kind: "DeleteOptions",
      apiVersion: "v1",
      preconditions: { uid: a.metadata.uid, resourceVersion: a.metadata.resourceVersion },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.details.uid, a.metadata.uid);
    assert.equal((await api.del(`${cms}/a`)).status, 404);
  }));

Deno.test("finalizers defer deletion until they are removed; none can be added meanwhile", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, {
      ...configMap("a"),
      metadata: { name: "a", finalizers: ["example.com/cleanup"] },
    })).body;
    const w = await openWatch(
      api,
      `${cms}?watch=true&resourceVersion=${a.metadata.resourceVersion}`,
    );
    const deferred = await api.del(`${cms}/a`);
    assert.equal(deferred.status, 200);
    assert.ok(deferred.body.metadata.deletionTimestamp);
    assert.equal(deferred.body.metadata.deletionGracePeriodSeconds, 0);
    const again = await api.del(`${cms}/a`);
    assert.equal(again.status, 200, "a second delete is idempotent");
    const add = await api.patch(`${cms}/a`, {
      metadata: { finalizers: ["example.com/cleanup", "example.com/more"] },
    });
    assert.equal(add.status, 422);
    assert.match(add.body.message, /no new finalizers can be added if the object is being deleted/);
    const removed = await api.patch(
      `${cms}/a`,
      [{ op: "remove", path: "/metadata/finalizers" }],
      "application/json-patch+json",
    );
    assert.equal(removed.status, 200);
    assert.equal((await api.get(`${cms}/a`)).status, 404);
    assert.equal((await w.events.next()).type, "MODIFIED");
    assert.equal((await w.events.next()).type, "DELETED");
    await w.events.close();
  }));

Deno.test("delete options come from the query when the body is empty; bad options are rejected", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    const bad = await api.del(`${cms}/a?propagationPolicy=Sideways`);
    assert.equal(bad.status, 400);
    const dry = await api.del(`${cms}/a?dryRun=All`);
    assert.equal(dry.status, 200);
    assert.equal((await api.get(`${cms}/a`)).status, 200);
    const ok = await api.del(`${cms}/a?gracePeriodSeconds=0&propagationPolicy=Background`);
    assert.equal(ok.status, 200);
  }));

Deno.test("pods answer delete with the deleted object", () =>
  withApi(async (api) => {
    await api.post("/api/v1/namespaces/default/pods", {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "i" }] },
    });
    const r = await api.del("/api/v1/namespaces/default/pods/p?gracePeriodSeconds=0");
    assert.equal(r.body.kind, "Pod");
  }));

Deno.test("deletecollection deletes the selected objects and answers with them", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a", {}, { app: "x" }));
    await api.post(cms, configMap("b", {}, { app: "x" }));
    await api.post(cms, configMap("c", {}, { app: "y" }));
    const r = await api.del(`${cms}?labelSelector=app%3Dx`);
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, "ConfigMapList");
    assert.deepEqual(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), [
      "a",
      "b",
    ]);
    const left = await api.get(cms);
    assert.deepEqual(left.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), [
      "c",
    ]);
    assert.equal((await api.del("/api/v1/configmaps")).status, 405);
  }));
