/**
 * ResourceQuota in the server, on the server's clock: a pod deleted past its grace period
 * frees its quota (admission and `status.used`), a claim's resize and a service's change of
 * type are checked when they commit (status writes are not), and storage-class quotas count
 * the claims of their class.
 */
import assert from "node:assert/strict";
import { virtualTime } from "../../../lib/testing/mod.ts";
import { watchReader, withApi } from "../_api.ts";

const ns = "/api/v1/namespaces/default";
const GOLD = "gold.storageclass.storage.k8s.io";

Deno.test("quota: a pod deleted past its grace period stops counting, on the server's clock", async () => {
  let clock = Date.parse("2026-01-01T00:00:00Z");
  await withApi(async (api) => {
    const quota = { metadata: { name: "q" }, spec: { hard: { pods: "1" } } };
    assert.equal((await api.post(`${ns}/resourcequotas`, quota)).status, 201);
    const pod = (name: string) => ({
      metadata: { name, finalizers: ["example.com/hold"] },
      spec: { containers: [{ name: "c", image: "i" }] },
    });
    assert.equal((await api.post(`${ns}/pods`, pod("p1"))).status, 201);
    const deleted = await api.del(`${ns}/pods/p1`);
    assert.equal(deleted.body.metadata.deletionGracePeriodSeconds, 0);
    // Deleted, but not yet past deletionTimestamp + grace: still counted.
    const early = await api.post(`${ns}/pods`, pod("p2"));
    assert.equal(early.status, 403);
    assert.equal(
      early.body.message,
      'pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
    );
    clock += 1000;
    assert.equal((await api.post(`${ns}/pods`, pod("p2"))).status, 201);
    const q = await api.get(`${ns}/resourcequotas/q`);
    assert.deepEqual(q.body.status.used, { pods: "1" });
  }, { now: () => clock });
});

Deno.test("quota: status.used drops when a deleted pod's grace period runs out, with no write", async () => {
  const time = virtualTime({ startMs: Date.parse("2026-01-01T00:00:00Z") });
  await withApi(async (api) => {
    const quota = { metadata: { name: "q" }, spec: { hard: { pods: "2" } } };
    assert.equal((await api.post(`${ns}/resourcequotas`, quota)).status, 201);
    const pod = {
      metadata: { name: "p", finalizers: ["example.com/hold"] },
      spec: { containers: [{ name: "c", image: "i" }] },
    };
    assert.equal((await api.post(`${ns}/pods`, pod)).status, 201);
    assert.equal((await api.del(`${ns}/pods/p`)).status, 200);
    const q = await api.get(`${ns}/resourcequotas/q`);
    assert.equal(q.body.status.used.pods, "1");
    const res = await fetch(
      `${api.server.url}${ns}/resourcequotas?watch=1&resourceVersion=${q.body.metadata.resourceVersion}`,
    );
    const events = watchReader(res);
    // The grace period (0 s, no kubelet) ends 1 ms after the whole-second deletionTimestamp:
    // the controller's wake-up runs on the server's scheduler, when virtual time gets there.
    const used = () =>
      api.server.context.storage.list("/resourcequotas", "default")[0].object.status;
    time.advanceBy(1);
    await Promise.resolve(); // the controller's sync (a microtask), no real time
    // deno-lint-ignore no-explicit-any
    assert.equal((used() as any)?.used?.pods, "0");
    const event = await events.next();
    assert.equal(event?.type, "MODIFIED");
    assert.equal(event.object.status.used.pods, "0");
    assert.equal(time.now(), Date.parse("2026-01-01T00:00:00.001Z"));
    await events.close();
  }, { scheduler: time.scheduler });
});

