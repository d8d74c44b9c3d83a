/**
 * The TLS terminator the API server and the webhook server share: certificate reloads while
 * requests arrive drop none of them, and the served ALPN protocols reach HTTP/2 clients.
 */
import assert from "node:assert/strict";
import { generateCertificates } from "../../../lib/apiserver/tls/generate_certificates.ts";
import { serveReloadableTls } from "../../../lib/apiserver/tls/reloadable_tls.ts";
import { curlAvailable, curlHttp2 } from "../_curl.ts";

Deno.test("serveReloadableTls(): reloading the certificate under traffic drops no connection", async () => {
  const a = await generateCertificates({ hosts: ["127.0.0.1"] });
  const b = await generateCertificates({ hosts: ["127.0.0.1"] });
  const server = await serveReloadableTls(
    { hostname: "127.0.0.1", port: 0 },
    { cert: a.cert, key: a.key },
    () => new Response("ok"),
  );
  try {
    const failures: string[] = [];
    // Connections opened just before a reload: the terminator they were sent to must still
    // take them (a TLS handshake and one request each).
    const exchange = async (raw: Deno.TcpConn) => {
      try {
        const conn = await Deno.startTls(raw, {
          hostname: "127.0.0.1",
          caCerts: [a.caCert, b.caCert],
        });
        await conn.write(
          new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
        );
        const text = await new Response(conn.readable).text();
        if (!text.endsWith("ok")) failures.push(text.slice(0, 40));
      } catch (e) {
        failures.push(String(e));
      }
    };
    for (let round = 0; round < 30; round++) {
      const raws = await Promise.all(
        Array.from(
          { length: 10 },
          () => Deno.connect({ hostname: "127.0.0.1", port: server.port }),
        ),
      );
      for (let i = 0; i < round % 4; i++) await Promise.resolve();
      await server.reload(round % 2 ? { cert: a.cert, key: a.key } : { cert: b.cert, key: b.key });
      await Promise.all(raws.map(exchange));
    }
    assert.deepEqual(failures, []);
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "serveReloadableTls(): offers its ALPN protocols; an HTTP/2 client gets HTTP/2",
  ignore: !curlAvailable(),
  fn: async () => {
    const { cert, key, caCert } = await generateCertificates({ hosts: ["127.0.0.1"] });
    const server = await serveReloadableTls(
      { hostname: "127.0.0.1", port: 0, alpnProtocols: ["h2", "http/1.1"] },
      { cert, key },
      () => new Response("x".repeat(5_000)),
    );
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/ca.crt`, caCert);
      assert.equal(
        await curlHttp2(
          `${dir}/ca.crt`,
          "%{http_version} %{size_download}",
          `https://127.0.0.1:${server.port}/`,
        ),
        "2 5000",
      );
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
