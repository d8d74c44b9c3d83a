import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test("examples/webhooks.ts --demo-only plays the webhook story and exits 0", async () => {
  const out = await runExample("webhooks.ts", "--demo-only");
  const { stdout, stderr } = out;
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  for (
    const step of [
      /legacy stored as app\.example\.com\/v1alpha1/,
      /Error from server \(Forbidden\): error when creating "STDIN": admission webhook "vpodset\.app\.example\.com" denied the request: spec\.template\.spec\.containers\[0\]\.resources\.limits: Required value/,
      /selector: \{"matchLabels":\{"app":"web"\}\}/,
      /the controller runs web's 3 pods/,
      /v1 spec\.size 3 = v1alpha1 spec\.replicas 3; stored as app\.example\.com\/v1/,
      /legacy now stored as app\.example\.com\/v1/,
      /controller_runtime_webhook_requests_total\{webhook="\/convert",code="200"\}/,
    ]
  ) assert.match(stdout, step);
  assert.match(stdout, /webhooks demo: all 6 steps passed/);
});
