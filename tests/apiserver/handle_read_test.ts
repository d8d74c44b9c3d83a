import assert from "node:assert/strict";
import { configMap, withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";

Deno.test("list answers a typed list with the current resourceVersion, items in key order", () =>
  withApi(async (api) => {
    for (const n of ["c", "a", "b"]) await api.post(cms, configMap(n));
    const r = await api.get(cms);
    assert.equal(r.body.kind, "ConfigMapList");
    assert.equal(r.body.apiVersion, "v1");
    assert.equal(r.body.metadata.resourceVersion, String(api.server.context.storage.rv));
    assert.deepEqual(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), [
      "a",
      "b",
      "c",
    ]);
    const empty = await api.get("/api/v1/namespaces/kube-system/configmaps");
    assert.deepEqual(empty.body.items, []);
    const all = await api.get("/api/v1/configmaps");
    assert.equal(all.body.items.length, 3);
  }));

Deno.test("label selectors support every operator; malformed ones are 400", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a", {}, { app: "web", tier: "fe" }));
    await api.post(cms, configMap("b", {}, { app: "web", tier: "be" }));
    await api.post(cms, configMap("c", {}, { app: "db" }));
    const names = async (sel: string) =>
      (await api.get(`${cms}?labelSelector=${encodeURIComponent(sel)}`)).body.items.map((
        i: { metadata: { name: string } },
      ) => i.metadata.name);
    assert.deepEqual(await names("app=web"), ["a", "b"]);
    assert.deepEqual(await names("app==db"), ["c"]);
    assert.deepEqual(await names("app!=web"), ["c"]);
    assert.deepEqual(await names("tier in (fe, x)"), ["a"]);
    assert.deepEqual(await names("tier notin (fe)"), ["b", "c"]);
    assert.deepEqual(await names("tier"), ["a", "b"]);
    assert.deepEqual(await names("!tier"), ["c"]);
    assert.deepEqual(await names("app=web,tier=be"), ["b"]);
    const bad = await api.get(`${cms}?labelSelector=${encodeURIComponent("app in (")}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.reason, "BadRequest");
  }));

Deno.test("field selectors: metadata fields everywhere, pod fields, unknown fields are 400", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    await api.post(cms, configMap("b"));
    const byName = await api.get(`${cms}?fieldSelector=metadata.name%3Da`);
    assert.deepEqual(
      byName.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ["a"],
    );
    const notName = await api.get(`${cms}?fieldSelector=metadata.name!%3Da`);
    assert.equal(notName.body.items.length, 1);
    const pod = (name: string, nodeName?: string) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: "c", image: "i" }] },
    });
    await api.post("/api/v1/namespaces/default/pods", pod("p1", "n1"));
    await api.post("/api/v1/namespaces/default/pods", pod("p2"));
    const onNode = await api.get("/api/v1/pods?fieldSelector=spec.nodeName%3Dn1");
    assert.deepEqual(
      onNode.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ["p1"],
    );
    const pending = await api.get("/api/v1/pods?fieldSelector=status.phase%3DPending");
    assert.equal(pending.body.items.length, 2);
    const unknown = await api.get(`${cms}?fieldSelector=spec.foo%3Dx`);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /"spec.foo" is not a known field selector/);
  }));

Deno.test("pagination serves a consistent snapshot across pages despite concurrent writes", () =>
  withApi(async (api) => {
    for (let i = 0; i < 5; i++) await api.post(cms, configMap(`c${i}`, { v: "0" }));
    const first = await api.get(`${cms}?limit=2`);
    assert.equal(first.body.items.length, 2);
    assert.ok(first.body.metadata.continue);
    const rv = first.body.metadata.resourceVersion;
    // Changes after the first page must not show in later pages.
    await api.del(`${cms}/c3`);
    await api.patch(`${cms}/c2`, { data: { v: "1" } });
    await api.post(cms, configMap("c9"));
    const second = await api.get(
      `${cms}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`,
    );
    assert.equal(second.body.metadata.resourceVersion, rv);
    const third = await api.get(
      `${cms}?limit=2&continue=${encodeURIComponent(second.body.metadata.continue)}`,
    );
    assert.equal(third.body.metadata.continue, undefined);
    const all = [...first.body.items, ...second.body.items, ...third.body.items];
    assert.deepEqual(all.map((i) => i.metadata.name), ["c0", "c1", "c2", "c3", "c4"]);
    assert.equal(all[2].data.v, "0");
  }));

Deno.test("an expired continue token or exact resourceVersion is 410 Expired", () =>
  withApi(async (api) => {
    for (let i = 0; i < 3; i++) await api.post(cms, configMap(`c${i}`));
    const first = await api.get(`${cms}?limit=1`);
    await api.post(cms, configMap("later"));
    api.server.compactHistory();
    const next = await api.get(
      `${cms}?limit=1&continue=${encodeURIComponent(first.body.metadata.continue)}`,
    );
    assert.equal(next.status, 410);
    assert.equal(next.body.reason, "Expired");
    const exact = await api.get(`${cms}?resourceVersion=3&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410);
    const bogus = await api.get(`${cms}?limit=1&continue=garbage`);
    assert.equal(bogus.status, 400);
  }, { historySize: 100 }));

