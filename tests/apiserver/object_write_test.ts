import assert from "node:assert/strict";
import { configMap, widgetCrd, withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";

Deno.test("create fills server fields and answers 201 with the stored object", () =>
  withApi(async (api) => {
    const r = await api.post(cms, configMap("a", { x: "1" }));
    assert.equal(r.status, 201);
    const m = r.body.metadata;
    assert.match(m.uid, /^[0-9a-f-]{36}$/);
    assert.match(m.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(m.namespace, "default");
    assert.ok(Number(m.resourceVersion) > 0);
    assert.equal(m.generation, undefined, "configmaps have no generation");
    const got = await api.get(`${cms}/a`);
    assert.deepEqual(got.body, r.body);
  }));

Deno.test("resourceVersion increases globally across resources", () =>
  withApi(async (api) => {
    const a = await api.post(cms, configMap("a"));
    const s = await api.post("/api/v1/namespaces/default/secrets", {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s" },
      stringData: { k: "v" },
    });
    assert.equal(
      Number(s.body.metadata.resourceVersion),
      Number(a.body.metadata.resourceVersion) + 1,
    );
    assert.equal(s.body.data.k, btoa("v"), "stringData is folded into data");
    assert.equal(s.body.stringData, undefined);
    assert.equal(s.body.type, "Opaque");
  }));

Deno.test("create with generateName picks a unique name with the prefix", () =>
  withApi(async (api) => {
    const r = await api.post(cms, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { generateName: "web-" },
    });
    assert.equal(r.status, 201);
    assert.match(r.body.metadata.name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(r.body.metadata.generateName, "web-");
  }));

Deno.test("create rejects existing names, bad names, missing namespaces and a set resourceVersion", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    const dup = await api.post(cms, configMap("a"));
    assert.equal(dup.status, 409);
    assert.equal(dup.body.reason, "AlreadyExists");
    assert.equal(dup.body.message, 'configmaps "a" already exists');
    const bad = await api.post(cms, configMap("Bad_Name"));
    assert.equal(bad.status, 422);
    assert.equal(bad.body.reason, "Invalid");
    assert.equal(bad.body.details.causes[0].field, "metadata.name");
    const noNs = await api.post("/api/v1/namespaces/nope/configmaps", configMap("a"));
    assert.equal(noNs.status, 404);
    assert.equal(noNs.body.message, 'namespaces "nope" not found');
    const rv = await api.post(cms, {
      ...configMap("b"),
      metadata: { name: "b", resourceVersion: "5" },
    });
    assert.equal(rv.status, 400);
    const noName = await api.post(cms, { apiVersion: "v1", kind: "ConfigMap", metadata: {} });
    assert.equal(noName.status, 422);
    assert.match(noName.body.message, /name or generateName is required/);
    const wrongKind = await api.post(cms, {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "x" },
    });
    assert.equal(wrongKind.status, 400);
    const wrongNs = await api.post(cms, {
      ...configMap("x"),
      metadata: { name: "x", namespace: "kube-system" },
    });
    assert.equal(wrongNs.status, 400);
    const labels = await api.post(cms, configMap("l", {}, { "bad key!": "v" }));
    assert.equal(labels.status, 422);
    assert.equal(labels.body.details.causes[0].field, "metadata.labels");
  }));

Deno.test("update with a stale resourceVersion gets 409 Conflict, a current one succeeds", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, configMap("a", { x: "1" }))).body;
    const ok = await api.put(`${cms}/a`, { ...a, data: { x: "2" } });
    assert.equal(ok.status, 200);
    assert.notEqual(ok.body.metadata.resourceVersion, a.metadata.resourceVersion);
    const stale = await api.put(`${cms}/a`, { ...a, data: { x: "3" } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.reason, "Conflict");
    assert.match(stale.body.message, /the object has been modified/);
    const missing = await api.put(`${cms}/zz`, configMap("zz"));
    assert.equal(missing.status, 404);
    const rename = await api.put(`${cms}/a`, {
      ...ok.body,
      metadata: { ...ok.body.metadata, name: "b" },
    });
    assert.equal(rename.status, 400);
  }));

Deno.test("a no-op update keeps the resourceVersion and emits no event", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, configMap("a", { x: "1" }))).body;
    const same = await api.put(`${cms}/a`, a);
    assert.equal(same.status, 200);
    assert.equal(same.body.metadata.resourceVersion, a.metadata.resourceVersion);
    const merge = await api.patch(`${cms}/a`, { data: { x: "1" } });
    assert.equal(merge.body.metadata.resourceVersion, a.metadata.resourceVersion);
    assert.equal(api.server.context.storage.rv, Number(a.metadata.resourceVersion));
  }));

