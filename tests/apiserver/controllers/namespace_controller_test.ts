import assert from "node:assert/strict";
import { configMap, widgetCrd, withApi } from "../_api.ts";
import { pod, until } from "./_until.ts";

const nss = "/api/v1/namespaces";
const namespace = (name: string) => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name },
});

Deno.test("deleting a namespace turns it Terminating, deletes its contents, then removes it", () =>
  withApi(async (api) => {
    await api.post(nss, namespace("team"));
    await api.post(`${nss}/team/configmaps`, configMap("a"));
    await api.post(`${nss}/team/configmaps`, {
      ...configMap("held"),
      metadata: { name: "held", finalizers: ["example.com/hold"] },
    });
    await api.post(`${nss}/team/pods`, pod("p"));
    await api.post(`${nss}/default/configmaps`, configMap("elsewhere"));
    const r = await api.del(`${nss}/team`);
    assert.equal(r.status, 200);
    assert.ok(r.body.metadata.deletionTimestamp, "the namespace is kept while it has contents");
    const terminating = await until(
      api,
      nss,
      (m) => m.get("/team")?.status?.phase === "Terminating",
    );
    assert.deepEqual(terminating.get("/team").spec.finalizers, ["kubernetes"]);
    const create = await api.post(`${nss}/team/configmaps`, configMap("late"));
    assert.equal(create.status, 403);
    const held = await until(
      api,
      `${nss}/team/configmaps`,
      (m) => m.size === 1 && !!m.get("team/held")?.metadata.deletionTimestamp,
    );
    assert.equal(held.size, 1);
    assert.equal((await api.get(`${nss}/team/pods/p`)).status, 404);
    assert.equal((await api.get(`${nss}/team`)).status, 200, "a finalizer keeps it waiting");
    await api.patch(`${nss}/team/configmaps/held`, { metadata: { finalizers: null } });
    await until(api, nss, (m) => !m.has("/team"));
    assert.equal((await api.get(`${nss}/default/configmaps/elsewhere`)).status, 200);
  }));

Deno.test("an empty namespace is removed right after it turns Terminating", () =>
  withApi(async (api) => {
    await api.post(nss, namespace("empty"));
    const r = await api.del(`${nss}/empty`);
    assert.equal(r.status, 200);
    await until(api, nss, (m) => !m.has("/empty"));
  }));

Deno.test("namespace deletion also deletes custom resources in it", () =>
  withApi(async (api) => {
    await api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd());
    await until(
      api,
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      (m) =>
        m.get("/widgets.example.com")?.status?.conditions?.some((c: { type: string }) =>
          c.type === "Established"
        ),
    );
    await api.post(nss, namespace("crs"));
    const w = await api.post("/apis/example.com/v1/namespaces/crs/widgets", {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w1" },
      spec: { size: 1 },
    });
    assert.equal(w.status, 201);
    await api.del(`${nss}/crs`);
    await until(api, nss, (m) => !m.has("/crs"));
    assert.equal((await api.get("/apis/example.com/v1/namespaces/crs/widgets/w1")).status, 404);
  }));
