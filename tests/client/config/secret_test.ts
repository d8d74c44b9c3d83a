import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { Secret } from "../../../mod.ts";

Deno.test("Secret prints as <redacted> through JSON, inspect, String and templates", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 12 }).map((s) => `tok-${s}`), (value) => {
      const s = new Secret(value);
      const holder = { nested: { token: s }, list: [s] };
      for (
        const text of [
          JSON.stringify(holder),
          Deno.inspect(holder, { depth: 10 }),
          String(s),
          `${s}`,
        ]
      ) {
        assert.ok(!text.includes(value));
        assert.ok(text.includes("<redacted>"));
      }
      assert.equal(s.reveal(), value);
    }),
    { numRuns: 50 },
  );
});

Deno.test("Secret.equals compares values without revealing them", () => {
  assert.ok(new Secret("a").equals(new Secret("a")));
  assert.ok(!new Secret("a").equals(new Secret("b")));
});
