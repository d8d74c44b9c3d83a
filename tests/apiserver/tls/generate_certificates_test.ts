import assert from "node:assert/strict";
import { generateCertificates } from "../../../lib/apiserver/tls/generate_certificates.ts";
import { loadOrCreateCertificates } from "../../../lib/apiserver/tls/load_or_create_certificates.ts";

function opensslAvailable(): boolean {
  try {
    return new Deno.Command("openssl", { args: ["version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

Deno.test("generateCertificates() serves https on every host it names, trusted through its CA", async () => {
  const tls = await generateCertificates();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", cert: tls.cert, key: tls.key, onListen: () => {} },
    () => new Response("ok"),
  );
  const client = Deno.createHttpClient({ caCerts: [tls.caCert] });
  const other = Deno.createHttpClient({ caCerts: [(await generateCertificates()).caCert] });
  try {
    for (const host of ["127.0.0.1", "localhost"]) {
      const res = await fetch(`https://${host}:${server.addr.port}/`, { client });
      assert.equal(await res.text(), "ok", host);
    }
    await assert.rejects(fetch(`https://127.0.0.1:${server.addr.port}/`, { client: other }));
  } finally {
    client.close();
    other.close();
    await server.shutdown();
  }
});

Deno.test({
  name:
    "generateCertificates() output passes openssl verify with the SANs, usages and validity asked",
  ignore: !opensslAvailable(),
  fn: async () => {
    const now = Date.UTC(2030, 5, 1);
    const tls = await generateCertificates({
      hosts: ["localhost", "10.1.2.3", "::1", "example.test"],
      now: () => now,
      validDays: 30,
    });
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/ca.pem`, tls.caCert);
    await Deno.writeTextFile(`${dir}/cert.pem`, tls.cert);
    const run = async (args: string[]) => {
      const out = await new Deno.Command("openssl", { args }).output();
      return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    };
    const verified = await run([
      "verify",
      "-attime",
      String(now / 1000 + 60),
      "-purpose",
      "sslserver",
      "-CAfile",
      `${dir}/ca.pem`,
      `${dir}/cert.pem`,
    ]);
    assert.match(verified, /cert\.pem: OK/);
    const text = await run(["x509", "-in", `${dir}/cert.pem`, "-noout", "-text"]);
    assert.match(
      text,
      /DNS:localhost, IP Address:10\.1\.2\.3, IP Address:0:0:0:0:0:0:0:1, DNS:example\.test/,
    );
    assert.match(text, /CA:FALSE/);
    assert.match(text, /TLS Web Server Authentication/);
    assert.match(text, /Not Before: May 31 23:00:00 2030 GMT/);
    assert.match(text, /Not After : Jul {2}1 00:00:00 2030 GMT/);
    const ca = await run(["x509", "-in", `${dir}/ca.pem`, "-noout", "-text"]);
    assert.match(ca, /CA:TRUE, pathlen:0/);
    assert.match(ca, /Certificate Sign, CRL Sign/);
    assert.equal(tls.notAfterMs, now + 30 * 86400_000);
  },
});

Deno.test("loadOrCreateCertificates() reuses saved certificates and renews them for other hosts or near expiry", async () => {
  const dir = await Deno.makeTempDir();
  const a = await loadOrCreateCertificates(dir);
  const b = await loadOrCreateCertificates(dir);
  assert.deepEqual(b, a);
  assert.equal((await Deno.stat(`${dir}/tls.json`)).mode! & 0o777, 0o600);
  const c = await loadOrCreateCertificates(dir, { hosts: ["localhost"] });
  assert.notEqual(c.caCert, a.caCert);
  const d = await loadOrCreateCertificates(dir, {
    hosts: ["localhost"],
    now: () => c.notAfterMs - 3600_000,
  });
  assert.notEqual(d.caCert, c.caCert);
});
