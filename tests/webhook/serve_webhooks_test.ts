import assert from "node:assert/strict";
import { allowed, denied, mutated, serveWebhooks, type Webhook } from "../../mod.ts";
import { generateCertificates } from "../../lib/apiserver/tls/mod.ts";
import { virtualTime } from "../../lib/testing/mod.ts";

const configMaps = { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" };
const hooks: Webhook[] = [
  {
    type: "validating",
    for: configMaps,
    validate: (req) => req.object?.data ? allowed() : denied("no data", { code: 422 }),
  },
  {
    type: "mutating",
    for: configMaps,
    mutate: (req) => mutated({ ...req.object, data: { added: "1" } }),
  },
];
const review = (object: unknown) => ({
  apiVersion: "admission.k8s.io/v1",
  kind: "AdmissionReview",
  request: { uid: "u-1", operation: "CREATE", object },
});

async function post(url: string, ca: string, body: unknown, method = "POST") {
  const client = Deno.createHttpClient({ caCerts: [ca] });
  try {
    const res = await fetch(url, {
      method,
      client,
      ...(method === "POST"
        ? { body: typeof body === "string" ? body : JSON.stringify(body) }
        : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith("{") ? JSON.parse(text) : text };
  } finally {
    client.close();
  }
}

Deno.test("serveWebhooks() answers AdmissionReviews over HTTPS with verdicts and JSON patches", async () => {
  const server = await serveWebhooks(hooks, { port: 0, hostname: "127.0.0.1" });
  try {
    assert.deepEqual(server.paths, ["/validate-v1-configmap", "/mutate-v1-configmap"]);
    const ca = server.caCert!;
    const ok = await post(`${server.url}/validate-v1-configmap`, ca, review({ data: { a: "1" } }));
    assert.deepEqual(ok, {
      status: 200,
      body: {
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        response: { uid: "u-1", allowed: true },
      },
    });
    const no = await post(`${server.url}/validate-v1-configmap`, ca, review({}));
    assert.deepEqual(no.body.response, {
      uid: "u-1",
      allowed: false,
      result: { status: "Failure", code: 422, reason: "Invalid", message: "no data" },
    });
    const m = await post(`${server.url}/mutate-v1-configmap`, ca, review({ data: { a: "1" } }));
    assert.equal(m.body.response.patchType, "JSONPatch");
    assert.deepEqual(JSON.parse(atob(m.body.response.patch)), [
      { op: "remove", path: "/data/a" },
      { op: "add", path: "/data/added", value: "1" },
    ]);
    assert.equal((await post(`${server.url}/nope`, ca, review({}))).status, 404);
    assert.equal((await post(`${server.url}/validate-v1-configmap`, ca, "{", "POST")).status, 400);
    assert.equal((await post(`${server.url}/validate-v1-configmap`, ca, { a: 1 })).status, 400);
    assert.equal((await post(`${server.url}/validate-v1-configmap`, ca, null, "GET")).status, 405);
    const text = server.metrics.families().find((f) =>
      f.name === "controller_runtime_webhook_requests_total"
    );
    assert.deepEqual(
      text?.samples.map((s) =>
        `${s.labels.webhook} ${s.labels.code} ${(s as { value: number }).value}`
      ),
      [
        "/validate-v1-configmap 200 2",
        "/mutate-v1-configmap 200 1",
        "/validate-v1-configmap 400 2",
        "/validate-v1-configmap 405 1",
      ],
    );
  } finally {
    await server.close();
  }
});

Deno.test("serveWebhooks() reloads its certificate when the files in certDir change", async () => {
  const dir = await Deno.makeTempDir();
  const first = await generateCertificates({ hosts: ["127.0.0.1"] });
  const second = await generateCertificates({ hosts: ["127.0.0.1"] });
  await Deno.writeTextFile(`${dir}/tls.crt`, first.cert);
  await Deno.writeTextFile(`${dir}/tls.key`, first.key);
  const server = await serveWebhooks(hooks, { port: 0, hostname: "127.0.0.1", certDir: dir });
  try {
    assert.equal(server.caCert, undefined);
    const url = `${server.url}/validate-v1-configmap`;
    assert.equal((await post(url, first.caCert, review({ data: {} }))).status, 200);
    // Rotated files (a key and certificate pair written the way a Secret volume swaps them).
    await Deno.writeTextFile(`${dir}/tls.key.new`, second.key);
    await Deno.writeTextFile(`${dir}/tls.crt.new`, second.cert);
    await Deno.rename(`${dir}/tls.key.new`, `${dir}/tls.key`);
    await Deno.rename(`${dir}/tls.crt.new`, `${dir}/tls.crt`);
    await server.reload(); // what the file watcher does; awaited here to avoid a race
    assert.equal((await post(url, second.caCert, review({ data: {} }))).status, 200);
    await assert.rejects(() => post(url, first.caCert, review({ data: {} })));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serveWebhooks() ends a request's time budget on its scheduler (virtual time)", async () => {
  const time = virtualTime({ startMs: 1_000_000 });
  let called: (deadline: number) => void;
  let aborted = false;
  const entered = new Promise<number>((r) => called = r);
  const stuck: Webhook = {
    type: "validating",
    for: configMaps,
    validate: (_req, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          aborted = true;
          resolve(denied("aborted"));
        });
        called(ctx.deadlineMs);
      }),
  };
  const server = await serveWebhooks([stuck], {
    port: 0,
    hostname: "127.0.0.1",
    scheduler: time.scheduler,
  });
  try {
    const answer = post(
      `${server.url}/validate-v1-configmap?timeout=10s`,
      server.caCert!,
      review({}),
    );
    // The budget is the API server's timeout less the 100 ms margin, on the scheduler's clock.
    assert.equal(await entered, 1_000_000 + 9_900);
    time.advanceBy(9_899);
    assert.equal(aborted, false, "not before the budget ends");
    time.advanceBy(1);
    assert.equal(aborted, true, "the budget ends at 9.9 s of virtual time");
    const r = await answer;
    assert.equal(r.status, 504);
    assert.equal(r.body, "the webhook did not answer within 9900 ms");
  } finally {
    await server.close();
  }
});
