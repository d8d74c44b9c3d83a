/**
 * `kubefold create webhook` and `kubefold run` as a user runs them: the scaffolded webhooks'
 * property tests pass, manifests gain config/webhook, and `kubefold run` on the embedded
 * cluster makes the real kubectl see the validating webhook's denial and the defaulting
 * webhook's change.
 */
import assert from "node:assert/strict";
import { createKubectl } from "../apiserver/_kubectl.ts";
import { cli, inProject, repoUrl, runInProject } from "./_cli.ts";

const decoder = new TextDecoder();

const api = ["--group", "myapp", "--version", "v1", "--kind", "HelloWorld"];
const helloWorld = (name: string, containers: string[], labels?: Record<string, string>) =>
  JSON.stringify({
    apiVersion: "myapp.example.com/v1",
    kind: "HelloWorld",
    metadata: { name, namespace: "default" },
    spec: {
      replicas: 1,
      template: {
        ...(labels ? { metadata: { labels } } : {}),
        spec: { containers: containers.map((name) => ({ name, image: "nginx" })) },
      },
    },
  });

Deno.test({
  name:
    "kubefold create webhook: scaffolded defaulting and validating webhooks (property tests pass), config/webhook; kubefold run serves them to kubectl on the embedded cluster",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const p = `${dir}/hello-op`;
    try {
      assert.equal(
        (await cli(["init", p, "--domain", "example.com", "--kubefold-url", repoUrl])).code,
        0,
      );
      const early = await cli(["create", "webhook", ...api, "--defaulting", "--dir", p]);
      assert.equal(early.code, 1);
      assert.match(
        early.err,
        /no API HelloWorld \(myapp\.example\.com\/v1\): run kubefold create api first/,
      );
      const made = await inProject(p, ["create", "api", ...api]);
      assert.equal(made.code, 0, made.err);
      const none = await cli(["create", "webhook", ...api, "--dir", p]);
      assert.match(
        none.err,
        /choose --defaulting, --programmatic-validation, --conversion or more/,
      );

      const hooks = await inProject(p, [
        "create",
        "webhook",
        ...api,
        "--defaulting",
        "--programmatic-validation",
      ]);
      assert.equal(hooks.code, 0, hooks.err);
      const operator = await Deno.readTextFile(`${p}/operator.ts`);
      assert.ok(
        operator.includes(
          "webhooks: [\n    ...helloWorldWebhooks,\n    // kubefold:scaffold:webhooks",
        ),
        operator,
      );
      const config = await Deno.readTextFile(`${p}/config/webhook/manifests.yaml`);
      assert.match(config, /path: \/mutate-myapp-example-com-v1-helloworld/);
      assert.match(config, /path: \/validate-myapp-example-com-v1-helloworld/);
      assert.match(
        await Deno.readTextFile(`${p}/config/default/kustomization.yaml`),
        /- \.\.\/webhook/,
      );
      assert.equal((await inProject(p, ["manifests", "--check"])).code, 0);
      const again = await cli(["create", "webhook", ...api, "--defaulting", "--dir", p]);
      assert.match(again.err, /controllers\/helloworld\/webhooks\.ts exists/);

      const tested = await new Deno.Command(Deno.execPath(), {
        args: ["test", "-A", "tests/helloworld/webhooks_test.ts"],
        cwd: p,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const testOut = decoder.decode(tested.stdout) + decoder.decode(tested.stderr);
      assert.equal(tested.code, 0, testOut);
      assert.match(testOut, /ok \| 2 passed \| 0 failed/);

      // kubefold run: the manager and its webhooks against a new embedded cluster.
      const kubeconfigOut = `${dir}/kubeconfig.yaml`;
      const run = await runInProject(p, kubeconfigOut, ["--nodes", "1"]);
      assert.match(run.seen, /"msg":"webhooks registered","url":"https:\/\/127\.0\.0\.1:\d+"/);
      const kubectl = await createKubectl(run.kubeconfig);
      try {
        const denied = await kubectl.run(["apply", "-f", "-"], {
          stdin: helloWorld("twice", ["web", "web"]),
        });
        assert.notEqual(denied.code, 0);
        assert.match(
          denied.stderr,
          /admission webhook "vhelloworld\.myapp\.example\.com" denied the request: spec\.template\.spec\.containers\[1\]\.name: Duplicate value: "web"/,
        );
        const ok = await kubectl.run(["apply", "-f", "-"], { stdin: helloWorld("hi", ["web"]) });
        assert.equal(ok.code, 0, ok.stderr);
        const labels = await kubectl.run([
          "get",
          "helloworld",
          "hi",
          "-o",
          "jsonpath={.spec.template.metadata.labels}",
        ]);
        assert.equal(labels.stdout, '{"app":"hi"}', "defaulted by the mutating webhook");
      } finally {
        await kubectl.dispose();
        assert.equal(await run.stop(), 0, run.seen);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
