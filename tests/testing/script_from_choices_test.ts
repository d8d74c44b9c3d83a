import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { scriptFromChoices } from "../../lib/testing/mod.ts";

Deno.test("scriptFromChoices() is deterministic and always starts with a list", () => {
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 40 }), (choices) => {
      const a = scriptFromChoices(choices).events();
      assert.deepEqual(scriptFromChoices(choices).events(), a);
      assert.equal(a[0].type, "Init");
    }),
    { numRuns: 100 },
  );
});

Deno.test("scriptFromChoices() produces disconnects, 410s and deletions given enough steps", () => {
  const types = new Set<string>();
  fc.assert(
    fc.property(fc.array(fc.nat(), { minLength: 30, maxLength: 60 }), (choices) => {
      for (const e of scriptFromChoices(choices).reconnect().events()) types.add(e.type);
    }),
    { numRuns: 30, seed: 1 },
  );
  assert.deepEqual([...types].sort(), [
    "Apply",
    "Bookmark",
    "Delete",
    "Init",
    "InitApply",
    "InitDone",
  ]);
});
