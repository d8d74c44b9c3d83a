/**
 * Item 5 of the reliability issue: every expected failure is a value. Hostile kubeconfigs
 * (alias bombs, huge files) are Lefts naming the file; TLS material is checked at connect()
 * and the error names the CA, the client certificate or the key; forged continue tokens and
 * malformed resourceVersions are refused instead of echoed.
 */
import assert from "node:assert/strict";
import { E } from "../../lib/deps.ts";
import { connect } from "../../lib/client/connect.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { generateCertificates } from "../../lib/apiserver/tls/generate_certificates.ts";

const b64 = (s: string) => btoa(s);

async function kubeconfigFile(dir: string, text: string): Promise<string> {
  const path = `${dir}/config`;
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("a kubeconfig alias bomb and a huge kubeconfig are Lefts naming the file, never a throw", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
    }
    const bomb = await kubeconfigFile(dir, `${levels.join("\n")}\ncurrent-context: x\n`);
    const r = await connect({ kubeconfig: bomb });
    assert.ok(E.isLeft(r));
    assert.match(r.left.message, new RegExp(`^${bomb.replaceAll("/", "\\/")}: invalid YAML`));
    const huge = `${dir}/huge`;
    await Deno.writeTextFile(huge, `# ${"x".repeat(17 * 1024 * 1024)}\n`);
    const h = await connect({ kubeconfig: huge });
    assert.ok(E.isLeft(h));
    assert.match(h.left.message, /a kubeconfig may be at most 16777216 bytes/);
    const deep = await kubeconfigFile(dir, `a: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n`);
    const d = await connect({ kubeconfig: deep });
    assert.ok(E.isLeft(d), "deep nesting is a Left too");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("connect() checks TLS material and names the CA, the client certificate or the key", async () => {
  const a = await generateCertificates({ hosts: ["127.0.0.1"] });
  const b = await generateCertificates({ hosts: ["127.0.0.1"] });
  const garbageCert =
    "-----BEGIN CERTIFICATE-----\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END CERTIFICATE-----\n";
  const config = (cluster: string, user: string) =>
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", ${cluster}}}]
users: [{name: u, user: {${user}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`;
  const ca = `certificate-authority-data: ${b64(a.caCert)}`;
  const cases: [string, string, RegExp][] = [
    [`certificate-authority-data: ${b64(garbageCert)}`, "token: t", /certificate-authority: /],
    [
      ca,
      `client-certificate-data: ${b64(garbageCert)}, client-key-data: ${b64(a.key)}`,
      /client-certificate: /,
    ],
    [
      ca,
      `client-certificate-data: ${b64(a.cert)}, client-key-data: ${b64("not a key")}`,
      /client-key: Invalid value: holds no PEM private key/,
    ],
    [
      ca,
      `client-certificate-data: ${b64(a.cert)}, client-key-data: ${b64(b.key)}`,
      /client-key: /,
    ],
  ];
  for (const [cluster, user, expected] of cases) {
    const r = await connect({ kubeconfigYaml: config(cluster, user) });
    assert.ok(E.isLeft(r), `accepted: ${user}`);
    assert.match(r.left.message, expected);
  }
  const ok = await connect({ kubeconfigYaml: config(ca, "token: t") });
  assert.ok(E.isRight(ok));
  if (E.isRight(ok)) ok.right.close();
});

Deno.test("a forged continue token or a malformed resourceVersion is a 400, never echoed as a list version", async () => {
  const s = await startApiServer();
  try {
    const cms = `${s.url}/api/v1/namespaces/default/configmaps`;
    for (const rv of [1e300, -1, 1.5, 99_999_999]) {
      const token = btoa(JSON.stringify({ v: 1, rv, start: "" }));
      const res = await fetch(`${cms}?limit=1&continue=${encodeURIComponent(token)}`);
      const body = await res.json();
      assert.equal(res.status, 400, `rv ${rv}`);
      assert.match(body.message, /continue key is not valid/);
      assert.ok(!JSON.stringify(body).includes("1e+300"));
    }
    const garbage = await fetch(`${cms}?limit=1&continue=%%%`);
    assert.equal(garbage.status, 400);
    await garbage.body?.cancel();
    const huge = await fetch(`${cms}?resourceVersion=99999999999999999999999`);
    assert.equal(huge.status, 400);
    assert.match((await huge.json()).message, /invalid resource version/);
    // A real token still pages.
    await fetch(cms, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }),
    }).then((r) => r.body?.cancel());
    await fetch(cms, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "b" } }),
    }).then((r) => r.body?.cancel());
    const page = await (await fetch(`${cms}?limit=1`)).json();
    const next = await fetch(`${cms}?limit=1&continue=${page.metadata.continue}`);
    assert.equal(next.status, 200);
    assert.equal((await next.json()).items[0].metadata.name, "b");
  } finally {
    await s.close();
  }
});
