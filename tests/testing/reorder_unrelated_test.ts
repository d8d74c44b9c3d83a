import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type KubeObject, objectKey, type WatchEvent } from "../../mod.ts";
import { reorderUnrelated, scriptFromChoices } from "../../lib/testing/mod.ts";

const keyed = (e: WatchEvent<KubeObject>) => "object" in e ? objectKey(e.object) : e.type;

Deno.test("reorderUnrelated() keeps the events, each key's order and the framing", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { maxLength: 60, size: "max" }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (choices, shuffle) => {
        const events = scriptFromChoices(choices).reconnect().events();
        const out = reorderUnrelated(events, shuffle);
        assert.equal(out.length, events.length);
        assert.deepEqual(new Set(out), new Set(events));
        const perKey = (es: readonly WatchEvent<KubeObject>[]) => {
          const m = new Map<string, WatchEvent<KubeObject>[]>();
          for (const e of es) m.set(keyed(e), [...(m.get(keyed(e)) ?? []), e]);
          return m;
        };
        assert.deepEqual(perKey(out), perKey(events));
        events.forEach((e, i) => {
          if (e.type !== "Apply" && e.type !== "Delete") assert.equal(out[i], e);
        });
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("reorderUnrelated() moves an event of another key ahead", () => {
  const apply = (name: string): WatchEvent<KubeObject> => ({
    type: "Apply",
    object: { metadata: { name } },
  });
  const out = reorderUnrelated([apply("a"), apply("a"), apply("b")], [1]);
  assert.deepEqual(out.map(keyed), ["b", "a", "a"]);
  assert.deepEqual(reorderUnrelated([apply("a"), apply("b")], []).map(keyed), ["a", "b"]);
});
