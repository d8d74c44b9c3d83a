/**
 * `kubefold create api` for a second version and `kubefold create webhook --conversion` as a
 * user runs them: the author renames a field in v2 and fills in the scaffolded conversion, the
 * generated project's tests pass, and under `kubefold run` the real kubectl creates a
 * HelloWorld as v1 and reads it as v2 with the field renamed (and the other way round).
 */
import assert from "node:assert/strict";
import { createKubectl } from "../apiserver/_kubectl.ts";
import { cli, inProject, repoUrl, runInProject } from "./_cli.ts";
import { renameReplicasToSize } from "../../examples/_rename_replicas_to_size.ts";

const decoder = new TextDecoder();
const kind = ["--group", "myapp", "--kind", "HelloWorld"];

const helloWorld = (version: string, name: string, spec: Record<string, unknown>) =>
  JSON.stringify({
    apiVersion: `myapp.example.com/${version}`,
    kind: "HelloWorld",
    metadata: { name, namespace: "default" },
    spec: { ...spec, template: { spec: { containers: [{ name: "web", image: "nginx" }] } } },
  });

Deno.test({
  name:
    "kubefold create api (a second version) + create webhook --conversion: the author fills in a rename, the project's tests pass, and kubectl creates v1 and reads v2 under kubefold run",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const p = `${dir}/hello-op`;
    try {
      const init = await cli(["init", p, "--domain", "example.com", "--kubefold-url", repoUrl]);
      assert.equal(init.code, 0, init.err);
      const v1 = await inProject(p, ["create", "api", ...kind, "--version", "v1"]);
      assert.equal(v1.code, 0, v1.err);
      const withController = await cli([
        "create",
        "api",
        ...kind,
        "--version",
        "v2",
        "--controller",
        "--dir",
        p,
      ]);
      assert.match(
        withController.err,
        /HelloWorld has its controller \(on v1\).*--controller=false/,
      );
      const alone = await cli([
        "create",
        "webhook",
        ...kind,
        "--version",
        "v1",
        "--conversion",
        "--dir",
        p,
      ]);
      assert.match(alone.err, /HelloWorld has only v1: add a version first/);
      const v2 = await inProject(p, [
        "create",
        "api",
        ...kind,
        "--version",
        "v2",
        "--resource",
        "--controller=false",
      ]);
      assert.equal(v2.code, 0, v2.err);
      assert.match(v2.out, /created controllers\/helloworld\/types_v2\.ts/);
      const v3 = await cli([
        "create",
        "webhook",
        ...kind,
        "--version",
        "v1",
        "--conversion",
        "--spoke",
        "v2,v3",
        "--dir",
        p,
      ]);
      assert.match(v3.err, /HelloWorld has no version v3 \(it has v1, v2\)/);

      const hooks = await inProject(p, [
        "create",
        "webhook",
        ...kind,
        "--version",
        "v1",
        "--conversion",
        "--spoke",
        "v2",
      ]);
      assert.equal(hooks.code, 0, hooks.err);
      const conversion = await Deno.readTextFile(`${p}/controllers/helloworld/conversion.ts`);
      assert.match(conversion, /TODO: convert the fields that differ:\n.*none yet/);
      const crd = await Deno.readTextFile(
        `${p}/config/crd/bases/myapp.example.com_helloworlds.yaml`,
      );
      assert.match(crd, /- name: v1\n\s+served: true\n\s+storage: true/);
      assert.match(crd, /- name: v2\n\s+served: true\n\s+storage: false/);
      assert.match(
        crd,
        /conversion:\n\s+strategy: Webhook\n[^]*path: \/convert-myapp-example-com-helloworld\n/,
      );
      assert.match(
        await Deno.readTextFile(`${p}/operator.ts`),
        /webhooks: \[\n {4}helloWorldConversionWebhook,\n {4}\/\/ kubefold:scaffold:webhooks/,
      );

      await renameReplicasToSize(p);
      const manifests = await inProject(p, ["manifests"]);
      assert.equal(manifests.code, 0, manifests.err);
      const tested = await new Deno.Command(Deno.execPath(), {
        args: ["test", "-A"],
        cwd: p,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const testOut = decoder.decode(tested.stdout) + decoder.decode(tested.stderr);
      assert.equal(tested.code, 0, testOut);
      assert.match(testOut, /HelloWorld v2 -> v1 -> v2 keeps every field \.\.\. ok/);
      assert.match(testOut, /ok \| 5 passed \| 0 failed/);

      const kubeconfigOut = `${dir}/kubeconfig.yaml`;
      const run = await runInProject(p, kubeconfigOut);
      const kubectl = await createKubectl(run.kubeconfig);
      try {
        const made = await kubectl.run(["apply", "-f", "-"], {
          stdin: helloWorld("v1", "one", { replicas: 2 }),
        });
        assert.equal(made.code, 0, made.stderr);
        const asV2 = await kubectl.run([
          "get",
          "helloworlds.v2.myapp.example.com",
          "one",
          "-o",
          "jsonpath={.apiVersion} {.spec.size} {.spec.replicas}",
        ]);
        assert.equal(asV2.stdout.trim(), "myapp.example.com/v2 2", asV2.stderr);
        const madeV2 = await kubectl.run(["apply", "-f", "-"], {
          stdin: helloWorld("v2", "two", { size: 3 }),
        });
        assert.equal(madeV2.code, 0, madeV2.stderr);
        const asV1 = await kubectl.run([
          "get",
          "helloworlds.v1.myapp.example.com",
          "two",
          "-o",
          "jsonpath={.spec.replicas}",
        ]);
        assert.equal(asV1.stdout, "3", asV1.stderr);
      } finally {
        await kubectl.dispose();
        assert.equal(await run.stop(), 0, run.seen);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "kubefold create api --storage moves the storage version; create webhook --conversion defaults its spokes and warns of a hub that is not stored",
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
      assert.equal((await inProject(p, ["create", "api", ...kind, "--version", "v1"])).code, 0);
      const v2 = await inProject(p, ["create", "api", ...kind, "--version", "v2", "--storage"]);
      assert.equal(v2.code, 0, v2.err);
      const crd = await Deno.readTextFile(
        `${p}/config/crd/bases/myapp.example.com_helloworlds.yaml`,
      );
      assert.match(crd, /- name: v1\n\s+served: true\n\s+storage: false/);
      assert.match(crd, /- name: v2\n\s+served: true\n\s+storage: true/);
      const hooks = await inProject(p, [
        "create",
        "webhook",
        ...kind,
        "--version",
        "v1",
        "--conversion",
      ]);
      assert.equal(hooks.code, 0, hooks.err);
      assert.match(hooks.err, /warning: the hub v1 is not HelloWorld's storage version \(v2\)/);
      assert.match(
        await Deno.readTextFile(`${p}/controllers/helloworld/conversion.ts`),
        /conversions: \[helloWorldV2Conversion\]/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
