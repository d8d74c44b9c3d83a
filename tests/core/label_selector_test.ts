import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  formatLabelSelector,
  fromLabelSelectorObject,
  type LabelRequirement,
  type LabelSelector,
  matchesLabels,
  parseLabelSelector,
} from "../../mod.ts";

const parsed = (s: string): LabelSelector => {
  const r = parseLabelSelector(s);
  if (r._tag === "Left") throw new Error(`unexpected error for ${s}: ${r.left}`);
  return r.right;
};
const failed = (s: string): string => {
  const r = parseLabelSelector(s);
  if (r._tag === "Right") throw new Error(`expected an error for ${JSON.stringify(s)}`);
  return r.left;
};

Deno.test("parseLabelSelector() reads every operator and sorts requirements by key", () => {
  assert.deepEqual(parsed("z=1, y==2,x!=3,w in (b, a,b),v notin (c),u,!t,s>5,r<7"), [
    { type: "lessThan", key: "r", value: 7 },
    { type: "greaterThan", key: "s", value: 5 },
    { type: "doesNotExist", key: "t" },
    { type: "exists", key: "u" },
    { type: "notIn", key: "v", values: ["c"] },
    { type: "in", key: "w", values: ["a", "b"] },
    { type: "notEquals", key: "x", value: "3" },
    { type: "equals", key: "y", value: "2" },
    { type: "equals", key: "z", value: "1" },
  ]);
});

Deno.test("parseLabelSelector() accepts empty input, empty values and prefixed keys", () => {
  assert.deepEqual(parsed(""), []);
  assert.deepEqual(parsed("   "), []);
  assert.deepEqual(parsed("a="), [{ type: "equals", key: "a", value: "" }]);
  assert.deepEqual(parsed("a in (x,)"), [{ type: "in", key: "a", values: ["", "x"] }]);
  assert.deepEqual(parsed("app.kubernetes.io/name = web"), [
    { type: "equals", key: "app.kubernetes.io/name", value: "web" },
  ]);
});

Deno.test("parseLabelSelector() reports malformed selectors like apimachinery", () => {
  assert.equal(
    failed("a b"),
    "unable to parse requirement: found 'b', expected: [!= == = in notin > <]",
  );
  assert.equal(failed("a=b,"), "found 'end of string', expected: identifier after ','");
  assert.equal(failed(",a"), "found ',', expected: !, identifier, or 'end of string'");
  assert.equal(failed("a=b c"), "found 'c', expected: ',' or 'end of string'");
  assert.match(failed("a in ()"), /values set can't be empty/);
  assert.match(failed("a in b"), /expected: '\('/);
  assert.match(failed("a in (b"), /unable to parse requirement: found 'end of string'/);
  assert.match(failed("a>b"), /must be an integer/);
  assert.match(failed("a b=c"), /unable to parse requirement/);
  assert.match(
    failed("-a=b"),
    /^unable to parse requirement: key: Invalid value: "-a": name part must consist/,
  );
  assert.match(failed("Foo.com/a=b"), /prefix part a lowercase RFC 1123 subdomain/);
  assert.match(failed("a/b/c"), /at most one '\/'/);
  assert.match(failed(`a=${"x".repeat(64)}`), /values\[0\]\[a\]: Invalid value: .*no more than 63/);
  assert.match(failed("a=b!"), /expected: ',' or 'end of string'/);
  assert.match(failed("a=-b"), /values\[0\]\[a\]: Invalid value: "-b"/);
  assert.match(failed("!"), /expected: identifier/);
});

Deno.test("matchesLabels() follows the Kubernetes semantics of each operator", () => {
  const labels = { app: "web", n: "10" };
  const yes = [
    "",
    "app",
    "!x",
    "app=web",
    "app!=db",
    "x!=db",
    "app in (web,db)",
    "x notin (a)",
    "n>9",
    "n<11",
  ];
  const no = [
    "x",
    "!app",
    "app=db",
    "app!=web",
    "app in (db)",
    "x in (a)",
    "app notin (web)",
    "n>10",
    "app>1",
    "x<5",
  ];
  for (const s of yes) assert.equal(matchesLabels(parsed(s), labels), true, s);
  for (const s of no) assert.equal(matchesLabels(parsed(s), labels), false, s);
  assert.equal(matchesLabels(parsed("constructor"), {}), false);
  assert.equal(matchesLabels(parsed("!a"), undefined), true);
});

Deno.test("fromLabelSelectorObject() converts matchLabels and matchExpressions", () => {
  const r = fromLabelSelectorObject({
    matchLabels: { app: "web" },
    matchExpressions: [
      { key: "tier", operator: "In", values: ["b", "a"] },
      { key: "canary", operator: "DoesNotExist" },
    ],
  });
  assert.deepEqual(r, {
    _tag: "Right",
    right: [
      { type: "equals", key: "app", value: "web" },
      { type: "doesNotExist", key: "canary" },
      { type: "in", key: "tier", values: ["a", "b"] },
    ].sort((a, b) => (a.key < b.key ? -1 : 1)),
  });
  assert.deepEqual(fromLabelSelectorObject({}), { _tag: "Right", right: [] });
  const bad = [
    { matchExpressions: [{ key: "a", operator: "Foo" }] },
    { matchExpressions: [{ key: "a", operator: "In", values: [] }] },
    { matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] },
    { matchLabels: { "a b": "c" } },
  ];
  for (const s of bad) assert.equal(fromLabelSelectorObject(s)._tag, "Left", JSON.stringify(s));
  assert.deepEqual(fromLabelSelectorObject(bad[0]), {
    _tag: "Left",
    left: '"Foo" is not a valid label selector operator',
  });
});

