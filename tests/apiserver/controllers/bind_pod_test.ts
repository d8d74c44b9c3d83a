import assert from "node:assert/strict";
import { withApi } from "../_api.ts";
import { pod } from "./_until.ts";

const pods = "/api/v1/namespaces/default/pods";
const binding = (node: unknown, metadata: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Binding",
  metadata,
  target: { apiVersion: "v1", kind: "Node", name: node },
});

Deno.test("POST pods/<name>/binding sets spec.nodeName and PodScheduled, answering 201", () =>
  withApi(async (api) => {
    const before = (await api.post(pods, pod("p"))).body;
    const r = await api.post(
      `${pods}/p/binding`,
      binding("n1", { name: "p", annotations: { "example.com/a": "1" } }),
    );
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      code: 201,
    });
    const p = (await api.get(`${pods}/p`)).body;
    assert.equal(p.spec.nodeName, "n1");
    assert.equal(p.metadata.annotations["example.com/a"], "1");
    const c = p.status.conditions.find((x: { type: string }) => x.type === "PodScheduled");
    assert.equal(c.status, "True");
    assert.equal(p.status.phase, "Pending", "without a kubelet the pod does not start");
    assert.equal(
      Number(p.metadata.resourceVersion),
      Number(before.metadata.resourceVersion) + 1,
      "nodeName, annotations and PodScheduled commit together (one watch event)",
    );
    assert.deepEqual(p.metadata.managedFields, before.metadata.managedFields, "no binder entry");
  }));

Deno.test("binding an already bound pod is 409; a missing pod is 404; a target-less binding is 422", () =>
  withApi(async (api) => {
    const created = (await api.post(pods, pod("p"))).body;
    assert.equal((await api.post(`${pods}/p/binding`, binding("n1"))).status, 201);
    const again = await api.post(`${pods}/p/binding`, binding("n2"));
    assert.equal(again.status, 409);
    assert.match(again.body.message, /pod p is already assigned to node "n1"/);
    assert.equal((await api.post(`${pods}/nope/binding`, binding("n1"))).status, 404);
    await api.post(pods, pod("q"));
    const bad = await api.post(`${pods}/q/binding`, { target: {} });
    assert.equal(bad.status, 422);
    assert.match(bad.body.message, /target\.name/);
    const stale = await api.post(`${pods}/q/binding`, binding("n1", { uid: created.metadata.uid }));
    assert.equal(stale.status, 409, "a uid precondition of another pod fails");
    assert.equal((await api.get(`${pods}/q/binding`)).status, 405);
  }));
