import assert from "node:assert/strict";
import { configMap, withApi } from "./_api.ts";

const cms = "/api/v1/namespaces/default/configmaps";

Deno.test("discovery: /version, /api, /apis and resource lists", () =>
  withApi(async (api) => {
    const v = await api.get("/version");
    assert.equal(v.body.major, "1");
    assert.equal(v.body.minor, "32");
    const core = await api.get("/api");
    assert.deepEqual(core.body.versions, ["v1"]);
    assert.ok(core.body.serverAddressByClientCIDRs.length > 0);
    const groups = await api.get("/apis");
    const names = groups.body.groups.map((g: { name: string }) => g.name);
    for (
      const g of ["apps", "batch", "coordination.k8s.io", "events.k8s.io", "apiextensions.k8s.io"]
    ) {
      assert.ok(names.includes(g), g);
    }
    for (const g of groups.body.groups) assert.deepEqual(g.preferredVersion, g.versions[0]);
    const v1 = await api.get("/api/v1");
    const pods = v1.body.resources.find((r: { name: string }) => r.name === "pods");
    assert.equal(pods.singularName, "pod");
    assert.equal(pods.namespaced, true);
    assert.deepEqual(pods.shortNames, ["po"]);
    assert.ok(v1.body.resources.some((r: { name: string }) => r.name === "pods/status"));
    const apps = await api.get("/apis/apps/v1");
    const scale = apps.body.resources.find((r: { name: string }) => r.name === "deployments/scale");
    assert.equal(scale.group, "autoscaling");
    assert.equal((await api.get("/apis/apps")).body.kind, "APIGroup");
    assert.equal((await api.get("/apis/nope/v1")).status, 404);
    const proto = await api.call("GET", "/openapi/v2", undefined, {
      accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
    });
    assert.equal(
      proto.headers.get("content-type"),
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
    );
  }));

Deno.test("every failure is a Status with the right reason and code", () =>
  withApi(async (api) => {
    const unknown = await api.get("/api/v1/widgets");
    assert.deepEqual([unknown.status, unknown.body.kind, unknown.body.reason], [
      404,
      "Status",
      "NotFound",
    ]);
    const malformed = await api.post(cms, "{not json");
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /not valid JSON/);
    const yaml = await api.call(
      "POST",
      cms,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n",
      {
        "content-type": "application/yaml",
      },
    );
    assert.equal(yaml.status, 201);
    const badYaml = await api.call("POST", cms, "a: [1,\n", { "content-type": "application/yaml" });
    assert.equal(badYaml.status, 400);
    const array = await api.post(cms, [1, 2]);
    assert.equal(array.status, 400);
    const huge = await api.post(cms, configMap("big", { x: "x".repeat(3 * 1024 * 1024 + 10) }));
    assert.equal(huge.status, 413);
    assert.equal(huge.body.reason, "RequestEntityTooLarge");
    const method = await api.call("PUT", cms, {});
    assert.equal(method.status, 405);
    const proto = await api.call("POST", cms, "k8s\0", {
      "content-type": "application/vnd.kubernetes.protobuf",
    });
    assert.equal(proto.status, 415);
    const badBool = await api.get(`${cms}?watch=maybe`);
    assert.equal(badBool.status, 400);
    const badPath = await api.get("/api/v1/namespaces/default/configmaps/%E0%A4%A");
    assert.equal(badPath.status, 400);
    // None of this changed state or broke the server.
    assert.equal((await api.get(cms)).body.items.length, 1);
  }));

Deno.test("Go-style booleans are accepted (Python sends watch=True)", () =>
  withApi(async (api) => {
    await api.post(cms, configMap("a"));
    const res = await fetch(`${api.server.url}${cms}?watch=True&timeoutSeconds=1`);
    const text = await res.text();
    assert.match(text, /"type":"ADDED"/);
  }));

Deno.test("requests are counted by verb and resource", () =>
  withApi(async (api) => {
    await api.get(cms);
    await api.post(cms, configMap("a"));
    await api.get(`${cms}/a`);
    const counts = api.server.requestCounts();
    assert.equal(counts["list configmaps"], 1);
    assert.equal(counts["create configmaps"], 1);
    assert.equal(counts["get configmaps"], 1);
  }));
