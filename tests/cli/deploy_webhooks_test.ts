/**
 * `kubefold deploy` of an operator with webhooks, proven on the embedded cluster with pods
 * that really run: the certificate Secret and `caBundle` wired, the manager pod serving its
 * webhooks on the pod's IP, the API server calling them through the webhook Service (its
 * Endpoints), so the real kubectl is denied, defaulted and converted by the deployed operator;
 * a second deploy keeps the certificate; `undeploy` removes the configurations. Two replicas:
 * each serves its webhooks on its own pod IP (both behind the Service), one leads.
 */
import assert from "node:assert/strict";
import { startCluster } from "../../lib/cluster/mod.ts";
import { main } from "../../lib/cli/main.ts";
import { createKubectl } from "../apiserver/_kubectl.ts";
import { podSetJson as podSet } from "../controllers/podset/_manifest.ts";

const repo = new URL("../../", import.meta.url).href;
const NS = "podset-operator-system";

async function project(): Promise<{ dir: string; bin: string }> {
  const dir = await Deno.makeTempDir({ prefix: "kubefold-webhook-operator-" });
  await Deno.writeTextFile(
    `${dir}/operator.ts`,
    `import { defineOperator } from "${repo}lib/operator/mod.ts";
import { podSetController, podSetCrdV1, podSetWebhooks } from "${repo}controllers/podset/mod.ts";
export const operator = defineOperator({
  name: "podset-operator",
  image: "example.com/podset-operator:0.1.0",
  crds: [podSetCrdV1],
  controllers: [podSetController],
  webhooks: podSetWebhooks,
  replicas: 2,
});
`,
  );
  await Deno.writeTextFile(
    `${dir}/main.ts`,
    `import { runOperator } from "${repo}lib/operator/mod.ts";
import { operator } from "./operator.ts";
Deno.exit(await runOperator(operator));
`,
  );
  // The image: the project's main.ts (what kubefold build bundles), run by deno.
  const bin = `${dir}/podset-operator`;
  await Deno.writeTextFile(
    bin,
    `#!/bin/sh\nexec "${Deno.execPath()}" run -A --no-lock "${dir}/main.ts" "$@"\n`,
  );
  await Deno.chmod(bin, 0o755);
  return { dir, bin };
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000) {
  const end = Date.now() + ms;
  while (true) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name:
    "kubefold deploy with webhooks: certificates wired, the deployed manager pod answers admission and conversion through the webhook Service; redeploy keeps the certificate; undeploy removes the configurations",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const { dir, bin } = await project();
    const cluster = await startCluster({
      tls: true,
      token: "admin-token",
      simulation: {
        nodes: 1,
        podStartDelayMs: 0,
        runImages: `example.com/podset-operator:*=${bin}`,
      },
    });
    const kubeconfig = `${dir}/kubeconfig.yaml`;
    await Deno.writeTextFile(kubeconfig, cluster.kubeconfig);
    const kubectl = await createKubectl(cluster.kubeconfig);
    const cli = async (...args: string[]) => {
      const out: string[] = [];
      const code = await main([...args, "--kubeconfig", kubeconfig, "--dir", dir], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        cwd: dir,
      });
      assert.equal(code, 0, out.join("\n"));
      return out.join("\n");
    };
    const json = async (...args: string[]) => {
      const r = await kubectl.run([...args, "-o", "json"]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const managersReady = async () => {
      const pods = (await json("get", "pods", "-n", NS, "-l", "control-plane=controller-manager"))
        .items as { status: { conditions?: { type: string; status: string }[] } }[];
      return (pods.length === 2 &&
        pods.every((p) =>
          p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True")
        )) || undefined;
    };
    try {
      const deployed = await cli("deploy");
      assert.match(
        deployed,
        /webhook certificate: a new CA and serving certificate for podset-operator-webhook-service\.podset-operator-system\.svc/,
      );
      assert.match(
        deployed,
        /secret\/podset-operator-webhook-server-cert -n podset-operator-system applied/,
      );
      assert.match(
        deployed,
        /validatingwebhookconfiguration\/podset-operator-validating-webhook-configuration applied/,
      );
      const secret = await json("get", "secret", "-n", NS, "podset-operator-webhook-server-cert");
      const vwc = await json(
        "get",
        "validatingwebhookconfiguration",
        "podset-operator-validating-webhook-configuration",
      );
      assert.equal(
        vwc.webhooks[0].clientConfig.caBundle,
        secret.data["ca.crt"],
        "caBundle is the CA",
      );
      const crd = await json("get", "crd", "podsets.app.example.com");
      assert.equal(crd.spec.conversion.webhook.clientConfig.caBundle, secret.data["ca.crt"]);
      assert.deepEqual(
        crd.spec.conversion.webhook.clientConfig.service.name,
        "podset-operator-webhook-service",
      );

      await until("both manager pods are Ready", managersReady, 60_000);
      const endpoints = await json("get", "endpoints", "-n", NS, "podset-operator-webhook-service");
      const pods = (await json("get", "pods", "-n", NS)).items as {
        metadata: { name: string };
        status: { podIP: string };
      }[];
      const ips = pods.map((p) => p.status.podIP).sort();
      assert.equal(new Set(ips).size, 2, "each replica has its own IP");
      assert.deepEqual(
        endpoints.subsets[0].addresses.map((a: { ip: string }) => a.ip).sort(),
        ips,
        "both replicas serve behind the webhook Service",
      );
      assert.equal(endpoints.subsets[0].ports[0].port, 9443);

      const denied = await kubectl.run(["apply", "-f", "-"], { stdin: podSet("bare", {}) });
      assert.notEqual(denied.code, 0);
      assert.match(
        denied.stderr,
        /admission webhook "vpodset\.app\.example\.com" denied the request: .*spec\.template\.spec\.containers\[0\]\.resources\.limits: Required value/,
      );
      const ok = await kubectl.run(["apply", "-f", "-"], {
        stdin: podSet("web", { resources: { limits: { cpu: "200m", memory: "128Mi" } } }),
      });
      assert.equal(ok.code, 0, ok.stderr);
      const web = await json("get", "podsets.v1alpha1.app.example.com", "web");
      assert.deepEqual(web.spec.selector, { matchLabels: { app: "web" } }, "defaulted");
      const v1 = await json("get", "podsets.v1.app.example.com", "web");
      assert.equal(v1.spec.size, 2, "converted by the deployed webhook");
      await until(
        "the deployed controller runs web's 2 pods",
        async () =>
          (await json("get", "pods", "-n", "default", "-l", "app=web")).items.length === 2 ||
          undefined,
      );
      for (const p of pods) {
        const logs = await kubectl.run(["logs", "-n", NS, p.metadata.name]);
        assert.match(
          logs.stdout,
          new RegExp(`"msg":"manager started".*"webhooks":"https://${p.status.podIP}:9443`),
          `${p.metadata.name} serves its webhooks on its own IP`,
        );
      }

      const again = await cli("deploy");
      assert.match(
        again,
        /webhook certificate: kept \(secret\/podset-operator-webhook-server-cert/,
      );
      const same = await json("get", "secret", "-n", NS, "podset-operator-webhook-server-cert");
      assert.equal(same.data["tls.crt"], secret.data["tls.crt"]);
      const deniedAgain = await kubectl.run(["apply", "-f", "-"], { stdin: podSet("bare", {}) });
      assert.match(
        deniedAgain.stderr,
        /denied the request/,
        "the running pod still matches caBundle",
      );

      // Every 403 is one of kubectl's denied PodSets: none of the operator's requests was.
      assert.deepEqual(
        cluster.server.forbidden().filter((f) => !/^admission webhook/.test(f.message)),
        [],
        "the generated RBAC is enough",
      );
      assert.equal(cluster.server.forbidden().length, 2);

      await cli("undeploy");
      for (const kind of ["validating", "mutating"]) {
        const gone = await kubectl.run([
          "get",
          `${kind}webhookconfiguration`,
          `podset-operator-${kind}-webhook-configuration`,
        ]);
        assert.match(gone.stderr, /NotFound/);
      }
      await cli("uninstall");
    } finally {
      await kubectl.dispose();
      await cluster.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
