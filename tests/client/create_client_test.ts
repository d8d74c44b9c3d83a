import assert from "node:assert/strict";
import {
  connect,
  createClient,
  createRequestBudget,
  E,
  isAlreadyExists,
  isConflict,
  isNotFound,
  type KubeObject,
  Secret,
} from "../../mod.ts";
import { serverAndClient } from "./_server.ts";

const cm = { apiVersion: "v1", kind: "ConfigMap" } as const;
const configMap = (name: string, data: Record<string, string> = {}): KubeObject => ({
  ...cm,
  metadata: { name },
  data,
});

Deno.test("list() follows continue tokens (limit 2 over 5 objects) and listPage() returns one page", async () => {
  const { server, client, close } = await serverAndClient();
  for (const n of ["a", "b", "c", "d", "e"]) {
    assert.ok(E.isRight(await client.create(configMap(n))));
  }
  const all = await client.list(cm, { namespace: "default", limit: 2 });
  assert.ok(E.isRight(all));
  assert.deepEqual(all.right.items.map((o) => o.metadata?.name), ["a", "b", "c", "d", "e"]);
  assert.ok(all.right.metadata.resourceVersion);
  assert.equal(server.requestCounts()["list configmaps"], 3);
  const page = await client.listPage(cm, { namespace: "default", limit: 2 });
  assert.ok(E.isRight(page) && page.right.items.length === 2 && page.right.metadata.continue);
  await close();
});

Deno.test("create, get, replace and delete round-trip with typed errors naming the object", async () => {
  const { client, close } = await serverAndClient();
  const made = await client.create(configMap("x", { a: "1" }));
  assert.ok(E.isRight(made));
  const again = await client.create(configMap("x"));
  assert.ok(E.isLeft(again) && isAlreadyExists(again.left));
  const stale = await client.replace({
    ...made.right,
    metadata: { ...made.right.metadata, resourceVersion: "1" },
  });
  assert.ok(E.isLeft(stale) && isConflict(stale.left));
  const replaced = await client.replace({ ...made.right, data: { a: "2" } });
  assert.ok(
    E.isRight(replaced) && replaced.right.data &&
      (replaced.right.data as Record<string, string>).a === "2",
  );
  const wrongUid = await client.delete(cm, "x", { preconditions: { uid: "nope" } });
  assert.ok(E.isLeft(wrongUid) && isConflict(wrongUid.left));
  assert.ok(E.isRight(await client.delete(cm, "x", { propagationPolicy: "Background" })));
  const gone = await client.get(cm, "x");
  assert.ok(E.isLeft(gone) && isNotFound(gone.left));
  assert.match(gone.left.message, /configmaps "default\/x"/);
  await close();
});

Deno.test("patch() sends JSON, merge and strategic patches; apply() creates", async () => {
  const { client, close } = await serverAndClient();
  assert.ok(E.isRight(await client.create(configMap("p", { a: "1" }))));
  const merged = await client.patch(cm, "p", {
    patch: { type: "merge", body: { data: { b: "2" } } },
  });
  assert.ok(E.isRight(merged));
  const json = await client.patch<KubeObject>(cm, "p", {
    patch: { type: "json", operations: [{ op: "replace", path: "/data/a", value: "3" }] },
  });
  assert.ok(E.isRight(json));
  assert.deepEqual(json.right.data, { a: "3", b: "2" });
  const strategic = await client.patch<KubeObject>(cm, "p", {
    patch: { type: "strategic", body: { data: { c: "4" } } },
  });
  assert.ok(E.isRight(strategic) && (strategic.right.data as Record<string, string>).c === "4");
  const applied = await client.apply({
    ...cm,
    metadata: { name: "s", namespace: "default" },
    data: { k: "mine" },
  }, { fieldManager: "one" });
  assert.ok(E.isRight(applied));
  assert.equal((applied.right.data as Record<string, string>).k, "mine");
  await close();
});

Deno.test("replaceStatus() writes only the status subresource", async () => {
  const { client, close } = await serverAndClient();
  const ns = await client.create({
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: "team" },
  });
  assert.ok(E.isRight(ns));
  const updated = await client.replaceStatus({
    ...ns.right,
    status: { phase: "Active" },
    metadata: { ...ns.right.metadata, labels: { x: "y" } },
  });
  assert.ok(E.isRight(updated), JSON.stringify(updated));
  const got = await client.get<KubeObject>({ apiVersion: "v1", kind: "Namespace" }, "team");
  assert.ok(E.isRight(got));
  assert.equal(got.right.metadata?.labels?.x, undefined);
  await close();
});

Deno.test("connect() builds a client for the embedded server", async () => {
  const { server, close } = await serverAndClient();
  const made = await connect({ kubeconfigYaml: server.kubeconfig });
  assert.ok(E.isRight(made));
  const list = await made.right.list({ apiVersion: "v1", kind: "Namespace" });
  assert.ok(E.isRight(list) && list.right.items.length === 4);
  made.right.close();
  await close();
});

