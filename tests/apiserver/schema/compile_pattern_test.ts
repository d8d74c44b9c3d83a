import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { compilePattern } from "../../../lib/apiserver/schema/compile_pattern.ts";

const matches = (pattern: string, s: string): boolean => {
  const p = compilePattern(pattern);
  assert.equal(p.type, "ok", `pattern ${pattern} should compile`);
  return p.type === "ok" && p.regexp.test(s);
};

Deno.test("compilePattern() matches unanchored, as Go's regexp.MatchString", () => {
  assert.ok(matches("b", "abc"));
  assert.ok(!matches("^b", "abc"));
});

Deno.test("compilePattern() turns a leading (?i) into the i flag", () => {
  const p = compilePattern("(?i)^abc$");
  assert.equal(p.type, "ok");
  assert.ok(p.type === "ok" && p.regexp.flags.includes("i") && p.regexp.test("ABC"));
});

Deno.test("compilePattern() applies a mid-pattern (?i) to the rest of its group only", () => {
  assert.ok(matches("^(?i)(abort|warn)?$", "WaRn"));
  assert.ok(matches("^a(?i)b$", "aB"));
  assert.ok(!matches("^a(?i)b$", "AB"));
  assert.ok(matches("^(x(?i)y|z)$", "Z"), "flags persist across | up to the group's end");
  assert.ok(!matches("^(x(?i)y|z)Q$", "zq"), "and end with the group");
});

Deno.test("compilePattern() supports (?i:...) groups and (?P<name>...)", () => {
  assert.ok(matches("^(?i:ab)c$", "ABc"));
  assert.ok(!matches("^(?i:ab)c$", "ABC"));
  assert.ok(matches("^(?P<word>[a-z]+)$", "hello"));
});

Deno.test("compilePattern() translates \\z, \\A, \\Q...\\E, octal and \\x{...}", () => {
  assert.ok(matches("a\\z", "xa"));
  assert.ok(!matches("a\\z", "a\n"));
  assert.ok(matches("\\Aa", "ab"));
  assert.ok(!matches("\\Ab", "ab"));
  assert.ok(matches("^\\Q*.+\\E$", "*.+"));
  assert.ok(matches("^\\101$", "A"));
  assert.ok(matches("^\\x{1F600}$", "😀"));
});

Deno.test("compilePattern() translates POSIX classes and Unicode classes", () => {
  assert.ok(matches("^[[:alpha:]_]+$", "ab_C"));
  assert.ok(!matches("^[[:digit:]]+$", "1a"));
  assert.ok(matches("^\\pL+$", "héllo"));
  assert.ok(matches("^\\p{Greek}+$", "αβγ"));
  assert.ok(!matches("^\\PL$", "a"));
});

Deno.test("compilePattern() counts code points, so . matches one emoji", () => {
  assert.ok(matches("^.$", "😀"));
  assert.ok(matches("^.{2,}|[^./]$", "😀"));
});

Deno.test("compilePattern() keeps RE2's ASCII \\s", () => {
  assert.ok(matches("^\\s$", " "));
  assert.ok(!matches("^\\s$", "\u00a0"));
});

Deno.test("compilePattern() accepts the escapes real CRDs use", () => {
  assert.ok(matches("^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", "x-`~"));
  assert.ok(matches("^(\\*\\.)?[a-z0-9]+$", "*.abc"));
  assert.ok(matches("^(http(s)?):\\/\\/[a-z]+$", "https://abc"));
  assert.ok(matches("^a{2}$", "aa"));
  assert.ok(matches("^a{$", "a{"), "a lone { is a literal in RE2");
});

Deno.test("compilePattern() reports bad patterns as values, never throws", () => {
  for (const bad of ["(", "[a", "a\\", "(?=a)", "\\1", "(?U)a", "[[:nope:]]", "*"]) {
    const p = compilePattern(bad);
    assert.equal(p.type, "error", bad);
    assert.equal(p.source, bad);
  }
});

Deno.test("compilePattern() never throws on arbitrary strings", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 30 }), (s) => {
      const p = compilePattern(s);
      assert.ok(p.type === "ok" || p.type === "error");
    }),
    { numRuns: 500 },
  );
});

Deno.test("compilePattern() makes an escaped literal match itself", () => {
  const escapeRe2 = (s: string) => s.replace(/[\\^$.|?*+()[\]{}-]/g, (c) => `\\${c}`);
  fc.assert(
    fc.property(fc.string({ maxLength: 20 }), (s) => {
      const p = compilePattern(`^${escapeRe2(s)}$`);
      assert.equal(p.type, "ok");
      assert.ok(p.type === "ok" && p.regexp.test(s));
    }),
    { numRuns: 300 },
  );
});