Deno.test("quota: a claim's resize is charged its growth, per storage class too; status writes are not checked", async () => {
  await withApi(async (api) => {
    const hard = { "requests.storage": "10Gi", [`${GOLD}/requests.storage`]: "3Gi" };
    const quota = { metadata: { name: "q" }, spec: { hard } };
    assert.equal((await api.post(`${ns}/resourcequotas`, quota)).status, 201);
    const claim = (name: string, storage: string, cls?: string) => ({
      metadata: { name },
      spec: {
        accessModes: ["ReadWriteOnce"],
        ...(cls ? { storageClassName: cls } : {}),
        resources: { requests: { storage } },
      },
    });
    // A class that allows expansion: PersistentVolumeClaimResize runs before ResourceQuota.
    const std = { metadata: { name: "std" }, provisioner: "example.com/disk" };
    const sc = await api.post("/apis/storage.k8s.io/v1/storageclasses", {
      ...std,
      allowVolumeExpansion: true,
    });
    assert.equal(sc.status, 201);
    const c = await api.post(`${ns}/persistentvolumeclaims`, claim("c", "5Gi", "std"));
    assert.equal(c.status, 201);
    const bound = await api.patch(`${ns}/persistentvolumeclaims/c/status`, {
      status: { phase: "Bound" },
    });
    assert.equal(bound.status, 200);
    const resize = (storage: string) =>
      api.patch(`${ns}/persistentvolumeclaims/c`, {
        spec: { resources: { requests: { storage } } },
      });
    const over = await resize("12Gi");
    assert.equal(over.status, 403);
    assert.equal(
      over.body.message,
      'persistentvolumeclaims "c" is forbidden: exceeded quota: q, requested: requests.storage=7Gi, used: requests.storage=5Gi, limited: requests.storage=10Gi',
    );
    assert.deepEqual(over.body.details, { name: "c", kind: "persistentvolumeclaims" });
    assert.equal((await resize("10Gi")).status, 200);
    // The status subresource is not checked (kube's plugin skips subresources).
    const allocated = await api.patch(`${ns}/persistentvolumeclaims/c/status`, {
      status: { allocatedResources: { storage: "11Gi" } },
    });
    assert.equal(allocated.status, 200);
    const q = await api.get(`${ns}/resourcequotas/q`);
    assert.equal(q.body.status.used["requests.storage"], "11Gi");

    const gold = await api.post(`${ns}/persistentvolumeclaims`, claim("g", "4Gi", "gold"));
    assert.equal(gold.status, 403);
    assert.equal(
      gold.body.message,
      `persistentvolumeclaims "g" is forbidden: exceeded quota: q, requested: ${GOLD}/requests.storage=4Gi,requests.storage=4Gi, used: ${GOLD}/requests.storage=0,requests.storage=11Gi, limited: ${GOLD}/requests.storage=3Gi,requests.storage=10Gi`,
    );
  });
});

Deno.test("quota: a service switched to NodePort is charged its node ports", async () => {
  await withApi(async (api) => {
    const hard = { "services.nodeports": "1", "services.loadbalancers": "0" };
    const quota = { metadata: { name: "q" }, spec: { hard } };
    assert.equal((await api.post(`${ns}/resourcequotas`, quota)).status, 201);
    const svc = {
      metadata: { name: "s" },
      spec: { ports: [{ name: "a", port: 80 }, { name: "b", port: 81 }] },
    };
    assert.equal((await api.post(`${ns}/services`, svc)).status, 201);
    const np = await api.patch(`${ns}/services/s`, { spec: { type: "NodePort" } });
    assert.equal(np.status, 403);
    assert.equal(
      np.body.message,
      'services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
    const lb = await api.patch(`${ns}/services/s`, { spec: { type: "LoadBalancer" } });
    assert.equal(lb.status, 403);
    assert.match(lb.body.message, /requested: services.loadbalancers=1,services.nodeports=2,/);
    // Other updates of the service (no growth) pass.
    const labelled = await api.patch(`${ns}/services/s`, { metadata: { labels: { a: "b" } } });
    assert.equal(labelled.status, 200);
  });
});