Deno.test("a 429 with Retry-After is retried after the pause, and the budget slows down", async () => {
  let calls = 0;
  const budget = createRequestBudget({ qps: 20, burst: 30 });
  const seenAuth: string[] = [];
  const fake = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    calls++;
    seenAuth.push(req.headers.get("authorization") ?? "");
    if (calls === 1) {
      return new Response("Too many requests, please try again later.", {
        status: 429,
        headers: { "retry-after": "1" },
      });
    }
    return Response.json({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } });
  });
  const client = createClient({
    server: `http://127.0.0.1:${fake.addr.port}`,
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "token", token: new Secret("s3cr3t-token") },
  }, { retryBackoff: { initialMs: 1, maxMs: 1 }, budget });
  const ref = {
    group: "",
    version: "v1",
    plural: "configmaps",
    kind: "ConfigMap",
    namespaced: true,
  };
  const t0 = Date.now();
  const got = await client.get(ref, "a");
  assert.ok(E.isRight(got));
  assert.equal(calls, 2);
  assert.ok(Date.now() - t0 >= 900, "waited for Retry-After");
  assert.ok(budget.qps < 20, `rate lowered to ${budget.qps}`);
  assert.deepEqual(seenAuth, ["Bearer s3cr3t-token", "Bearer s3cr3t-token"]);
  client.close();
  await fake.shutdown();
});

Deno.test("errors never contain the bearer token", async () => {
  const fake = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (req) =>
      Response.json(
        {
          kind: "Status",
          apiVersion: "v1",
          status: "Failure",
          reason: "Forbidden",
          code: 403,
          message: "forbidden",
          metadata: {},
        },
        { status: 403, headers: { "x-echo": req.headers.get("authorization") ?? "" } },
      ),
  );
  const client = createClient({
    server: `http://127.0.0.1:${fake.addr.port}`,
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "token", token: new Secret("s3cr3t-token") },
  });
  const got = await client.get({
    group: "",
    version: "v1",
    plural: "pods",
    kind: "Pod",
    namespaced: true,
  }, "p");
  assert.ok(E.isLeft(got));
  assert.ok(!JSON.stringify(got.left).includes("s3cr3t"));
  assert.ok(!Deno.inspect(got.left, { depth: 10 }).includes("s3cr3t"));
  client.close();
  await fake.shutdown();
});

Deno.test("a request to an unreachable server is a network error after retries", async () => {
  const client = createClient({
    server: "http://127.0.0.1:1",
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  }, { maxRetries: 2, retryBackoff: { initialMs: 1, maxMs: 2 } });
  const got = await client.get({
    group: "",
    version: "v1",
    plural: "pods",
    kind: "Pod",
    namespaced: true,
  }, "p");
  assert.ok(E.isLeft(got) && got.left.type === "network");
  assert.match(got.left.message, /^Cannot get pods "default\/p"/);
  client.close();
});

Deno.test("apply() sends an apply patch with fieldManager and force; writes send the client's field manager", async () => {
  const seen: { method: string; url: string; type: string | null; body: string }[] = [];
  const recording: typeof fetch = (input, init) => {
    seen.push({
      method: init?.method ?? "GET",
      url: String(input),
      type: new Headers(init?.headers).get("content-type"),
      body: String(init?.body ?? ""),
    });
    return Promise.resolve(
      Response.json({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "s" } }),
    );
  };
  const client = createClient({
    server: "http://k8s.invalid",
    namespace: "team",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  }, { fetch: recording, fieldManager: "my-controller" });
  const ref = {
    group: "",
    version: "v1",
    plural: "configmaps",
    kind: "ConfigMap",
    namespaced: true,
  };
  const obj = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "s" }, data: { k: "v" } };
  // Discovery answers with the same canned body; resolve explicitly through a ApiResource instead.
  assert.ok(
    E.isRight(
      await client.patch(ref, "s", {
        patch: { type: "merge", body: { data: null } },
        dryRun: true,
      }),
    ),
  );
  const viaRef = createClient({
    server: "http://k8s.invalid",
    namespace: "team",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  }, {
    fetch: (input, init) =>
      String(input).endsWith("/api/v1")
        ? Promise.resolve(
          Response.json({
            resources: [{ name: "configmaps", kind: "ConfigMap", namespaced: true }],
          }),
        )
        : recording(input, init),
  });
  assert.ok(E.isRight(await viaRef.apply(obj, { fieldManager: "applier", force: true })));
  assert.ok(
    E.isRight(
      await viaRef.delete(ref, "s", {
        propagationPolicy: "Foreground",
        preconditions: { resourceVersion: "7" },
      }),
    ),
  );
  const [patch, apply, del] = seen;
  assert.equal(patch.method, "PATCH");
  assert.equal(patch.type, "application/merge-patch+json");
  assert.equal(
    patch.url,
    "http://k8s.invalid/api/v1/namespaces/team/configmaps/s?fieldManager=my-controller&dryRun=All",
  );
  assert.equal(apply.type, "application/apply-patch+yaml");
  assert.equal(
    apply.url,
    "http://k8s.invalid/api/v1/namespaces/team/configmaps/s?fieldManager=applier&force=true",
  );
  assert.deepEqual(JSON.parse(apply.body), obj);
  assert.equal(del.method, "DELETE");
  assert.deepEqual(JSON.parse(del.body), {
    kind: "DeleteOptions",
    apiVersion: "v1",
    propagationPolicy: "Foreground",
    preconditions: { resourceVersion: "7" },
  });
  client.close();
  viaRef.close();
});
