import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { childNames, hashSuffix, MAX_NAME_BASE_LENGTH } from "../../mod.ts";

const right = <R>(e: { _tag: string; right?: R }): R => {
  assert.equal(e._tag, "Right");
  return (e as { right: R }).right;
};

Deno.test("childNames() returns `count` distinct free names, the same ones for the same input", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.nat(10),
      fc.uniqueArray(fc.nat(20), { maxLength: 15 }),
      (seed, count, takenIdx) => {
        const suffix = (i: number) => hashSuffix(seed, i);
        const taken = new Set(takenIdx.map((i) => `web-${suffix(i)}`));
        const opts = { suffix, taken: (n: string) => taken.has(n) };
        const names = right(childNames("web", count, opts));
        assert.equal(names.length, count);
        assert.equal(new Set(names).size, count);
        for (const n of names) assert.ok(!taken.has(n) && n.startsWith("web-"));
        assert.deepEqual(right(childNames("web", count, opts)), names);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("childNames() takes the first free candidates in order", () => {
  const names = right(childNames("web", 2, {
    suffix: (i) => `n${i}`,
    taken: (n) => n === "web-n0" || n === "web-n2",
  }));
  assert.deepEqual(names, ["web-n1", "web-n3"]);
});

Deno.test("childNames() cuts a long base so that names fit a DNS label", () => {
  const names = right(
    childNames("x".repeat(100), 1, { suffix: () => "abcde", taken: () => false }),
  );
  assert.equal(names[0].length, MAX_NAME_BASE_LENGTH + 6);
  assert.ok(names[0].length <= 63);
});

Deno.test("childNames() fails as a value when the suffix source cannot give enough free names", () => {
  const r = childNames("web", 2, { suffix: () => "same", taken: () => false });
  assert.equal(r._tag, "Left");
  if (r._tag === "Left") {
    assert.equal(r.left.type, "terminal");
    assert.match(r.left.message, /Cannot name children of web/);
  }
});

Deno.test("hashSuffix() gives 5 characters from the generateName alphabet, rarely colliding", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const s = hashSuffix("uid-1", i);
    assert.match(s, /^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    seen.add(s);
  }
  assert.ok(seen.size >= 195, `only ${seen.size} distinct suffixes of 200`);
  assert.notEqual(hashSuffix("uid-1", 0), hashSuffix("uid-2", 0));
});
