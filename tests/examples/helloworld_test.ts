import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test({
  name: "examples/helloworld.ts --demo-only walks the guide's story (init to undeploy) and exits 0",
  fn: async () => {
    const out = await runExample("helloworld.ts", "--demo-only");
    const { stdout, stderr } = out;
    assert.equal(out.code, 0, `${stdout}\n${stderr}`);
    for (
      const step of [
        "kubefold init",
        "create api",
        "- helloworlds/status",
        "kubectl get crd helloworlds.myapp.example.com",
        "helloworld-sample has 2 Running pods",
        "2 manager pods Running and Ready",
        "holds the lease",
        "the deployed operator runs 3 pods",
        '"msg":"applying plan"',
        "nothing is left",
      ]
    ) {
      assert.ok(stdout.includes(step), `missing "${step}" in\n${stdout}`);
    }
    assert.match(stdout, /helloworld demo: all 10 steps passed/);
  },
});
