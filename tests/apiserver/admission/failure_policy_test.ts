import assert from "node:assert/strict";
import { allowed, type KubeObject } from "../../../mod.ts";
import { generateCertificates } from "../../../lib/apiserver/tls/mod.ts";
import { configMaps, withWebhooks } from "./_fixture.ts";

const check = (failurePolicy: "Fail" | "Ignore", extra: object = {}) => ({
  type: "validating" as const,
  for: configMaps,
  failurePolicy,
  validate: () => allowed(),
  ...extra,
});

/** A configuration edit: every webhook's url points at `base` instead. */
const pointAt = (base: string, extra: Record<string, unknown> = {}) => (doc: KubeObject) => ({
  ...doc,
  webhooks: (doc.webhooks as Record<string, unknown>[]).map((w) => {
    const cc = w.clientConfig as { url: string };
    return { ...w, ...extra, clientConfig: { ...cc, url: base + new URL(cc.url).pathname } };
  }),
});

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("a webhook that is down rejects writes with failurePolicy Fail and admits them with Ignore", async () => {
  await withWebhooks([check("Fail")], async (f) => {
    const port = freePort();
    await f.install([check("Fail")], pointAt(`https://127.0.0.1:${port}`));
    const r = await f.kubectl.run(["create", "configmap", "down", "--from-literal=a=1"]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `error: failed to create configmap: Internal error occurred: failed calling webhook "vconfigmap.kubefold.dev": failed to call webhook: Post "https://127.0.0.1:${port}/validate-v1-configmap?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused\n`,
    );
    await f.install([check("Ignore")], pointAt(`https://127.0.0.1:${port}`));
    const ok = await f.kubectl.run(["create", "configmap", "down", "--from-literal=a=1"]);
    assert.equal(ok.code, 0, ok.stderr);
  });
});

Deno.test("a webhook slower than its timeoutSeconds fails the call: Fail rejects, Ignore admits", async () => {
  const tls = await generateCertificates({ hosts: ["127.0.0.1"] });
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const release = Promise.withResolvers<void>();
  const slow = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    cert: tls.cert,
    key: tls.key,
    onListen: (a) => resolve(a as Deno.NetAddr),
  }, async () => {
    await release.promise; // never answers in time
    return new Response("late", { status: 500 });
  });
  const { port } = await listening;
  try {
    await withWebhooks([check("Fail")], async (f) => {
      const base = `https://127.0.0.1:${port}`;
      const ca = { caBundle: btoa(tls.caCert) };
      const withCa = (doc: KubeObject) => {
        const d = pointAt(base, { timeoutSeconds: 1 })(doc);
        return {
          ...d,
          webhooks: (d.webhooks as Record<string, unknown>[]).map((w) => ({
            ...w,
            clientConfig: { ...(w.clientConfig as object), ...ca },
          })),
        };
      };
      await f.install([check("Fail")], withCa);
      const t0 = performance.now();
      const r = await f.kubectl.run(["create", "configmap", "slow", "--from-literal=a=1"]);
      const took = performance.now() - t0;
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        new RegExp(
          `failed calling webhook "vconfigmap.kubefold.dev": failed to call webhook: Post "${base}/validate-v1-configmap\\?timeout=1s": context deadline exceeded`,
        ),
      );
      assert.ok(took >= 1000 && took < 5000, `rejected after ${took} ms`);
      await f.install([check("Ignore")], withCa);
      const ok = await f.kubectl.run(["create", "configmap", "slow", "--from-literal=a=1"]);
      assert.equal(ok.code, 0, ok.stderr);
    });
  } finally {
    release.resolve();
    await slow.shutdown();
  }
});

Deno.test("the webhook server answers 504 when a function overruns the API server's timeout", async () => {
  let aborted = false;
  const stuck = {
    type: "validating" as const,
    for: configMaps,
    timeoutSeconds: 1,
    validate: (_r: unknown, ctx: { signal: AbortSignal }) =>
      new Promise<never>((_, reject) =>
        ctx.signal.addEventListener("abort", () => {
          aborted = true;
          reject(ctx.signal.reason);
        })
      ),
  };
  await withWebhooks([stuck], async (f) => {
    await f.install([stuck]);
    const r = await f.kubectl.run(["create", "configmap", "stuck", "--from-literal=a=1"]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /failed to call webhook: an error on the server \("the webhook did not answer within 900 ms"\) has prevented the request from succeeding/,
    );
    assert.ok(aborted, "the function's signal is aborted when its budget ends");
    const metrics = f.webhookServer.metrics.families();
    const total = metrics.find((m) => m.name === "controller_runtime_webhook_requests_total");
    assert.deepEqual(total?.samples, [{
      labels: { webhook: "/validate-v1-configmap", code: "504" },
      value: 1,
    }]);
  });
});

Deno.test("the caBundle is checked: a webhook whose certificate another CA signed cannot be called", async () => {
  const other = await generateCertificates();
  await withWebhooks([check("Fail")], async (f) => {
    await f.install([check("Fail")], (doc) => ({
      ...doc,
      webhooks: (doc.webhooks as Record<string, unknown>[]).map((w) => ({
        ...w,
        clientConfig: { ...(w.clientConfig as object), caBundle: btoa(other.caCert) },
      })),
    }));
    const r = await f.kubectl.run(["create", "configmap", "ca", "--from-literal=a=1"]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /tls: failed to verify certificate: x509: certificate signed by unknown authority\n$/,
    );
  });
});
