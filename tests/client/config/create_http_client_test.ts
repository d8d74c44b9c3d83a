import assert from "node:assert/strict";
import { createHttpClient } from "../../../lib/client/config/create_http_client.ts";
import { fixture, unwrap, unwrapLeft } from "./_helpers.ts";
import { Secret } from "../../../mod.ts";

async function withTlsServer(fn: (url: string) => Promise<void>): Promise<void> {
  const ac = new AbortController();
  const server = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    cert: fixture("server.crt"),
    key: fixture("server.key"),
    signal: ac.signal,
    onListen() {},
  }, () => new Response("ok"));
  try {
    await fn(`https://127.0.0.1:${server.addr.port}/`);
  } finally {
    ac.abort();
    await server.finished;
  }
}

Deno.test("createHttpClient() needs no custom client without CA, certificate or proxy", () => {
  assert.equal(unwrap(createHttpClient({ insecureSkipVerify: false })), undefined);
});

Deno.test("createHttpClient() trusts the configured CA and verifies otherwise", async () => {
  await withTlsServer(async (url) => {
    await assert.rejects(fetch(url));
    const client = unwrap(
      createHttpClient({ caData: fixture("ca.crt"), insecureSkipVerify: false }),
    );
    assert.ok(client);
    try {
      const res = await fetch(url, { client });
      assert.equal(await res.text(), "ok");
    } finally {
      client.close();
    }
    const mtls = unwrap(createHttpClient({
      caData: fixture("ca.crt"),
      certData: fixture("client.crt"),
      keyData: new Secret(fixture("client.key")),
      insecureSkipVerify: false,
    }));
    try {
      assert.equal(await (await fetch(url, { client: mtls })).text(), "ok");
    } finally {
      mtls?.close();
    }
  });
});

Deno.test("createHttpClient() refuses insecure-skip-tls-verify unless the process flag is declared", () => {
  const e = unwrapLeft(createHttpClient({ insecureSkipVerify: true }));
  assert.equal(e.type, "Unsupported");
  assert.match(e.message, /--unsafely-ignore-certificate-errors/);
  assert.equal(
    unwrap(
      createHttpClient({ insecureSkipVerify: true }, { processIgnoresCertificateErrors: true }),
    ),
    undefined,
  );
  const sni = unwrapLeft(createHttpClient({ insecureSkipVerify: false, serverName: "api" }));
  assert.equal(sni.type === "Unsupported" && sni.field, "tls-server-name");
});

Deno.test("createHttpClient() rejects non-PEM data and bad keys without echoing the key", () => {
  const ca = unwrapLeft(createHttpClient({ caData: "garbage", insecureSkipVerify: false }));
  assert.match(ca.message, /certificate-authority: Invalid value/);
  const key = unwrapLeft(createHttpClient({
    certData: fixture("client.crt"),
    keyData: new Secret("KEY-SECRET-garbage"),
    insecureSkipVerify: false,
  }));
  assert.ok(!key.message.includes("KEY-SECRET"), key.message);
  const lone = unwrapLeft(
    createHttpClient({ certData: fixture("client.crt"), insecureSkipVerify: false }),
  );
  assert.match(lone.message, /client-key/);
});
