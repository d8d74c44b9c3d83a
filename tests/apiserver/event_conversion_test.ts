import assert from "node:assert/strict";
import { openWatch, withApi } from "./_api.ts";

const newEvents = "/apis/events.k8s.io/v1/namespaces/default/events";
const coreEvents = "/api/v1/namespaces/default/events";

Deno.test("events.k8s.io/v1 and core/v1 Events share one storage, converted both ways", () =>
  withApi(async (api) => {
    const w = await openWatch(api, `${newEvents}?watch=true`);
    const created = await api.post(newEvents, {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: "e1" },
      eventTime: "2026-01-01T00:00:00.000000Z",
      reportingController: "kubefold-demo",
      reportingInstance: "i1",
      action: "Create",
      reason: "Created",
      type: "Normal",
      note: "made a pod",
      regarding: { apiVersion: "v1", kind: "Pod", name: "p", namespace: "default" },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.apiVersion, "events.k8s.io/v1");
    assert.equal(created.body.note, "made a pod");
    const core = await api.get(`${coreEvents}/e1`);
    assert.equal(core.body.apiVersion, "v1");
    assert.equal(core.body.message, "made a pod");
    assert.equal(core.body.involvedObject.name, "p");
    assert.equal(core.body.reportingComponent, "kubefold-demo");
    const listed = await api.get(coreEvents);
    assert.equal(listed.body.items.length, 1);
    const patched = await api.patch(`${newEvents}/e1`, {
      series: { count: 2, lastObservedTime: "2026-01-01T00:00:01.000000Z" },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.series.count, 2);
    assert.equal(patched.body.note, "made a pod");
    const e1 = await w.events.next();
    const e2 = await w.events.next();
    assert.deepEqual([e1.type, e1.object.apiVersion, e1.object.note], [
      "ADDED",
      "events.k8s.io/v1",
      "made a pod",
    ]);
    assert.equal(e2.type, "MODIFIED");
    await w.events.close();
    const fromCore = await api.post(coreEvents, {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "e2" },
      involvedObject: { kind: "Pod", name: "q", namespace: "default" },
      reason: "Pulled",
      message: "pulled an image",
      type: "Normal",
    });
    assert.equal(fromCore.status, 201);
    const asNew = await api.get(`${newEvents}/e2`);
    assert.equal(asNew.body.note, "pulled an image");
    assert.equal(asNew.body.regarding.name, "q");
  }));
