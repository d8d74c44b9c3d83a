import assert from "node:assert/strict";
import {
  adminTokenFile,
  generateAdminToken,
  loadOrCreateAdminToken,
} from "../../lib/apiserver/admin_token.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";

Deno.test("generateAdminToken() makes distinct 43-character base64url tokens", () => {
  const a = generateAdminToken(), b = generateAdminToken();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, b);
});

Deno.test("loadOrCreateAdminToken() keeps one token in the data dir (mode 0600) and replaces a damaged one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await loadOrCreateAdminToken(dir);
    assert.equal(await loadOrCreateAdminToken(dir), first);
    const info = await Deno.stat(`${dir}/${adminTokenFile}`);
    assert.equal((info.mode ?? 0) & 0o777, 0o600);
    await Deno.writeTextFile(`${dir}/${adminTokenFile}`, "x\n");
    const replaced = await loadOrCreateAdminToken(dir);
    assert.match(replaced, /^[A-Za-z0-9_-]{43}$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startApiServer({ tls }) without a token requires a generated one and writes it into the kubeconfig", async () => {
  const server = await startApiServer({ tls: true });
  const client = Deno.createHttpClient({ caCerts: [server.caCert!] });
  try {
    const token = /token: (\S+)/.exec(server.kubeconfig)?.[1];
    assert.match(token ?? "", /^[A-Za-z0-9_-]{43}$/);
    const anonymous = await fetch(`${server.url}/api/v1/namespaces`, { client });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const admin = await fetch(`${server.url}/api/v1/namespaces`, {
      client,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(admin.status, 200);
    await admin.body?.cancel();
  } finally {
    client.close();
    await server.close();
  }
});
