import assert from "node:assert/strict";
import { Expectations, isMet } from "../../lib/apply/expectations.ts";

Deno.test("a present expectation is met once the cache has seen past the write's resourceVersion", () => {
  const e = { type: "present" as const, cache: "v1/Pod", key: "ns/p", resourceVersion: "100" };
  assert.equal(
    isMet(e, (_c, key) => (key ? undefined : { resourceVersion: "99", terminating: false })),
    false,
  );
  assert.equal(
    isMet(e, (_c, key) => (key ? undefined : { resourceVersion: "100", terminating: false })),
    true,
  );
  assert.equal(
    isMet(e, (_c, key) => (key ? undefined : { resourceVersion: "1000", terminating: false })),
    true,
  );
  assert.equal(
    isMet(e, (_c, key) => (key ? undefined : { resourceVersion: "abc", terminating: false })),
    false,
  );
  assert.equal(isMet(e, (_c, key) => (key ? { terminating: false } : undefined)), true);
});

Deno.test("Expectations block a key until met or expired, then forget them", () => {
  const x = new Expectations();
  x.expect("ns/a", [{ type: "gone", cache: "v1/Pod", key: "ns/p", uid: "u" }], 1000);
  const present = () => ({ uid: "u", terminating: false });
  assert.equal(x.ready("ns/a", present, 0), false);
  assert.equal(x.remainingMs("ns/a", 400), 600);
  assert.equal(x.ready("ns/a", () => ({ uid: "u", terminating: true }), 500), true);
  assert.equal(x.ready("ns/a", present, 600), true, "met expectations are dropped");
  x.expect("ns/b", [{ type: "changed", cache: "c", key: "ns/b", beforeRv: "5" }], 10);
  assert.equal(x.ready("ns/b", () => ({ resourceVersion: "5", terminating: false }), 0), false);
  assert.equal(
    x.ready("ns/b", () => ({ resourceVersion: "5", terminating: false }), 10),
    true,
    "expired",
  );
});
