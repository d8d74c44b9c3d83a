/**
 * kube's reinvocation bookkeeping as a fold: the chain runs again iff a webhook changed the
 * object, and the second pass calls exactly the IfNeeded webhooks followed by a change (a
 * later webhook's, or the in-tree plugins' second run).
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  afterBuiltins,
  afterWebhook,
  noReinvocation,
} from "../../../lib/apiserver/admission/reinvocation.ts";

Deno.test("reinvocation: the second pass calls the IfNeeded webhooks a later change followed", () => {
  const call = fc.record({ ifNeeded: fc.boolean(), changed: fc.boolean() });
  fc.assert(fc.property(fc.array(call, { maxLength: 8 }), fc.boolean(), (calls, builtins) => {
    let r = noReinvocation;
    calls.forEach((c, i) => r = afterWebhook(r, `w${i}`, c.ifNeeded, c.changed));
    const should = calls.some((c) => c.changed);
    assert.equal(r.shouldReinvoke, should);
    r = afterBuiltins(r, builtins);
    const expected = calls.flatMap((c, i) =>
      c.ifNeeded && (builtins || calls.slice(i + 1).some((l) => l.changed)) ? [`w${i}`] : []
    );
    assert.deepEqual([...r.reinvoke].sort(), expected.sort());
  }));
});

Deno.test("reinvocation: a webhook's own change does not reinvoke it", () => {
  const r = afterWebhook(noReinvocation, "a", true, true);
  assert.equal(r.shouldReinvoke, true);
  assert.deepEqual([...r.reinvoke], []);
  assert.deepEqual([...afterBuiltins(r, false).reinvoke], []);
  assert.deepEqual([...afterBuiltins(r, true).reinvoke], ["a"]);
});
