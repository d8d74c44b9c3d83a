/**
 * The CLI's server modes as kubectl meets them: `--tls` alone writes a kubeconfig kubectl
 * uses as it is (kubectl asks for a username when an HTTPS kubeconfig's user has no
 * credential), and `--token` over plain HTTP is refused with the fix (kubectl never sends a
 * bearer token over `http://`).
 */
import assert from "node:assert/strict";
import { YAML } from "../../../lib/deps.ts";
import { kubectlAvailable } from "../_kubectl.ts";
import { startCli } from "./_cli.ts";

const cliPath = new URL("../../../lib/apiserver/cli.ts", import.meta.url).pathname;

async function kubectl(env: Record<string, string>, args: string[]) {
  const out = await new Deno.Command("kubectl", {
    args,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

type Kubeconfig = { users: { user: { token?: string } }[] };

Deno.test({
  name:
    "apiserver --tls without --token: kubectl uses the kubeconfig as written (a generated token, kept in the data dir across restarts)",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const kubeconfig = `${dir}/kubeconfig`;
    const env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: `${dir}/cache`, HOME: dir };
    const args = ["--tls", "--kubeconfig", kubeconfig, "--data-dir", `${dir}/data`];
    let cli = await startCli(args);
    let token: string | undefined;
    try {
      const ns = await kubectl(env, ["get", "ns", "default", "-o", "name"]);
      assert.equal(ns.code, 0, ns.stderr);
      assert.doesNotMatch(ns.stderr, /Username/);
      assert.equal(ns.stdout.trim(), "namespace/default");
      token = (YAML.parse(await Deno.readTextFile(kubeconfig)) as Kubeconfig).users[0].user.token;
      assert.match(token ?? "", /^[A-Za-z0-9_-]{43}$/);
      // The token is required: without it (CA trusted), the server answers 401.
      const noToken = await kubectl(env, ["get", "ns", "--token", "wrong"]);
      assert.notEqual(noToken.code, 0);
      assert.match(noToken.stderr, /Unauthorized/);
    } finally {
      await cli.kill("SIGTERM");
    }
    cli = await startCli(args);
    try {
      const kept = (YAML.parse(await Deno.readTextFile(kubeconfig)) as Kubeconfig).users[0].user;
      assert.equal(kept.token, token, "the data dir keeps the token across restarts");
      const ns = await kubectl(env, ["get", "ns", "default", "-o", "name"]);
      assert.equal(ns.code, 0, ns.stderr);
    } finally {
      await cli.kill("SIGTERM");
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("apiserver --token over plain HTTP is refused with a message that says to add --tls", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cliPath, "--token", "s3cret", "--port", "0"],
    signal: AbortSignal.timeout(20_000), // a server that starts instead of refusing is killed
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 2, stderr);
  assert.match(
    stderr,
    /--token needs --tls: kubectl never sends a bearer token over plain http:\/\//,
  );
  assert.match(stderr, /add --tls/);
});
