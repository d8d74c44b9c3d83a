import assert from "node:assert/strict";
import { holds } from "./_helpers.ts";

const cases: [string, string, unknown?][] = [
  ["has() is true for a present field and false for an absent one", "has(self.a) && !has(self.b)", {
    a: 1,
  }],
  ["all() holds when every item matches", "self.l.all(x, x > 0)", { l: [1, 2, 3] }],
  ["exists() finds one matching item", "self.l.exists(x, x == 2)", { l: [1, 2, 3] }],
  ["exists_one() is false with two matches", "!self.l.exists_one(x, x > 1)", { l: [1, 2, 3] }],
  ["filter() keeps matching items", "self.l.filter(x, x > 1) == [2, 3]", { l: [1, 2, 3] }],
  ["map() transforms items", "self.l.map(x, x * 2) == [2, 4, 6]", { l: [1, 2, 3] }],
  ["all() over a map iterates its keys", "self.m.all(k, k.startsWith('a'))", {
    m: { ab: 1, ac: 2 },
  }],
  ["matches() uses RE2 semantics (inline flags)", "self.s.matches('^(?i)abc$')", { s: "ABC" }],
  ["matches() is unanchored", "self.s.matches('b')", { s: "abc" }],
  [
    "startsWith/endsWith/contains",
    "self.s.startsWith('a') && self.s.endsWith('c') && self.s.contains('b')",
    {
      s: "abc",
    },
  ],
  ["split() splits on a separator", "self.s.split('/') == ['a', 'b', 'c']", { s: "a/b/c" }],
  ["split() with a limit keeps the rest whole", "self.s.split('/', 2) == ['a', 'b/c']", {
    s: "a/b/c",
  }],
  [
    "lowerAscii/upperAscii only touch ASCII",
    "'ÄbC'.lowerAscii() == 'Äbc' && 'abc'.upperAscii() == 'ABC'",
  ],
  ["trim() drops surrounding whitespace", "'  x \\t'.trim() == 'x'"],
  [
    "replace() replaces all, or up to a limit",
    "'aaa'.replace('a', 'b') == 'bbb' && 'aaa'.replace('a', 'b', 2) == 'bba'",
  ],
  [
    "substring() counts code points",
    "'häll'.substring(1, 3) == 'äl' && 'abc'.substring(1) == 'bc'",
  ],
  [
    "indexOf/lastIndexOf on strings",
    "'abcabc'.indexOf('c') == 2 && 'abcabc'.lastIndexOf('c') == 5 && 'abc'.indexOf('z') == -1",
  ],
  ["indexOf with an offset", "'abcabc'.indexOf('a', 1) == 3"],
  ["charAt() returns one code point", "'aäb'.charAt(1) == 'ä' && 'ab'.charAt(2) == ''"],
  ["join() joins a list of strings", "['a', 'b'].join('-') == 'a-b' && ['a', 'b'].join() == 'ab'"],
  [
    "size() of strings, lists and maps",
    "size(self.s) == 3 && self.l.size() == 2 && size(self.m) == 1",
    {
      s: "abc",
      l: [1, 2],
      m: { a: 1 },
    },
  ],
  [
    "duration() parses Go durations and compares",
    "duration('1h30m') == duration('90m') && duration('1s') < duration('2s')",
  ],
  ["timestamp() compares", "timestamp('2024-01-01T00:00:00Z') < timestamp('2024-01-02T00:00:00Z')"],
  ["in checks list membership", "'b' in self.l && !('z' in self.l)", { l: ["a", "b"] }],
  [
    "isSorted/sum/min/max on lists",
    "[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [3, 1].min() == 1 && [3, 1].max() == 3",
  ],
  ["indexOf on lists", "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2"],
  [
    "find/findAll with a regex",
    "'a1b22'.find('[0-9]+') == '1' && 'a1b22'.findAll('[0-9]+') == ['1', '22']",
  ],
  ["reverse() reverses a string", "'abc'.reverse() == 'cba'"],
  ["integers from JSON are CEL ints", "self.n + 1 == 3 && type(self.n) == int", { n: 2 }],
  ["int and double compare across types", "self.n == 2.0", { n: 2 }],
];

for (const [name, rule, spec] of cases) {
  Deno.test(`CEL library: ${name}`, () => {
    assert.equal(holds(rule, spec ?? {}), true);
  });
}

Deno.test("CEL library: a failing comparison makes the rule fail, not error", () => {
  assert.equal(holds("self.s.startsWith('z')", { s: "abc" }), false);
  assert.equal(holds("self.l.all(x, x > 1)", { l: [1, 2] }), false);
});