Deno.test("server-owned metadata survives updates", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, configMap("a"))).body;
    const meta = { ...a.metadata, uid: undefined, creationTimestamp: "2000-01-01T00:00:00Z" };
    const r = await api.put(`${cms}/a`, { ...a, metadata: meta, data: { y: "1" } });
    assert.equal(r.body.metadata.uid, a.metadata.uid);
    assert.equal(r.body.metadata.creationTimestamp, a.metadata.creationTimestamp);
    const otherUid = await api.put(`${cms}/a`, {
      ...r.body,
      metadata: { ...r.body.metadata, uid: "x" },
    });
    assert.equal(otherUid.status, 409);
  }));

Deno.test("dryRun=All validates and answers without persisting", () =>
  withApi(async (api) => {
    const rv = api.server.context.storage.rv;
    const r = await api.post(`${cms}?dryRun=All`, configMap("a"));
    assert.equal(r.status, 201);
    assert.equal(r.body.metadata.resourceVersion, undefined);
    assert.equal((await api.get(`${cms}/a`)).status, 404);
    assert.equal(api.server.context.storage.rv, rv);
    const bad = await api.post(`${cms}?dryRun=Some`, configMap("a"));
    assert.equal(bad.status, 422);
  }));

Deno.test("generation counts spec changes of custom resources, not status or metadata", () =>
  withApi(async (api) => {
    await api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd());
    const base = "/apis/example.com/v1/namespaces/default/widgets";
    const w = (await api.post(base, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size: 1 },
      status: { phase: "ignored" },
    })).body;
    assert.equal(w.metadata.generation, 1);
    assert.equal(w.status, undefined, "status is dropped on create with the status subresource");
    const labelled = (await api.patch(`${base}/w`, { metadata: { labels: { a: "b" } } })).body;
    assert.equal(labelled.metadata.generation, 1);
    const resized = (await api.patch(`${base}/w`, { spec: { size: 2 } })).body;
    assert.equal(resized.metadata.generation, 2);
    const status = await api.patch(`${base}/w/status`, {
      status: { phase: "Ready" },
      spec: { size: 9 },
    });
    assert.equal(status.status, 200);
    assert.equal(status.body.status.phase, "Ready");
    assert.equal(status.body.spec.size, 2, "/status ignores everything but status");
    assert.equal(status.body.metadata.generation, 2);
    const main = (await api.patch(`${base}/w`, { status: { phase: "Lost" } })).body;
    assert.equal(main.status.phase, "Ready", "the main endpoint ignores status writes");
    const noRv = await api.put(`${base}/w`, {
      ...main,
      metadata: { ...main.metadata, resourceVersion: undefined },
    });
    assert.equal(noRv.status, 422, "custom resources require resourceVersion on PUT");
  }));

Deno.test("the scale subresource reads and writes the replicas paths", () =>
  withApi(async (api) => {
    await api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd());
    const base = "/apis/example.com/v1/namespaces/default/widgets";
    await api.post(base, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size: 1, replicas: 2 },
    });
    const scale = await api.get(`${base}/w/scale`);
    assert.equal(scale.body.kind, "Scale");
    assert.equal(scale.body.spec.replicas, 2);
    const patched = await api.patch(`${base}/w/scale`, { spec: { replicas: 5 } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.spec.replicas, 5);
    assert.equal((await api.get(`${base}/w`)).body.spec.replicas, 5);
    const negative = await api.patch(`${base}/w/scale`, { spec: { replicas: -1 } });
    assert.equal(negative.status, 422);
  }));

