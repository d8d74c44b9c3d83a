import assert from "node:assert/strict";
import { splitDiagnostics } from "./doc_lint.ts";

Deno.test("deno doc --lint finds nothing in kubefold's own declarations on every entry point", async () => {
  const { own } = await splitDiagnostics();
  assert.deepEqual(own.map((d) => `${d.code} ${d.location}: ${d.message}`), []);
});
