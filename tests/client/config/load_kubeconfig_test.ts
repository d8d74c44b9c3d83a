import assert from "node:assert/strict";
import { kubeconfigFor } from "../../../lib/client/config/kubeconfig_for.ts";
import { kubeconfigPaths, readKubeconfigs } from "../../../lib/client/config/read_kubeconfigs.ts";
import {
  assertNoSecret,
  b64,
  fixture,
  fixtures,
  tempFiles,
  unwrap,
  unwrapLeft,
} from "./_helpers.ts";
import { loadKubeconfig } from "../../../mod.ts";

const one = (name: string, server: string, extra = "") => `
clusters: [{name: ${name}, cluster: {server: "${server}"}}]
users: [{name: ${name}, user: {token: tok-${name}}}]
contexts: [{name: ${name}, context: {cluster: ${name}, user: ${name}${extra}}}]
`;

Deno.test("kubeconfigPaths() prefers path, then KUBECONFIG (split on ':'), then ~/.kube/config", () => {
  assert.deepEqual(kubeconfigPaths({ path: "/p", env: { KUBECONFIG: "/a" } }), [
    { path: "/p", mustExist: true },
  ]);
  assert.deepEqual(kubeconfigPaths({ env: { KUBECONFIG: "/a::/b:/a", HOME: "/h" } }), [
    { path: "/a", mustExist: false },
    { path: "/b", mustExist: false },
  ]);
  assert.deepEqual(kubeconfigPaths({ env: { HOME: "/h" } }), [
    { path: "/h/.kube/config", mustExist: true },
  ]);
});

Deno.test("loadKubeconfig() merges KUBECONFIG files first-wins and resolves current-context", async () => {
  // b defines cluster "a" again (shadowed by a's) and its own current-context (ignored).
  const b = `
clusters: [{name: a, cluster: {server: "https://shadowed"}}, {name: b, cluster: {server: "http://127.0.0.1:8080"}}]
users: [{name: b, user: {token: tok-b}}]
contexts: [{name: b, context: {cluster: b, user: b}}]
current-context: b
`;
  const dir = await tempFiles({
    a: one("a", "https://a.example:6443/", ", namespace: team-a") + "current-context: a\n",
    b,
  });
  const env = { KUBECONFIG: `${dir}/missing:${dir}/a:${dir}/b` };
  const c = unwrap(await loadKubeconfig({ env }));
  assert.equal(c.server, "https://a.example:6443");
  assert.equal(c.namespace, "team-a");
  assert.equal(c.auth.type === "token" && c.auth.token.reveal(), "tok-a");

  const cb = unwrap(await loadKubeconfig({ env, context: "b" }));
  assert.equal(cb.server, "http://127.0.0.1:8080");
  assert.equal(cb.namespace, "default");
  assert.equal(cb.auth.type === "token" && cb.auth.token.reveal(), "tok-b");

  const swapped = unwrap(await loadKubeconfig({ env: { KUBECONFIG: `${dir}/b:${dir}/a` } }));
  assert.equal(swapped.server, "http://127.0.0.1:8080");
});

Deno.test("loadKubeconfig() names a missing context and where it was asked for", async () => {
  const dir = await tempFiles({ config: one("a", "http://x") + "current-context: gone\n" });
  const e = unwrapLeft(await loadKubeconfig({ path: `${dir}/config` }));
  assert.equal(e.type, "NotFound");
  assert.equal(
    e.message,
    `context "gone" (current-context of ${dir}/config) not found in ${dir}/config`,
  );
  const e2 = unwrapLeft(await loadKubeconfig({ path: `${dir}/config`, context: "dev" }));
  assert.equal(e2.message, `context "dev" (given explicitly) not found in ${dir}/config`);
  const e3 = unwrapLeft(await loadKubeconfig({ path: `${dir}/none` }));
  assert.equal(e3.type, "Read");
  assert.equal(e3.message, `kubeconfig: cannot read "${dir}/none": file not found`);
});

