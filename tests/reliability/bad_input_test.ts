import assert from "node:assert/strict";
import {
  connect,
  createClient,
  E,
  jsonLogger,
  type KubeObject,
  listWatch,
  loadKubeconfig,
  type WatchEvent,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { parseKubeconfig } from "../../lib/client/config/parse_kubeconfig.ts";
import { podSetCrd } from "../../controllers/podset/mod.ts";

const configMaps = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};
const obj = (name: string | undefined, rv: number) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { ...(name ? { name } : {}), namespace: "default", resourceVersion: String(rv) },
});
const line = (type: string, o: unknown) => `${JSON.stringify({ type, object: o })}\n`;

/** A fake API server whose watches send scripted (broken) streams, then hang. */
function fakeServer(watches: readonly string[]) {
  let served = 0;
  const hang = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.searchParams.get("watch") !== "true" && url.searchParams.get("watch") !== "1") {
      return Response.json({
        kind: "ConfigMapList",
        apiVersion: "v1",
        metadata: { resourceVersion: "5" },
        items: [obj("a", 3), obj(undefined, 4)],
      });
    }
    const script = watches[served++];
    const body = script === undefined
      ? new ReadableStream({ start: (c) => hang.signal.addEventListener("abort", () => c.close()) })
      : script;
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    watchCount: () => served,
    close: async () => {
      hang.abort();
      await server.shutdown();
    },
  };
}

Deno.test("listWatch survives garbage, truncated lines and nameless objects: logs, reconnects, keeps the rest", async () => {
  const fake = fakeServer([
    line("MODIFIED", obj("b", 6)) + "this is not json {\n" + line("ADDED", obj("never", 99)),
    line("ADDED", obj(undefined, 7)) + line("ADDED", obj("c", 8)) + '{"type":"ADDED","obj',
    '{"type":"WHAT","object":{}}\n',
  ]);
  const logs: string[] = [];
  const client = createClient({
    server: fake.url,
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  });
  const events: WatchEvent<KubeObject>[] = [];
  let failed: unknown;
  const sub = listWatch(client, configMaps, {
    namespace: "default",
    backoff: { initialMs: 1, maxMs: 5, jitter: 0 },
    logger: jsonLogger({ write: (l) => logs.push(l), level: "debug" }),
  }).subscribe({ next: (e) => events.push(e), error: (e) => (failed = e) });
  try {
    for (let i = 0; i < 200 && fake.watchCount() < 4; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(fake.watchCount(), 4, "re-watched after each broken stream");
    assert.equal(failed, undefined, "the observable never errors");
    const names = events.flatMap((e) =>
      e.type === "InitApply" || e.type === "Apply" ? [e.object.metadata?.name] : []
    );
    assert.deepEqual(
      names,
      ["a", "b", "c"],
      "good objects pass, the rest of a bad stream is dropped",
    );
    const entries = logs.map((l) => JSON.parse(l) as Record<string, string>);
    const warned = entries.filter((e) => e.msg === "undecodable watch line; reconnecting");
    assert.deepEqual(warned.map((e) => e.error.slice(0, 12)), [
      "not JSON (Un",
      "not JSON (Un",
      "unknown even",
    ]);
    assert.match(warned[0].error, /this is not json/, "the garbage is quoted");
    assert.ok(
      warned[1].error.endsWith(JSON.stringify('{"type":"ADDED","obj')),
      "the truncated line is quoted",
    );
    const skipped = entries.filter((e) => e.msg.startsWith("skipped an object"));
    assert.equal(skipped.length, 2);
    for (const e of skipped) {
      assert.match(e.msg, /ConfigMap without metadata\.name: .*"namespace":"default"/);
      assert.equal(e.resource, "configmaps");
    }
  } finally {
    sub.unsubscribe();
    client.close();
    await fake.close();
  }
});

Deno.test("an invalid custom resource is refused with 422 naming each field; valid ones still work", async () => {
  const server = await startApiServer();
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  try {
    assert.ok(E.isRight(await client.create(podSetCrd as unknown as KubeObject)));
    const kind = { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" };
    for (let i = 0; i < 100 && E.isLeft(await client.list(kind)); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const bad = await client.create({
      ...kind,
      metadata: { name: "bad", namespace: "default" },
      spec: { replicas: -1, template: { spec: {} } },
    });
    assert.ok(E.isLeft(bad));
    assert.equal(bad.left.type, "status");
    assert.equal((bad.left as { code?: number }).code, 422);
    assert.match(bad.left.message, /PodSet.*"bad"/);
    assert.match(bad.left.message, /spec\.replicas/);
    assert.match(bad.left.message, /spec\.selector/);
    const good = await client.create({
      ...kind,
      metadata: { name: "good", namespace: "default" },
      spec: { replicas: 1, selector: { matchLabels: { a: "b" } }, template: { spec: {} } },
    });
    assert.ok(E.isRight(good), E.isLeft(good) ? good.left.message : "");
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("an oversized request is refused with 413 and the server keeps serving", async () => {
  const server = await startApiServer();
  try {
    const big = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "big" },
      data: { blob: "x".repeat(4 * 1024 * 1024) },
    };
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(big),
    });
    const status = await res.json();
    assert.equal(res.status, 413);
    assert.equal(status.reason, "RequestEntityTooLarge");
    const after = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/big`);
    assert.equal(after.status, 404, "nothing was stored");
    await after.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test("a kubeconfig with bad YAML is refused naming the file and the line", () => {
  const r = parseKubeconfig(
    "clusters:\n  - name: c\n    cluster: {server: [\n",
    "/etc/kube/broken.yaml",
  );
  assert.ok(E.isLeft(r));
  assert.equal(r.left.type, "Parse");
  assert.match(r.left.message, /\/etc\/kube\/broken\.yaml/);
  assert.match(r.left.message, /line \d+/);
});

Deno.test("a kubeconfig without the asked context names the context and the file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config`;
  await Deno.writeTextFile(
    path,
    `clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]
contexts: [{name: dev, context: {cluster: c}}]
current-context: dev
`,
  );
  try {
    const r = await loadKubeconfig({ path, context: "prod" });
    assert.ok(E.isLeft(r));
    assert.match(r.left.message, /"?prod"?/);
    assert.match(r.left.message, new RegExp(path.replaceAll("/", "\\/")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a kubeconfig naming an unreadable client certificate names the file and the field", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/config`;
  await Deno.writeTextFile(
    path,
    `clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {client-certificate: ${dir}/missing.crt, client-key: ${dir}/missing.key}}]
contexts: [{name: dev, context: {cluster: c, user: u}}]
current-context: dev
`,
  );
  try {
    const r = await loadKubeconfig({ path });
    assert.ok(E.isLeft(r));
    assert.match(r.left.message, /user\.client-(certificate|key)/);
    assert.match(r.left.message, /missing\.(crt|key)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
