import assert from "node:assert/strict";
import { applyDelta } from "../../lib/store/apply_delta.ts";

Deno.test("applyDelta() sets on Added/Updated, deletes on Deleted and ignores Synced", () => {
  const a1 = { metadata: { namespace: "n", name: "a", resourceVersion: "1" } };
  const a2 = { metadata: { namespace: "n", name: "a", resourceVersion: "2" } };
  const map = new Map<string, typeof a1>();
  applyDelta(map, { type: "Added", object: a1 });
  assert.equal(map.get("n/a"), a1);
  applyDelta(map, { type: "Updated", old: a1, object: a2 });
  assert.equal(map.get("n/a"), a2);
  applyDelta(map, { type: "Synced", resourceVersion: "2" });
  assert.equal(map.size, 1);
  applyDelta(map, { type: "Deleted", object: a2, finalStateUnknown: false });
  assert.equal(map.size, 0);
});
