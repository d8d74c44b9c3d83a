import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  type Condition,
  type ConditionInput,
  findCondition,
  formatTime,
  setCondition,
} from "../../mod.ts";

const inputArb: fc.Arbitrary<ConditionInput> = fc.record({
  type: fc.constantFrom("Ready", "Available", "Degraded"),
  status: fc.constantFrom("True" as const, "False" as const, "Unknown" as const),
  reason: fc.constantFrom("A", "B"),
  message: fc.constantFrom("", "m"),
});
const timeArb = fc.integer({ min: 0, max: 1e12 });
const listArb = fc.array(fc.tuple(inputArb, timeArb)).map((xs) =>
  xs.reduce<Condition[]>((cs, [c, t]) => setCondition(cs, c, t), [])
);

Deno.test("setCondition() is idempotent: setting the same condition again changes nothing", () => {
  fc.assert(
    fc.property(listArb, inputArb, timeArb, timeArb, (cs, c, t1, t2) => {
      const once = setCondition(cs, c, t1);
      assert.deepEqual(setCondition(once, c, t2), once);
    }),
    { numRuns: 200 },
  );
});

Deno.test("setCondition() moves lastTransitionTime only when the status flips", () => {
  fc.assert(
    fc.property(listArb, inputArb, timeArb, (cs, c, now) => {
      const before = findCondition(cs, c.type);
      const after = findCondition(setCondition(cs, c, now), c.type);
      assert.ok(after !== undefined);
      assert.deepEqual({ ...after, lastTransitionTime: "" }, { ...c, lastTransitionTime: "" });
      const expected = before !== undefined && before.status === c.status
        ? before.lastTransitionTime
        : formatTime(now);
      assert.equal(after.lastTransitionTime, expected);
    }),
    { numRuns: 200 },
  );
});

Deno.test("setCondition() keeps the other conditions and their order, and does not mutate", () => {
  fc.assert(
    fc.property(listArb, inputArb, timeArb, (cs, c, now) => {
      const copy = structuredClone(cs);
      const next = setCondition(cs, c, now);
      assert.deepEqual(cs, copy);
      const others = (xs: Condition[]) => xs.filter((x) => x.type !== c.type);
      assert.deepEqual(others(next), others(cs));
      const i = cs.findIndex((x) => x.type === c.type);
      assert.equal(next.findIndex((x) => x.type === c.type), i < 0 ? cs.length : i);
    }),
    { numRuns: 200 },
  );
});
