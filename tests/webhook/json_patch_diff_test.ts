import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { createJsonPatch } from "../../mod.ts";
import { applyJsonPatch } from "../../lib/apiserver/patch/json_patch.ts";
import type { Json } from "../../lib/core/object.ts";

Deno.test("createJsonPatch() turns any JSON value into any other (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      const patched = applyJsonPatch(a as Json, createJsonPatch(a, b));
      assert.equal(patched._tag, "Right");
      // As JSON: -0 and 0 are one value on the wire (fast-check generates -0).
      const asJson = (v: unknown) => JSON.parse(JSON.stringify(v));
      assert.deepEqual(patched._tag === "Right" && asJson(patched.right), asJson(b));
    }),
    { numRuns: 1000 },
  );
});

Deno.test("createJsonPatch() patches the deepest differing members and escapes keys", () => {
  const ops = createJsonPatch(
    { metadata: { labels: { "a/b": "1", "c~d": "x" } }, spec: { list: [1, 2, 3] } },
    { metadata: { labels: { "a/b": "2" } }, spec: { list: [1, 5] } },
  );
  assert.deepEqual(ops, [
    { op: "remove", path: "/metadata/labels/c~0d" },
    { op: "replace", path: "/metadata/labels/a~1b", value: "2" },
    { op: "replace", path: "/spec/list/1", value: 5 },
    { op: "remove", path: "/spec/list/2" },
  ]);
});

Deno.test("createJsonPatch() treats undefined members as absent", () => {
  assert.deepEqual(createJsonPatch({ a: 1 }, { a: 1, b: undefined }), []);
  assert.deepEqual(createJsonPatch({ a: 1, b: undefined }, { a: 1, b: 2 }), [
    { op: "add", path: "/b", value: 2 },
  ]);
});