Deno.test("loadKubeconfig() names the file and field of missing or dangling references", async () => {
  const dir = await tempFiles({
    config: `
clusters: [{name: c, cluster: {certificate-authority-data: ${b64("x")}}}]
contexts:
- {name: ok, context: {cluster: c}}
- {name: nocluster, context: {user: u}}
- {name: dangling, context: {cluster: nope}}
- {name: nouser, context: {cluster: c, user: ghost}}
`,
  });
  const path = `${dir}/config`;
  const msg = async (context: string) =>
    unwrapLeft(await loadKubeconfig({ path, context })).message;
  assert.equal(await msg("ok"), `${path}: clusters[0].cluster.server: Required value`);
  assert.equal(await msg("nocluster"), `${path}: contexts[1].context.cluster: Required value`);
  assert.equal(
    await msg("dangling"),
    `${path}: contexts[2].context.cluster: Not found: "nope" (no cluster of that name)`,
  );
  assert.equal(
    await msg("nouser"),
    `${path}: contexts[3].context.user: Not found: "ghost" (no user of that name)`,
  );
});

Deno.test("loadKubeconfig() reports a malformed file by name", async () => {
  const dir = await tempFiles({ good: one("a", "http://x"), bad: "clusters: [\n" });
  const e = unwrapLeft(await loadKubeconfig({ env: { KUBECONFIG: `${dir}/good:${dir}/bad` } }));
  assert.equal(e.type, "Parse");
  assert.ok(e.message.startsWith(`${dir}/bad: line `), e.message);
});

Deno.test("loadKubeconfig() reads cert, key, CA and token files relative to the kubeconfig", async () => {
  const dir = await tempFiles({
    "kube/config": `
clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443", certificate-authority: pki/ca.crt}}]
users: [{name: u, user: {client-certificate: pki/client.crt, client-key: pki/client.key, tokenFile: ../token}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`,
    "kube/pki/ca.crt": fixture("ca.crt"),
    "kube/pki/client.crt": fixture("client.crt"),
    "kube/pki/client.key": fixture("client.key"),
    "token": "file-token\n",
  });
  const c = unwrap(await loadKubeconfig({ env: { KUBECONFIG: `${dir}/kube/config` } }));
  assert.equal(c.tls.caData, fixture("ca.crt"));
  assert.equal(c.tls.certData, fixture("client.crt"));
  assert.equal(c.tls.keyData?.reveal(), fixture("client.key"));
  assert.equal(c.tls.insecureSkipVerify, false);
  assert.equal(c.auth.type, "tokenFile");
  assert.equal(c.auth.type === "tokenFile" && c.auth.path, `${dir}/token`);
  assert.equal(c.auth.type === "tokenFile" && c.auth.token?.reveal(), "file-token");
  const printed = JSON.stringify(c) + Deno.inspect(c, { depth: 10 });
  assertNoSecret(printed, ["file-token", "PRIVATE KEY"]);
});

Deno.test("loadKubeconfig() prefers *-data over file paths and decodes base64", async () => {
  const dir = await tempFiles({
    config: `
clusters: [{name: c, cluster: {server: "https://h", certificate-authority: /nonexistent, certificate-authority-data: ${
      b64(fixture("ca.crt"))
    }}}]
users: [{name: u, user: {client-certificate-data: ${b64(fixture("client.crt"))}, client-key-data: ${
      b64(fixture("client.key"))
    }}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`,
  });
  const c = unwrap(await loadKubeconfig({ path: `${dir}/config` }));
  assert.equal(c.tls.caData, fixture("ca.crt"));
  assert.equal(c.tls.certData, fixture("client.crt"));
  assert.equal(c.tls.keyData?.reveal(), fixture("client.key"));
  assert.deepEqual(c.auth, { type: "none" });
});

Deno.test("loadKubeconfig() names the field and path of an unreadable certificate", async () => {
  const dir = await tempFiles({
    config: `
clusters: [{name: c, cluster: {server: "https://h"}}]
users: [{name: u, user: {client-certificate: missing.crt, client-key: ${fixtures}client.key}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`,
  });
  const e = unwrapLeft(await loadKubeconfig({ path: `${dir}/config` }));
  assert.equal(e.type, "Read");
  assert.equal(
    e.message,
    `${dir}/config: users[0].user.client-certificate: cannot read "${dir}/missing.crt": file not found`,
  );
});

