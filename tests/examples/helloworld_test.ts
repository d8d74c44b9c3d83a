import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test({
  name:
    "examples/helloworld.ts --demo-only walks the guide's story (init, a v2 with conversion, to undeploy) and exits 0",
  fn: async () => {
    const out = await runExample("helloworld.ts", "--demo-only");
    const { stdout, stderr } = out;
    assert.equal(out.code, 0, `${stdout}\n${stderr}`);
    for (
      const step of [
        "kubefold init",
        "create api",
        "create webhook --conversion",
        "v2 -> v1 -> v2 keep every field",
        "the CRD serves v1 (stored) and v2, converted by the webhook",
        "- helloworlds/status",
        "kubectl get crd helloworlds.myapp.example.com",
        "helloworld-sample has 2 Running pods",
        "kubectl reads helloworld-sample as v2: spec.size 2",
        "kubectl reads it as v1: spec.replicas 3",
        "2 manager pods Running and Ready",
        "holds the lease",
        "the deployed operator runs 3 pods",
        '"msg":"applying plan"',
        "nothing is left",
      ]
    ) {
      assert.ok(stdout.includes(step), `missing "${step}" in\n${stdout}`);
    }
    assert.match(stdout, /helloworld demo: all 11 steps passed/);
  },
});