Deno.test("resourceVersion parameters: non-numeric is 400, future is 504 Too large", () =>
  withApi(async (api) => {
    const bad = await api.get(`${cms}?resourceVersion=abc`);
    assert.equal(bad.status, 400);
    const future = await api.get(`${cms}?resourceVersion=999999`);
    assert.equal(future.status, 504);
    assert.equal(future.body.details.causes[0].reason, "ResourceVersionTooLarge");
    const zero = await api.get(`${cms}?resourceVersion=0`);
    assert.equal(zero.status, 200);
    const notOlder = await api.get(`${cms}?resourceVersion=1&resourceVersionMatch=NotOlderThan`);
    assert.equal(notOlder.status, 200);
    assert.equal((await api.get(`${cms}?resourceVersionMatch=Exact`)).status, 422);
  }));

Deno.test("Table output for kubectl get: columns, rows with partial metadata, pod columns", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a", { x: "1", y: "2" }));
    const accept =
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
    const t = await api.call("GET", cms, undefined, { accept });
    assert.equal(t.body.kind, "Table");
    assert.deepEqual(t.body.columnDefinitions.map((c: { name: string }) => c.name), [
      "Name",
      "Data",
      "Age",
    ]);
    assert.deepEqual(t.body.rows[0].cells.slice(0, 2), ["a", 2]);
    assert.equal(t.body.rows[0].object.kind, "PartialObjectMetadata");
    assert.equal(t.body.rows[0].object.metadata.namespace, "default");
    await api.post("/api/v1/namespaces/default/pods", {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "i" }] },
    });
    const pods = await api.call("GET", "/api/v1/namespaces/default/pods/p", undefined, { accept });
    const cols = pods.body.columnDefinitions.map((c: { name: string }) => c.name);
    assert.deepEqual(cols, [
      "Name",
      "Ready",
      "Status",
      "Restarts",
      "Age",
      "IP",
      "Node",
      "Nominated Node",
      "Readiness Gates",
    ]);
    assert.deepEqual(pods.body.rows[0].cells.slice(0, 4), ["p", "0/1", "Pending", "0"]);
    const yaml = await api.call("GET", `${cms}/a`, undefined, { accept: "application/yaml" });
    assert.match(String(yaml.body), /name: a/);
    const nope = await api.call("GET", cms, undefined, {
      accept: "application/vnd.kubernetes.protobuf",
    });
    assert.equal(nope.status, 406);
  }));

Deno.test("Tables of Deployments and ReplicaSets have kubectl's columns", () =>
  withApi(async (api) => {
    const accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    const spec = {
      replicas: 2,
      selector: { matchLabels: { a: "b" } },
      template: {
        metadata: { labels: { a: "b" } },
        spec: { containers: [{ name: "c", image: "i" }] },
      },
    };
    for (const [plural, kind] of [["deployments", "Deployment"], ["replicasets", "ReplicaSet"]]) {
      const path = `/apis/apps/v1/namespaces/default/${plural}`;
      await api.post(path, { apiVersion: "apps/v1", kind, metadata: { name: "w" }, spec });
      await api.call("PATCH", `${path}/w/status`, {
        status: { replicas: 2, readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
      }, { "content-type": "application/merge-patch+json" });
      const t = await api.call("GET", path, undefined, { accept });
      const names = t.body.columnDefinitions.map((c: { name: string }) => c.name);
      const cells = t.body.rows[0].cells.slice(0, 4);
      if (kind === "Deployment") {
        assert.deepEqual(names.slice(0, 4), ["Name", "Ready", "Up-to-date", "Available"]);
        assert.deepEqual(cells, ["w", "1/2", 2, 1]);
      } else {
        assert.deepEqual(names.slice(0, 4), ["Name", "Desired", "Current", "Ready"]);
        assert.deepEqual(cells, ["w", 2, 2, 1]);
      }
    }
  }));

Deno.test("a Deployment is created with kube-apiserver's defaults (replicas, strategy, history, pod template)", () =>
  withApi(async (api) => {
    const path = "/apis/apps/v1/namespaces/default/deployments";
    const created = await api.post(path, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "d" },
      spec: {
        selector: { matchLabels: { a: "b" } },
        template: {
          metadata: { labels: { a: "b" } },
          spec: { containers: [{ name: "c", image: "i" }] },
        },
      },
    });
    assert.equal(created.status, 201);
    const spec = created.body.spec;
    assert.equal(spec.replicas, 1);
    assert.deepEqual(spec.strategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
    });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.progressDeadlineSeconds, 600);
    assert.equal(spec.template.spec.restartPolicy, "Always");
    assert.equal(spec.template.spec.dnsPolicy, "ClusterFirst");
    const recreate = await api.post(path, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "r" },
      spec: { ...spec, replicas: 0, strategy: { type: "Recreate" } },
    });
    assert.equal(recreate.body.spec.replicas, 0, "an explicit 0 stays");
    assert.deepEqual(recreate.body.spec.strategy, { type: "Recreate" });
  }));
