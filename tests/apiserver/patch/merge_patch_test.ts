import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { Json } from "../../../mod.ts";
import { applyMergePatch, createMergePatch } from "../../../lib/apiserver/patch/merge_patch.ts";
import { deepFreeze, jsonObject, jsonValue } from "./_helpers.ts";

/** Removes `null` members of objects (outside arrays), which merge patch cannot store. */
function withoutNullMembers(v: Json): Json {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const out: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) {
    if (x !== null) {
      Object.defineProperty(out, k, {
        value: withoutNullMembers(x),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

Deno.test("applyMergePatch() merges objects, deletes on null and replaces arrays", () => {
  const doc = deepFreeze({
    metadata: { labels: { env: "a", tier: "x" } },
    spec: { l: [1, 2], n: 1 },
  });
  assert.deepEqual(
    applyMergePatch(doc, { metadata: { labels: { env: null, tier: "web" } }, spec: { l: [3] } }),
    { metadata: { labels: { tier: "web" } }, spec: { l: [3], n: 1 } },
  );
});

Deno.test("applyMergePatch() replaces the target with a non-object patch", () => {
  assert.deepEqual(applyMergePatch({ a: 1 }, [1]), [1]);
  assert.equal(applyMergePatch({ a: 1 }, "x"), "x");
  assert.equal(applyMergePatch({ a: 1 }, null), null);
  assert.deepEqual(applyMergePatch("x", { a: { b: null, c: 1 } }), { a: { c: 1 } });
});

Deno.test("applyMergePatch() passes the RFC 7386 appendix examples", () => {
  const cases: [Json, Json, Json][] = [
    [{ a: "b" }, { a: "c" }, { a: "c" }],
    [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    [{ a: "b" }, { a: null }, {}],
    [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
    [{ a: ["b"] }, { a: "c" }, { a: "c" }],
    [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
    [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    [["a", "b"], ["c", "d"], ["c", "d"]],
    [{ a: "b" }, ["c"], ["c"]],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: "b", c: null }, { a: "b" }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [doc, patch, want] of cases) assert.deepEqual(applyMergePatch(doc, patch), want);
});

Deno.test("createMergePatch() produces the minimal patch", () => {
  assert.deepEqual(createMergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 5 } }), {
    b: { c: 5, d: null },
  });
  assert.deepEqual(createMergePatch({ a: { b: [1] } }, { a: { b: [1] } }), {});
  assert.deepEqual(createMergePatch({ a: 1 }, [1]), [1]);
});

Deno.test("applyMergePatch(a, createMergePatch(a, b)) equals b when b stores no null members", () => {
  const value = fc.oneof(jsonObject.map((o) => o as Json), jsonValue);
  fc.assert(
    fc.property(value, value, (a, b0) => {
      const b = withoutNullMembers(b0);
      const patch = createMergePatch(deepFreeze(a), deepFreeze(b));
      assert.deepEqual(applyMergePatch(a, deepFreeze(patch)), b);
    }),
    { numRuns: 300 },
  );
});

Deno.test("applyMergePatch() with an empty object patch is the identity on objects", () => {
  fc.assert(
    fc.property(jsonObject, (a) => assert.deepEqual(applyMergePatch(deepFreeze(a), {}), a)),
    { numRuns: 100 },
  );
});
