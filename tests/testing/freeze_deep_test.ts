import assert from "node:assert/strict";
import { freezeDeep } from "../../lib/testing/mod.ts";

Deno.test("freezeDeep() makes nested mutation throw", () => {
  const o = freezeDeep({ a: { b: [1, { c: 2 }] } });
  assert.throws(() => {
    (o.a.b[1] as { c: number }).c = 3;
  }, TypeError);
  assert.throws(() => (o.a.b as number[]).push(3), TypeError);
  assert.equal(freezeDeep(5), 5);
});
