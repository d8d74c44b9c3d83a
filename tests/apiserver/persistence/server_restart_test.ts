import assert from "node:assert/strict";
import { type ApiServerOptions, startApiServer } from "../../../lib/apiserver/mod.ts";
import { widgetCrd } from "../_api.ts";
import { tearLastRecordOf } from "./_wal_damage.ts";

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const cm = (name: string, v: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  data: { v },
});
const widgets = "/apis/example.com/v1/namespaces/default/widgets";

async function waitEstablished(url: string) {
  for (let i = 0; i < 50; i++) {
    const crd = await call(
      url,
      "GET",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
    );
    if (
      crd.body.status?.conditions?.some((c: { type: string; status: string }) =>
        c.type === "Established" && c.status === "True"
      )
    ) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("CRD not established");
}

Deno.test("a server restarted on the same data dir keeps objects, CRDs and the resourceVersion", async () => {
  const dataDir = await Deno.makeTempDir();
  const opts: ApiServerOptions = { dataDir };
  let s = await startApiServer(opts);
  assert.equal(
    (await call(s.url, "POST", "/api/v1/namespaces/default/configmaps", cm("a", "1"))).status,
    201,
  );
  assert.equal(
    (await call(s.url, "POST", "/api/v1/namespaces/default/configmaps", cm("b", "1"))).status,
    201,
  );
  assert.equal(
    (await call(s.url, "PUT", "/api/v1/namespaces/default/configmaps/a", cm("a", "2"))).status,
    200,
  );
  assert.equal(
    (await call(s.url, "DELETE", "/api/v1/namespaces/default/configmaps/b")).status,
    200,
  );
  assert.equal(
    (await call(
      s.url,
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      widgetCrd(),
    )).status,
    201,
  );
  await waitEstablished(s.url);
  const w = await call(s.url, "POST", widgets, {
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "w" },
    spec: { size: 3 },
  });
  assert.equal(w.status, 201);
  const before = await call(s.url, "GET", "/api/v1/namespaces/default/configmaps");
  const nsBefore = await call(s.url, "GET", "/api/v1/namespaces");
  const rvBefore = Number(before.body.metadata.resourceVersion);
  await s.close();

  s = await startApiServer(opts);
  try {
    const after = await call(s.url, "GET", "/api/v1/namespaces/default/configmaps");
    assert.deepEqual(after.body.items, before.body.items);
    assert.equal(after.body.metadata.resourceVersion, String(rvBefore), "no write at start");
    assert.deepEqual(
      (await call(s.url, "GET", "/api/v1/namespaces")).body.items,
      nsBefore.body.items,
    );
    const wAfter = await call(s.url, "GET", `${widgets}/w`);
    assert.equal(wAfter.status, 200, "custom resources are served again");
    assert.deepEqual(wAfter.body, w.body);
    const c = await call(s.url, "POST", "/api/v1/namespaces/default/configmaps", cm("c", "1"));
    assert.equal(Number(c.body.metadata.resourceVersion), rvBefore + 1, "the counter goes on");
    const stale = await fetch(
      `${s.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rvBefore - 1}`,
    );
    const text = await stale.text();
    assert.match(text, /"code":410/, "history before the restart is gone");
  } finally {
    await s.close();
  }
});

Deno.test("a second server on a data dir in use fails to start with a clear error", async () => {
  const dataDir = await Deno.makeTempDir();
  const s = await startApiServer({ dataDir });
  try {
    await assert.rejects(startApiServer({ dataDir }), /data dir .* is in use by another server/);
  } finally {
    await s.close();
  }
});

Deno.test("startApiServer() warns through the logger when it drops a torn last record", async () => {
  const dataDir = await Deno.makeTempDir();
  let s = await startApiServer({ dataDir });
  await call(s.url, "POST", "/api/v1/namespaces/default/configmaps", cm("a", "1"));
  await call(s.url, "POST", "/api/v1/namespaces/default/configmaps", cm("b", "1".repeat(1500)));
  await s.close();
  await tearLastRecordOf(`${dataDir}/wal.log`);
  const warnings: string[] = [];
  s = await startApiServer({ dataDir, logger: { warn: (m) => void warnings.push(m) } });
  try {
    assert.deepEqual(warnings, ["dropped a torn last record of the write-ahead log"]);
    assert.equal((await call(s.url, "GET", "/api/v1/namespaces/default/configmaps/a")).status, 200);
    assert.equal((await call(s.url, "GET", "/api/v1/namespaces/default/configmaps/b")).status, 404);
  } finally {
    await s.close();
  }
});
