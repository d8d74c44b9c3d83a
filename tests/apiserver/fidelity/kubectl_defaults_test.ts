/**
 * Fidelity, defaults: what kubectl 1.32 shows of the embedded server's defaulting, as
 * kube-apiserver answers — volumes without a source become `emptyDir: {}`,
 * `fieldRef.apiVersion` is `v1`, Services get `clusterIPs` (headless ones too), `kubectl diff`
 * shows no drift, discovery has `storageVersionHash`.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/server.ts";
import { createKubectl, kubectlAvailable, ok } from "../_kubectl.ts";
import { app } from "./_web_app.ts";

Deno.test({
  name: "kubectl sees kube-apiserver's defaults: no drift, clusterIPs, storageVersionHash",
  ignore: !kubectlAvailable(),
  fn: async (t) => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    const k = (args: string[], stdin?: string) => kubectl.run(args, { stdin });
    try {
      await t.step(
        "defaults: emptyDir, fieldRef apiVersion, clusterIPs; diff shows no drift",
        async () => {
          ok(await k(["apply", "-f", "-"], app), "apply");
          const jp = (what: string, path: string) => k(["get", what, "-o", `jsonpath=${path}`]);
          assert.equal(
            ok(await jp("deploy/web", "{.spec.template.spec.volumes[0].emptyDir}"), "get"),
            "{}",
          );
          assert.equal(
            ok(
              await jp(
                "deploy/web",
                "{.spec.template.spec.containers[0].env[0].valueFrom.fieldRef.apiVersion}",
              ),
              "get",
            ),
            "v1",
          );
          assert.equal(ok(await jp("svc/web", "{.spec.clusterIPs}"), "get"), '["None"]');
          assert.equal(ok(await jp("svc/api", "{.spec.clusterIPs}"), "get"), '["10.96.100.100"]');
          assert.equal(
            ok(await jp("svc/api", "{.spec.ipFamilyPolicy} {.spec.ipFamilies}"), "get"),
            'SingleStack ["IPv4"]',
          );
          const d = await k(["diff", "-f", "-"], app);
          assert.equal(d.code, 0, `unexpected drift:\n${d.stdout}${d.stderr}`);
          // fieldRef is an atomic struct the server defaults: like kube-apiserver (which merges
          // the undefaulted configuration, then defaults), a server-side apply of the same file
          // conflicts with the client-side applier on it, unless forced.
          const conflict = await k(["diff", "--server-side", "-f", "-"], app);
          assert.match(
            conflict.stderr,
            /conflict with "kubectl-client-side-apply".*\.valueFrom\.fieldRef/,
          );
          const ds = await k(["diff", "--server-side", "--force-conflicts", "-f", "-"], app);
          // The only change: the last-applied annotation follows the server-side configuration
          // (kube's lastAppliedUpdater); no defaulted field drifts.
          const changed = ds.stdout.split("\n").filter((l) => /^[-+] /.test(l));
          assert.ok(
            changed.length > 0 && changed.every((l) => l.includes('{"apiVersion"')),
            ds.stdout,
          );
        },
      );

      await t.step("discovery carries storageVersionHash", async () => {
        const list = JSON.parse(ok(await k(["get", "--raw", "/api/v1"]), "get --raw"));
        const pods = list.resources.find((r: { name: string }) => r.name === "pods");
        assert.equal(pods.storageVersionHash, "xPOwRZ+Yhw8=");
        const apps = JSON.parse(ok(await k(["get", "--raw", "/apis/apps/v1"]), "get --raw"));
        const deploy = apps.resources.find((r: { name: string }) => r.name === "deployments");
        assert.equal(deploy.storageVersionHash, "8aSe+NMegvE=");
      });
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