// ---- properties ----

const key = fc.constantFrom("a", "b", "app", "x.y", "example.com/k", "Z_1");
const value = fc.constantFrom("", "1", "7", "10", "web", "db", "a.b-c_d");
const values = fc.uniqueArray(value, { minLength: 1, maxLength: 3 }).map((v) => [...v].sort());
const int = fc.nat({ max: 20 });
const requirement: fc.Arbitrary<LabelRequirement> = fc.oneof(
  key.map((k) => ({ type: "exists" as const, key: k })),
  key.map((k) => ({ type: "doesNotExist" as const, key: k })),
  fc.tuple(key, value).map(([k, value]) => ({ type: "equals" as const, key: k, value })),
  fc.tuple(key, value).map(([k, value]) => ({ type: "notEquals" as const, key: k, value })),
  fc.tuple(key, values).map(([k, values]) => ({ type: "in" as const, key: k, values })),
  fc.tuple(key, values).map(([k, values]) => ({ type: "notIn" as const, key: k, values })),
  fc.tuple(key, int).map(([k, value]) => ({ type: "greaterThan" as const, key: k, value })),
  fc.tuple(key, int).map(([k, value]) => ({ type: "lessThan" as const, key: k, value })),
);
const selector = fc.array(requirement, { maxLength: 5 }).map((rs) =>
  rs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
);
const labels = fc.dictionary(key, value, { maxKeys: 4 }).map((o) => ({ ...o }));

/** An independent reference model of selector semantics. */
function model(sel: LabelSelector, ls: Record<string, string>): boolean {
  return sel.every((r) => {
    const v = Object.hasOwn(ls, r.key) ? ls[r.key] : undefined;
    const n = v !== undefined && v !== "" && !isNaN(Number(v)) ? Number(v) : undefined;
    if (r.type === "exists") return v !== undefined;
    if (r.type === "doesNotExist") return v === undefined;
    if (r.type === "equals") return v === r.value;
    if (r.type === "notEquals") return v !== r.value;
    if (r.type === "in") return v !== undefined && r.values.indexOf(v) >= 0;
    if (r.type === "notIn") return v === undefined || r.values.indexOf(v) < 0;
    if (r.type === "greaterThan") return n !== undefined && /^\d+$/.test(v!) && n > r.value;
    return n !== undefined && /^\d+$/.test(v!) && n < r.value;
  });
}

Deno.test("formatLabelSelector() output parses back to the same selector", () => {
  fc.assert(
    fc.property(selector, (sel) => {
      const s = formatLabelSelector(sel);
      assert.deepEqual(parseLabelSelector(s), { _tag: "Right", right: sel }, s);
    }),
    { numRuns: 300 },
  );
});

Deno.test("matchesLabels() agrees with a reference model", () => {
  fc.assert(
    fc.property(selector, labels, (sel, ls) => {
      assert.equal(matchesLabels(sel, ls), model(sel, ls));
    }),
    { numRuns: 500 },
  );
});

Deno.test("parseLabelSelector() never throws", () => {
  const alphabet = fc.constantFrom(..."ab =!,()<>in/.-_ 5".split(""), "in", "notin");
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 12 }).map((a) => a.join("")), (s) => {
      parseLabelSelector(s);
    }),
    { numRuns: 500 },
  );
});
