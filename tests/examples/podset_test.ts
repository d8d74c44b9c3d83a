import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test("examples/podset.ts --demo-only plays the whole story and exits 0", async () => {
  const out = await runExample("podset.ts", "--demo-only");
  const { stdout, stderr } = out;
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  for (
    const step of [
      "3 pods Running",
      "5 pods Running",
      "replaced",
      "1 pod left",
      "garbage-collected",
    ]
  ) {
    assert.match(stdout, new RegExp(step));
  }
  assert.match(stdout, /podset demo: all 5 steps passed/);
});

Deno.test("examples/apiserver.ts --demo-only serves a CRD and rejects an invalid object", async () => {
  const out = await runExample("apiserver.ts", "--demo-only");
  const { stdout } = out;
  assert.equal(out.code, 0, stdout);
  assert.match(stdout, /color defaulted to red/);
  assert.match(stdout, /spec\.size: Invalid value: 0/);
});
