import assert from "node:assert/strict";
import { withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";
const applyType = "application/apply-patch+yaml";
const cm = (data: Record<string, string>) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "demo", namespace: "default" },
  data,
});

Deno.test("server-side apply creates, records ownership, conflicts with another writer, and force takes over", () =>
  withApi(async (api) => {
    const created = await api.patch(
      `${cms}/demo?fieldManager=kubectl&force=false`,
      cm({ a: "1" }),
      applyType,
    );
    assert.equal(created.status, 201);
    const mf = created.body.metadata.managedFields;
    assert.equal(mf.length, 1);
    assert.equal(mf[0].manager, "kubectl");
    assert.equal(mf[0].operation, "Apply");
    assert.deepEqual(mf[0].fieldsV1, { "f:data": { "f:a": {} } });
    const put = await api.call("PUT", `${cms}/demo?fieldManager=ctrl`, {
      ...created.body,
      data: { a: "2" },
    });
    assert.equal(put.status, 200);
    assert.ok(
      put.body.metadata.managedFields.some((m: { manager: string; operation: string }) =>
        m.manager === "ctrl" && m.operation === "Update"
      ),
    );
    const clash = await api.patch(
      `${cms}/demo?fieldManager=kubectl&force=false`,
      cm({ a: "1" }),
      applyType,
    );
    assert.equal(clash.status, 409);
    assert.equal(clash.body.reason, "Conflict");
    assert.match(
      clash.body.message,
      /Apply failed with 1 conflict: conflict with "ctrl" using v1: \.data\.a/,
    );
    assert.equal(clash.body.details.causes[0].reason, "FieldManagerConflict");
    const forced = await api.patch(
      `${cms}/demo?fieldManager=kubectl&force=true`,
      cm({ a: "1" }),
      applyType,
    );
    assert.equal(forced.status, 200);
    assert.equal(forced.body.data.a, "1");
    const again = await api.patch(`${cms}/demo?fieldManager=kubectl`, cm({ a: "1" }), applyType);
    assert.equal(
      again.body.metadata.resourceVersion,
      forced.body.metadata.resourceVersion,
      "re-apply is a no-op",
    );
  }));

Deno.test("a field the manager stops applying is removed unless another manager owns it", () =>
  withApi(async (api) => {
    await api.patch(`${cms}/demo?fieldManager=a`, cm({ x: "1", y: "2" }), applyType);
    await api.patch(`${cms}/demo?fieldManager=b`, cm({ y: "2" }), applyType);
    const r = await api.patch(`${cms}/demo?fieldManager=a`, cm({}), applyType);
    assert.deepEqual(r.body.data, { y: "2" });
  }));

Deno.test("apply needs a fieldManager; force is only for apply", () =>
  withApi(async (api) => {
    const noManager = await api.patch(`${cms}/demo`, cm({ a: "1" }), applyType);
    assert.equal(noManager.status, 422);
    assert.match(noManager.body.message, /fieldManager: Required value/);
    await api.post(cms, cm({ a: "1" }));
    const force = await api.patch(`${cms}/demo?force=true`, { data: { a: "2" } });
    assert.equal(force.status, 422);
    const yaml = await api.call(
      "PATCH",
      `${cms}/demo?fieldManager=y`,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  b: '2'\n",
      { "content-type": applyType },
    );
    assert.equal(yaml.status, 200);
    assert.equal(yaml.body.data.b, "2");
  }));

Deno.test("apply merges containers by name, each owned by its manager", () =>
  withApi(async (api) => {
    const deploy = (containers: { name: string; image: string }[]) => ({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d", namespace: "default" },
      spec: {
        selector: { matchLabels: { app: "d" } },
        template: { metadata: { labels: { app: "d" } }, spec: { containers } },
      },
    });
    const path = "/apis/apps/v1/namespaces/default/deployments/d";
    await api.patch(`${path}?fieldManager=a`, deploy([{ name: "a", image: "a:1" }]), applyType);
    const both = await api.patch(
      `${path}?fieldManager=b`,
      deploy([{ name: "b", image: "b:1" }]),
      applyType,
    );
    const names = (
      r: { body: { spec: { template: { spec: { containers: { name: string }[] } } } } },
    ) => r.body.spec.template.spec.containers.map((c) => c.name).sort();
    assert.deepEqual(names(both), ["a", "b"]);
    const dropA = await api.patch(`${path}?fieldManager=a`, deploy([]), applyType);
    assert.deepEqual(names(dropA), ["b"]);
  }));
