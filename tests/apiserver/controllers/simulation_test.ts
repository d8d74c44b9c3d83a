import assert from "node:assert/strict";
import { withApi } from "../_api.ts";
import { type Obj, pod, until } from "./_until.ts";

const pods = "/api/v1/namespaces/default/pods";
const fast = { simulation: { nodes: 3, podStartDelayMs: 0, kubeletDelayMs: 20 } };
const condition = (o: Obj, type: string) =>
  o.status?.conditions?.find((c: { type: string }) => c.type === type)?.status;
const running = (o: Obj | undefined) => o?.status?.phase === "Running";

Deno.test("the simulation serves N Ready nodes with addresses, capacity and full nodeInfo", () =>
  withApi(async (api) => {
    const nodes = (await api.get("/api/v1/nodes")).body.items;
    assert.deepEqual(nodes.map((n: Obj) => n.metadata.name), [
      "kubefold-node-1",
      "kubefold-node-2",
    ]);
    for (const n of nodes) {
      assert.equal(condition(n, "Ready"), "True");
      assert.equal(n.status.addresses[0].type, "InternalIP");
      assert.equal(n.status.capacity.pods, "110");
      assert.equal(Object.keys(n.status.nodeInfo).length, 10);
    }
    assert.equal(nodes[0].status.addresses[0].address, "10.0.0.11");
  }, { simulation: { nodes: 2 } }));

