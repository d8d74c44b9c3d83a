import assert from "node:assert/strict";
import { kubeconfigFor } from "../../../lib/client/config/kubeconfig_for.ts";
import { fixture, tempFiles, unwrap } from "./_helpers.ts";
import { loadKubeconfig } from "../../../mod.ts";

Deno.test("kubeconfigFor() renders a config loadKubeconfig() resolves back", async () => {
  const yaml = kubeconfigFor({
    server: "https://127.0.0.1:6443",
    token: "dev-token",
    caData: fixture("ca.crt"),
    namespace: "demo",
  });
  const dir = await tempFiles({ config: yaml });
  const c = unwrap(await loadKubeconfig({ path: `${dir}/config` }));
  assert.equal(c.server, "https://127.0.0.1:6443");
  assert.equal(c.namespace, "demo");
  assert.equal(c.tls.caData, fixture("ca.crt"));
  assert.equal(c.auth.type === "token" && c.auth.token.reveal(), "dev-token");
});

Deno.test("kubeconfigFor() quotes tokens that YAML 1.1 would read as other types", async () => {
  for (const token of ["yes", "on", "0755", "1e3", "null", "~", "#x", "a: b"]) {
    const dir = await tempFiles({ config: kubeconfigFor({ server: "http://h", token }) });
    const c = unwrap(await loadKubeconfig({ path: `${dir}/config` }));
    assert.equal(c.auth.type === "token" && c.auth.token.reveal(), token);
  }
});

const hasKubectl = (() => {
  try {
    return new Deno.Command("kubectl", { args: ["version", "--client"] }).outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "kubeconfigFor() output is accepted by kubectl",
  ignore: !hasKubectl,
  async fn() {
    const dir = await tempFiles({
      config: kubeconfigFor({ server: "http://127.0.0.1:8080", token: "yes", namespace: "ns" }),
    });
    const out = new Deno.Command("kubectl", {
      args: ["config", "view", "--minify", "--raw", "-o", "json", "--kubeconfig", `${dir}/config`],
      env: { HOME: dir },
    }).outputSync();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const view = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(view["current-context"], "kubefold");
    assert.equal(view.clusters[0].cluster.server, "http://127.0.0.1:8080");
    assert.equal(view.users[0].user.token, "yes");
    assert.equal(view.contexts[0].context.namespace, "ns");
  },
});
