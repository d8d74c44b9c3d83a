/**
 * Metadata-only answers (`PartialObjectMetadata`), as client-go's metadata client and
 * controller-runtime's metadata-only watches ask for them: GET, LIST and WATCH, the list and
 * object forms, and kube-apiserver's 406 when the form does not fit.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

const object = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const list = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
const cm = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "a", namespace: "default", labels: { app: "x" } },
  data: { big: "x".repeat(1000) },
};

/** Reads the first `n` lines of a watch stream. */
async function lines(res: Response, n: number): Promise<Record<string, unknown>[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (text.split("\n").length <= n) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  await reader.cancel();
  return text.split("\n").slice(0, n).map((l) => JSON.parse(l));
}

/** The same checks against a base URL and a fetch. */
async function checks(base: string, fetchFn: typeof fetch) {
  const post = await fetchFn(`${base}/api/v1/namespaces/default/configmaps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(cm),
  });
  assert.equal(post.status, 201);
  await post.body?.cancel();
  const path = `${base}/api/v1/namespaces/default/configmaps`;

  const got = await (await fetchFn(`${path}/a`, { headers: { accept: object } })).json();
  assert.deepEqual(Object.keys(got).sort(), ["apiVersion", "kind", "metadata"]);
  assert.equal(got.kind, "PartialObjectMetadata");
  assert.equal(got.apiVersion, "meta.k8s.io/v1");
  assert.equal(got.metadata.labels.app, "x");

  const listed = await (await fetchFn(path, { headers: { accept: list } })).json();
  assert.equal(listed.kind, "PartialObjectMetadataList");
  assert.equal(listed.apiVersion, "meta.k8s.io/v1");
  assert.ok(listed.metadata.resourceVersion);
  assert.deepEqual(
    listed.items.map((i: { kind: string; metadata: { name: string } }) => [
      i.kind,
      i.metadata.name,
    ]),
    [["PartialObjectMetadata", "a"]],
  );
  assert.equal(JSON.stringify(listed).includes("xxxx"), false, "no data in a metadata list");

  // The forms that do not fit the answer are refused, as kube-apiserver does.
  const wrongList = await fetchFn(path, { headers: { accept: object } });
  assert.equal(wrongList.status, 406);
  assert.match((await wrongList.json()).message, /you requested PartialObjectMetadata, but/);
  const wrongGet = await fetchFn(`${path}/a`, { headers: { accept: list } });
  assert.equal(wrongGet.status, 406);
  await wrongGet.body?.cancel();

  // A watch sends each object as PartialObjectMetadata, for either form.
  for (const accept of [object, list]) {
    const watch = await fetchFn(`${path}?watch=1&resourceVersion=0`, { headers: { accept } });
    const [first] = await lines(watch, 1);
    const o = first.object as { kind: string; apiVersion: string; metadata: { name: string } };
    assert.equal(first.type, "ADDED");
    assert.deepEqual([o.kind, o.apiVersion, o.metadata.name], [
      "PartialObjectMetadata",
      "meta.k8s.io/v1",
      "a",
    ]);
    assert.equal(JSON.stringify(first).includes("xxxx"), false);
  }
}

Deno.test("the embedded server answers metadata-only GET, LIST and WATCH as kube-apiserver does", async () => {
  // The same checks run on the test API, which publishes no kube-root-ca.crt ConfigMaps.
  const server = await startApiServer({ serviceAccounts: false });
  try {
    await checks(server.url, fetch);
  } finally {
    await server.close();
  }
});

Deno.test("the test API answers metadata-only requests too", async () => {
  using api = createTestApi();
  await checks("http://test-api.invalid", api.fetch);
});