Deno.test("a pending pod is bound to a node, then runs with IPs, container statuses and Ready conditions", () =>
  withApi(async (api) => {
    const created = await api.post(pods, pod("web"));
    assert.equal(created.body.status.phase, "Pending");
    const state = await until(api, pods, (m) => running(m.get("default/web")));
    const p = state.get("default/web");
    assert.match(p.spec.nodeName, /^kubefold-node-\d$/);
    assert.match(p.status.podIP, /^10\.244\.\d+\.\d+$/);
    assert.deepEqual(p.status.podIPs, [{ ip: p.status.podIP }]);
    assert.match(p.status.hostIP, /^10\.0\.0\.1\d$/);
    assert.ok(p.status.startTime);
    for (const t of ["PodScheduled", "Initialized", "ContainersReady", "Ready"]) {
      assert.equal(condition(p, t), "True", t);
    }
    const [c] = p.status.containerStatuses;
    assert.equal(c.name, "app");
    assert.equal(c.image, "nginx:1.27");
    assert.match(c.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(c.containerID, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.deepEqual([c.ready, c.started, c.restartCount], [true, true, 0]);
    assert.ok(c.state.running.startedAt);
    const managers = p.metadata.managedFields.map((f: Obj) =>
      `${f.manager} ${f.operation} ${f.subresource ?? ""}`.trim()
    );
    assert.equal(managers.length, 2, "binding records no entry");
    assert.equal(managers[1], "kubelet Update status");
  }, fast));

Deno.test("the scheduler spreads pods evenly over the nodes", () =>
  withApi(async (api) => {
    for (let i = 0; i < 6; i++) await api.post(pods, pod(`p${i}`));
    const state = await until(api, pods, (m) => [...m.values()].filter(running).length === 6);
    const perNode = new Map<string, number>();
    for (const p of state.values()) {
      perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
    }
    assert.deepEqual([...perNode.values()], [2, 2, 2]);
    const ips = new Set([...state.values()].map((p) => p.status.podIP));
    assert.equal(ips.size, 6, "pod IPs are unique");
  }, fast));

Deno.test("a deleted running pod stays Terminating until its kubelet confirms, well before the grace period", () =>
  withApi(async (api) => {
    await api.post(pods, pod("p", { spec: { terminationGracePeriodSeconds: 30 } }));
    await until(api, pods, (m) => running(m.get("default/p")));
    const started = Date.now();
    const r = await api.del(`${pods}/p`);
    assert.equal(r.status, 200);
    assert.ok(r.body.metadata.deletionTimestamp);
    assert.equal(r.body.metadata.deletionGracePeriodSeconds, 30);
    assert.equal((await api.get(`${pods}/p`)).body.metadata.deletionGracePeriodSeconds, 30);
    await until(api, pods, (m) => !m.has("default/p"));
    assert.ok(Date.now() - started < 5_000);
    // The kubelet confirms after 500 ms: room for the GET above on a loaded machine.
  }, { simulation: { ...fast.simulation, kubeletDelayMs: 500 } }));

Deno.test("gracePeriodSeconds 0 removes a running pod at once", () =>
  withApi(async (api) => {
    await api.post(pods, pod("p"));
    await until(api, pods, (m) => running(m.get("default/p")));
    const r = await api.del(`${pods}/p`, { gracePeriodSeconds: 0 });
    assert.equal(r.status, 200);
    assert.equal((await api.get(`${pods}/p`)).status, 404);
  }, fast));

Deno.test("without the simulation pods stay Pending and are removed at once", () =>
  withApi(async (api) => {
    await api.post(pods, pod("p"));
    assert.equal((await api.get("/api/v1/nodes")).body.items.length, 0);
    const p = (await api.get(`${pods}/p`)).body;
    assert.equal(p.status.phase, "Pending");
    assert.equal(p.spec.nodeName, undefined);
    await api.del(`${pods}/p`);
    assert.equal((await api.get(`${pods}/p`)).status, 404);
  }));

Deno.test("a failed node fails its pods (NodeLost) and gets no new ones until restored", () =>
  withApi(async (api) => {
    await api.post(pods, pod("a"));
    const placed = await until(api, pods, (m) => running(m.get("default/a")));
    const node = placed.get("default/a").spec.nodeName;
    api.server.failNode!(node);
    const failed = await until(api, pods, (m) => m.get("default/a")?.status.phase === "Failed");
    const a = failed.get("default/a");
    assert.equal(a.status.reason, "NodeLost");
    assert.equal(condition(a, "Ready"), "False");
    const nodeNow = (await api.get(`/api/v1/nodes/${node}`)).body;
    assert.equal(condition(nodeNow, "Ready"), "Unknown");
    await api.post(pods, pod("b"));
    const pending = await until(api, pods, (m) => condition(m.get("default/b"), "PodScheduled"));
    assert.equal(condition(pending.get("default/b"), "PodScheduled"), "False");
    assert.equal(pending.get("default/b").status.conditions[0].reason, "Unschedulable");
    api.server.restoreNode!(node);
    await until(api, pods, (m) => running(m.get("default/b")));
    assert.equal((await api.del(`${pods}/a`)).status, 200);
    assert.equal((await api.get(`${pods}/a`)).status, 404, "a failed pod goes at once");
  }, { simulation: { nodes: 1, podStartDelayMs: 0, kubeletDelayMs: 20 } }));

Deno.test("a node whose Ready condition a client sets to False fails its pods", () =>
  withApi(async (api) => {
    await api.post(pods, pod("a"));
    const placed = await until(api, pods, (m) => running(m.get("default/a")));
    const node = placed.get("default/a").spec.nodeName;
    const n = (await api.get(`/api/v1/nodes/${node}`)).body;
    const conditions = n.status.conditions.map((c: Obj) =>
      c.type === "Ready" ? { ...c, status: "False", reason: "Test" } : c
    );
    const r = await api.patch(`/api/v1/nodes/${node}/status`, { status: { conditions } });
    assert.equal(r.status, 200);
    await until(api, pods, (m) => m.get("default/a")?.status.phase === "Failed");
  }, { simulation: { nodes: 1, podStartDelayMs: 0 } }));

Deno.test("pods with a node selector no node matches stay Pending as Unschedulable", () =>
  withApi(async (api) => {
    await api.post(pods, pod("p", { spec: { nodeSelector: { disk: "ssd" } } }));
    const s = await until(api, pods, (m) => !!condition(m.get("default/p"), "PodScheduled"));
    const p = s.get("default/p");
    assert.equal(p.spec.nodeName, undefined);
    assert.equal(condition(p, "PodScheduled"), "False");
  }, fast));

Deno.test("closing the server cancels pending kubelet timers", async () => {
  await withApi(async (api) => {
    await api.post(pods, pod("slow"));
    await until(api, pods, (m) => !!m.get("default/slow")?.spec.nodeName);
  }, { simulation: { podStartDelayMs: 60_000 } });
  // The test sanitizer fails this test if a timer outlived the server.
});

Deno.test("the scheduler and kubelet record Scheduled and Started events about the pod", () =>
  withApi(async (api) => {
    await api.post(pods, pod("web"));
    const events = await until(
      api,
      "/api/v1/namespaces/default/events",
      (m) => [...m.values()].some((e) => e.reason === "Started"),
    );
    const byReason = new Map([...events.values()].map((e) => [e.reason, e]));
    const scheduled = byReason.get("Scheduled");
    assert.match(scheduled.message, /^Successfully assigned default\/web to kubefold-node-\d$/);
    assert.equal(scheduled.source.component, "default-scheduler");
    assert.equal(scheduled.involvedObject.name, "web");
    const started = byReason.get("Started");
    assert.equal(started.message, "Started container app");
    assert.equal(started.involvedObject.fieldPath, "spec.containers{app}");
    assert.match(started.source.host, /^kubefold-node-\d$/);
  }, fast));

Deno.test("pods controlled by a Job run, then succeed with their containers Completed", () =>
  withApi(async (api) => {
    const job = { apiVersion: "batch/v1", kind: "Job", name: "j", uid: "j-uid", controller: true };
    // The Job does not exist, so the GC would collect its pod: the test runs without GC.
    await api.post(
      pods,
      pod("job-pod", { metadata: { ownerReferences: [job] }, spec: { restartPolicy: "Never" } }),
    );
    const s = await until(api, pods, (m) => m.get("default/job-pod")?.status.phase === "Succeeded");
    const p = s.get("default/job-pod");
    assert.equal(p.status.containerStatuses[0].state.terminated.reason, "Completed");
    assert.equal(condition(p, "Ready"), "False");
  }, { ...fast, gc: false }));
