import assert from "node:assert/strict";
import { kubectlAvailable } from "../_kubectl.ts";
import { startCli } from "./_cli.ts";

async function kubectl(env: Record<string, string>, args: string[]) {
  const out = await new Deno.Command("kubectl", { args, env, stdout: "piped", stderr: "piped" })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test({
  name:
    "kubectl sees what it created after the CLI is killed and restarted (HTTPS, token, data dir)",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const kubeconfig = `${dir}/kubeconfig`;
    const env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: `${dir}/cache`, HOME: dir };
    const args = [
      "--data-dir",
      `${dir}/data`,
      "--kubeconfig",
      kubeconfig,
      "--token",
      "s3cret",
      "--tls",
    ];
    let cli = await startCli(args);
    assert.match(cli.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    try {
      const made = await kubectl(env, ["create", "configmap", "kept", "--from-literal=k=v"]);
      assert.equal(made.code, 0, made.stderr);
    } finally {
      await cli.kill("SIGKILL");
    }
    cli = await startCli(args); // a new port: the kubeconfig is rewritten, the CA is kept
    try {
      const got = await kubectl(env, ["get", "configmap", "kept", "-o", "jsonpath={.data.k}"]);
      assert.equal(got.code, 0, got.stderr);
      assert.equal(got.stdout, "v");
      const ns = await kubectl(env, ["get", "ns", "-o", "name"]);
      assert.equal(ns.code, 0, ns.stderr);
      assert.deepEqual(ns.stdout.trim().split("\n").sort(), [
        "namespace/default",
        "namespace/kube-node-lease",
        "namespace/kube-public",
        "namespace/kube-system",
      ]);
    } finally {
      await cli.kill("SIGTERM");
    }
  },
});