Deno.test("loadKubeconfig() forbids insecure-skip-tls-verify together with a CA and two auth methods", async () => {
  const dir = await tempFiles({
    config: `
clusters:
- {name: c, cluster: {server: "https://h", insecure-skip-tls-verify: true, certificate-authority: ca}}
- {name: i, cluster: {server: "https://h", insecure-skip-tls-verify: true}}
users: [{name: u, user: {token: t0ken-value, username: a, password: b}}]
contexts:
- {name: c, context: {cluster: c}}
- {name: u, context: {cluster: i, user: u}}
- {name: i, context: {cluster: i}}
`,
  });
  const path = `${dir}/config`;
  const e = unwrapLeft(await loadKubeconfig({ path, context: "c" }));
  assert.match(e.message, /clusters\[0\]\.cluster\.insecure-skip-tls-verify: Forbidden/);
  const e2 = unwrapLeft(await loadKubeconfig({ path, context: "u" }));
  assert.match(e2.message, /users\[0\]\.user: Forbidden: more than one authentication method/);
  assertNoSecret(e2.message, ["t0ken-value"]);
  const ok = unwrap(await loadKubeconfig({ path, context: "i" }));
  assert.equal(ok.tls.insecureSkipVerify, true);
});

Deno.test("loadKubeconfig() reads ~/.kube/config from HOME when KUBECONFIG is unset", async () => {
  const home = await tempFiles({ ".kube/config": kubeconfigFor({ server: "http://h:1" }) });
  const c = unwrap(await loadKubeconfig({ env: { HOME: home } }));
  assert.equal(c.server, "http://h:1");
  const e = unwrapLeft(await loadKubeconfig({ env: { HOME: `${home}/nothing` } }));
  assert.equal(e.type, "Read");
  const none = unwrapLeft(await readKubeconfigs({ env: { KUBECONFIG: `${home}/x:${home}/y` } }));
  assert.equal(none.message, `no kubeconfig found: none of ${home}/x, ${home}/y exists`);
});

const hasKubectl = (() => {
  try {
    return new Deno.Command("kubectl", { args: ["version", "--client"] }).outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "loadKubeconfig() picks the same server, user and namespace as kubectl for merged files",
  ignore: !hasKubectl,
  async fn() {
    const dir = await tempFiles({
      a: `
clusters: [{name: shared, cluster: {server: "https://from-a:1"}}]
contexts: [{name: a, context: {cluster: shared, user: ua, namespace: na}}]
users: [{name: ua, user: {token: tok-a}}]
`,
      b: `
clusters: [{name: shared, cluster: {server: "https://from-b:2"}}, {name: only-b, cluster: {server: "https://b:3"}}]
contexts: [{name: a, context: {cluster: only-b, user: ub}}, {name: b, context: {cluster: only-b, user: ub}}]
users: [{name: ua, user: {token: tok-shadowed}}, {name: ub, user: {token: tok-b}}]
current-context: b
`,
    });
    const env = { KUBECONFIG: `${dir}/a:${dir}/b` };
    for (const context of [undefined, "a", "b"]) {
      const args = ["config", "view", "--minify", "--raw", "-o", "json"];
      if (context) args.push("--context", context);
      const out = new Deno.Command("kubectl", { args, env: { ...env, HOME: dir } }).outputSync();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
      const view = JSON.parse(new TextDecoder().decode(out.stdout));
      const c = unwrap(await loadKubeconfig({ env, ...(context ? { context } : {}) }));
      assert.equal(c.server, view.clusters[0].cluster.server);
      assert.equal(c.auth.type === "token" && c.auth.token.reveal(), view.users[0].user.token);
      assert.equal(c.namespace, view.contexts[0].context.namespace ?? "default");
    }
  },
});
