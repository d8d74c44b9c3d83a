/**
 * `kubefold run` with webhooks: the runner (what `main.ts` calls) serves the operator's
 * webhooks locally and registers them with the cluster, so the real kubectl's writes go
 * through the local manager's admission and conversion webhooks.
 */
import assert from "node:assert/strict";
import { type Client, connect, E, jsonLogger, type KubeObject, silentLogger } from "../../mod.ts";
import { defineOperator, runOperator } from "../../lib/operator/mod.ts";
import { deployObjects } from "../../lib/cli/commands/cluster_commands.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { podSetController, podSetCrdV1, podSetWebhooks } from "../../controllers/podset/mod.ts";
import { createKubectl } from "../apiserver/_kubectl.ts";
import { podSetJson as podSet } from "../controllers/podset/_manifest.ts";

const op = defineOperator({
  name: "podset-operator",
  image: "example.com/podset-operator:0.1.0",
  crds: [podSetCrdV1],
  controllers: [podSetController],
  webhooks: podSetWebhooks,
});

/** Runs the operator until `body` finishes, then stops it; answers its exit code. */
async function whileRunning(
  args: string[],
  body: (info: { webhookUrl?: string; kubeconfig?: string }) => Promise<void>,
): Promise<number> {
  const abort = new AbortController();
  let failure: unknown;
  const code = await runOperator(op, {
    args,
    logger: Deno.env.get("DEBUG_LOG") ? jsonLogger() : silentLogger,
    signal: abort.signal,
    onReady: (info) => void body(info).catch((e) => (failure = e)).finally(() => abort.abort()),
  });
  if (failure) throw failure;
  return code;
}

Deno.test({
  name:
    "kubefold run --kubeconfig: webhooks registered at the local URL; kubectl is denied with the reasons, defaulted, converted; the configurations removed on exit",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const server = await startApiServer();
    const client = ((await connect({ kubeconfigYaml: server.kubeconfig })) as E.Right<Client>)
      .right;
    const kubectl = await createKubectl(server.kubeconfig);
    const kubeconfig = await Deno.makeTempFile({ suffix: ".yaml" });
    await Deno.writeTextFile(kubeconfig, server.kubeconfig);
    try {
      // kubefold install: the CRDs as the manifests hold them (conversion through the Service).
      for (const crd of deployObjects(op).filter((o) => o.kind === "CustomResourceDefinition")) {
        assert.ok(E.isRight(await client.apply(crd, { fieldManager: "kubefold", force: true })));
      }
      let url = "";
      const code = await whileRunning(["--kubeconfig", kubeconfig], async (info) => {
        url = info.webhookUrl ?? "";
        assert.match(url, /^https:\/\/127\.0\.0\.1:\d+$/);
        const vwc = await kubectl.run([
          "get",
          "validatingwebhookconfiguration",
          "podset-operator-validating-webhook-configuration",
          "-o",
          "jsonpath={.webhooks[0].clientConfig.url}",
        ]);
        assert.equal(vwc.stdout, `${url}/validate-app-example-com-v1-podset`, vwc.stderr);

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
        const got = JSON.parse(
          (await kubectl.run(["get", "podsets.v1alpha1.app.example.com", "web", "-o", "json"]))
            .stdout,
        );
        assert.deepEqual(got.spec.selector, { matchLabels: { app: "web" } }, "defaulted");
        assert.deepEqual(got.spec.template.spec.containers[0].resources.requests, {
          cpu: "200m",
          memory: "128Mi",
        });
        const size = await kubectl.run([
          "get",
          "podsets.v1.app.example.com",
          "web",
          "-o",
          "jsonpath={.spec.size}",
        ]);
        assert.equal(size.stdout, "2", `converted by the local webhook: ${size.stderr}`);
      });
      assert.equal(code, 0);
      for (const kind of ["validating", "mutating"]) {
        const gone = await kubectl.run([
          "get",
          `${kind}webhookconfiguration`,
          `podset-operator-${kind}-webhook-configuration`,
        ]);
        assert.match(gone.stderr, /NotFound/, `${kind} configuration removed on exit`);
      }
      const crd = await client.get<KubeObject & { spec: { conversion?: { webhook?: unknown } } }>(
        { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" },
        "podsets.app.example.com",
      );
      assert.ok(E.isRight(crd));
      assert.deepEqual(
        (crd.right.spec.conversion?.webhook as { clientConfig: { url?: string } }).clientConfig
          .url,
        `${url}/convert`,
        "the conversion stanza stays (None would relabel versions and lose renamed fields)",
      );
    } finally {
      await kubectl.dispose();
      client.close();
      await server.close();
      await Deno.remove(kubeconfig);
    }
  },
});

Deno.test({
  name:
    "kubefold run on the embedded cluster: the operator's webhooks answer kubectl (a PodSet without limits is denied)",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const kubeconfigOut = await Deno.makeTempFile({ suffix: ".yaml" });
    const code = await whileRunning(
      ["--nodes", "0", "--kubeconfig-out", kubeconfigOut],
      async () => {
        const kubectl = await createKubectl(await Deno.readTextFile(kubeconfigOut));
        try {
          const denied = await kubectl.run(["apply", "-f", "-"], { stdin: podSet("bare", {}) });
          assert.match(
            denied.stderr,
            /admission webhook "vpodset\.app\.example\.com" denied the request/,
          );
        } finally {
          await kubectl.dispose();
        }
      },
    );
    assert.equal(code, 0);
    await Deno.remove(kubeconfigOut);
  },
});
