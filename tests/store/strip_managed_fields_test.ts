import assert from "node:assert/strict";
import { stripManagedFields } from "../../mod.ts";
import { freezeDeep } from "../../lib/testing/mod.ts";

Deno.test("stripManagedFields() drops metadata.managedFields without mutating its input", () => {
  const input = freezeDeep({
    kind: "Pod",
    metadata: { name: "a", labels: { x: "y" }, managedFields: [{ manager: "kubectl" }] },
    spec: { nodeName: "n" },
  });
  const out = stripManagedFields(input);
  assert.deepEqual(out, {
    kind: "Pod",
    metadata: { name: "a", labels: { x: "y" } },
    spec: { nodeName: "n" },
  });
  assert.equal(out.spec, input.spec);
  assert.equal(input.metadata.managedFields.length, 1);
});

Deno.test("stripManagedFields() returns objects without managed fields as they are", () => {
  const input = { metadata: { name: "a" } };
  assert.equal(stripManagedFields(input), input);
});
