import assert from "node:assert/strict";
import { createAuthProvider } from "../../../lib/client/config/create_auth_provider.ts";
import { serviceAccountDir } from "../../../lib/client/config/load_in_cluster_config.ts";
import { assertNoSecret, fixture, tempFiles, unwrap, unwrapLeft } from "./_helpers.ts";
import { loadInClusterConfig } from "../../../mod.ts";

const env = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };

const podRoot = (files: Record<string, string>) =>
  tempFiles(
    Object.fromEntries(Object.entries(files).map(([k, v]) => [`${serviceAccountDir}/${k}`, v])),
  );

Deno.test("loadInClusterConfig() reads the service account token, CA and namespace", async () => {
  const root = await podRoot({
    token: "sa-token\n",
    "ca.crt": fixture("ca.crt"),
    namespace: "prod",
  });
  const c = unwrap(await loadInClusterConfig({ root, env }));
  assert.equal(c.server, "https://10.96.0.1:443");
  assert.equal(c.namespace, "prod");
  assert.equal(c.tls.caData, fixture("ca.crt"));
  assert.equal(c.tls.insecureSkipVerify, false);
  assert.equal(c.auth.type, "tokenFile");
  assert.equal(c.auth.type === "tokenFile" && c.auth.path, `${root}${serviceAccountDir}/token`);
  assertNoSecret(JSON.stringify(c) + Deno.inspect(c, { depth: 10 }), ["sa-token"]);
  const h = unwrap(await createAuthProvider(c.auth).headers());
  assert.equal(h.Authorization, "Bearer sa-token");
});

Deno.test("loadInClusterConfig() defaults the namespace and brackets IPv6 hosts", async () => {
  const root = await podRoot({ token: "t", "ca.crt": fixture("ca.crt") });
  const c = unwrap(
    await loadInClusterConfig({
      root,
      env: { KUBERNETES_SERVICE_HOST: "fd00::1", KUBERNETES_SERVICE_PORT: "6443" },
    }),
  );
  assert.equal(c.server, "https://[fd00::1]:6443");
  assert.equal(c.namespace, "default");
});

Deno.test("loadInClusterConfig() explains missing environment and files", async () => {
  const e = unwrapLeft(await loadInClusterConfig({ root: "/nonexistent", env: {} }));
  assert.equal(e.type, "InCluster");
  assert.match(e.message, /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined/);
  const root = await podRoot({ token: "t" });
  const e2 = unwrapLeft(await loadInClusterConfig({ root, env }));
  assert.equal(
    e2.message,
    `in-cluster config: ca.crt: cannot read "${root}${serviceAccountDir}/ca.crt": file not found`,
  );
});