Deno.test("patch types: json patch, merge patch, strategic merge patch; 415 for SMP on custom resources", () =>
  withApi(async (api) => {
    const a = (await api.post(cms, configMap("a", { x: "1" }))).body;
    const jp = await api.patch(`${cms}/a`, [
      { op: "test", path: "/metadata/resourceVersion", value: a.metadata.resourceVersion },
      { op: "add", path: "/data/y", value: "2" },
    ], "application/json-patch+json");
    assert.equal(jp.status, 200);
    assert.deepEqual(jp.body.data, { x: "1", y: "2" });
    const failing = await api.patch(
      `${cms}/a`,
      [{ op: "test", path: "/data/x", value: "nope" }],
      "application/json-patch+json",
    );
    assert.equal(failing.status, 422);
    const stale = await api.patch(`${cms}/a`, {
      metadata: { resourceVersion: a.metadata.resourceVersion },
    });
    assert.equal(stale.status, 409, "a stale resourceVersion in a patch conflicts");
    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: { containers: [{ name: "a", image: "a:1" }, { name: "b", image: "b:1" }] },
    };
    await api.post("/api/v1/namespaces/default/pods", pod);
    const smp = await api.patch(
      "/api/v1/namespaces/default/pods/p",
      { spec: { containers: [{ name: "b", image: "b:2" }] } },
      "application/strategic-merge-patch+json",
    );
    assert.equal(smp.status, 200);
    assert.deepEqual(smp.body.spec.containers.map((c: { image: string }) => c.image), [
      "a:1",
      "b:2",
    ]);
    await api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd());
    await api.post("/apis/example.com/v1/namespaces/default/widgets", {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size: 1 },
    });
    const crSmp = await api.patch(
      "/apis/example.com/v1/namespaces/default/widgets/w",
      { spec: {} },
      "application/strategic-merge-patch+json",
    );
    assert.equal(crSmp.status, 415);
    const unknownType = await api.patch(`${cms}/a`, {}, "text/plain");
    assert.equal(unknownType.status, 415);
    const missing = await api.patch(`${cms}/zz`, { data: {} });
    assert.equal(missing.status, 404);
  }));

Deno.test(
  "a pod's spec is immutable but for images (and binding once)",
  () =>
    withApi(async (api) => {
      const pods = "/api/v1/namespaces/default/pods";
      await api.post(pods, {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "p" },
        spec: { containers: [{ name: "c", image: "a:1" }] },
      });
      // Strategic merge (kubectl's patch) keeps the token volume mount the ServiceAccount
      // admission added; a merge patch would replace the list and drop it, as on a real cluster.
      const smp = "application/strategic-merge-patch+json";
      const image = await api.patch(`${pods}/p`, {
        spec: { containers: [{ name: "c", image: "a:2" }] },
      }, smp);
      assert.equal(image.status, 200);
      const dropped = await api.patch(`${pods}/p`, {
        spec: { containers: [{ name: "c", image: "a:3" }] },
      });
      assert.equal(dropped.status, 422, "a merge patch drops the token mount: spec changed");
      const added = await api.patch(`${pods}/p`, {
        spec: { containers: [{ name: "c", image: "a:2" }, { name: "d", image: "d" }] },
      }, smp);
      assert.equal(added.status, 422);
      assert.match(added.body.message, /pod updates may not change fields/);
      const bind = await api.patch(`${pods}/p`, { spec: { nodeName: "n1" } });
      assert.equal(bind.status, 200);
      const rebind = await api.patch(`${pods}/p`, { spec: { nodeName: "n2" } });
      assert.equal(rebind.status, 422);
      const labels = await api.patch(`${pods}/p`, { metadata: { labels: { a: "b" } } });
      assert.equal(labels.status, 200);
    }, { serviceAccounts: true }),
);

Deno.test("pods are defaulted on every write: container defaults on create, and a PUT without them is no change", () =>
  withApi(async (api) => {
    const pods = "/api/v1/namespaces/default/pods";
    const bare = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "d" },
      spec: {
        // As the ServiceAccount admission leaves it, without a token volume: a PUT of this
        // manifest must then be no change at all.
        serviceAccountName: "default",
        automountServiceAccountToken: false,
        containers: [
          { name: "a", image: "nginx", ports: [{ containerPort: 80 }] },
          { name: "b", image: "registry.local:5000/app:1.2" },
        ],
      },
    };
    const created = (await api.post(pods, bare)).body;
    const [a, b] = created.spec.containers;
    assert.equal(a.imagePullPolicy, "Always", "no tag pulls always");
    assert.equal(b.imagePullPolicy, "IfNotPresent");
    assert.equal(a.terminationMessagePath, "/dev/termination-log");
    assert.equal(a.terminationMessagePolicy, "File");
    assert.deepEqual(a.ports, [{ containerPort: 80, protocol: "TCP" }]);
    assert.deepEqual(created.spec.securityContext, {});
    const put = await api.put(`${pods}/d`, {
      ...bare,
      metadata: { name: "d", resourceVersion: created.metadata.resourceVersion },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.metadata.resourceVersion, created.metadata.resourceVersion, "no change");
  }));
