import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  escapeFieldValue,
  fieldSelectorPaths,
  requiredFieldValue,
} from "../../lib/core/field_selector.ts";
import {
  type FieldRequirement,
  formatFieldSelector,
  matchesFields,
  parseFieldSelector,
} from "../../mod.ts";

const right = <R>(right: R) => ({ _tag: "Right", right });
const left = (left: string) => ({ _tag: "Left", left });

Deno.test("parseFieldSelector() reads =, == and != terms joined by commas", () => {
  assert.deepEqual(
    parseFieldSelector("status.phase!=Running,metadata.name==web,spec.nodeName="),
    right([
      { type: "equals", field: "metadata.name", value: "web" },
      { type: "equals", field: "spec.nodeName", value: "" },
      { type: "notEquals", field: "status.phase", value: "Running" },
    ]),
  );
  assert.deepEqual(parseFieldSelector(""), right([]));
  assert.deepEqual(
    parseFieldSelector("a=b,,"),
    right([{ type: "equals", field: "a", value: "b" }]),
  );
});

Deno.test("parseFieldSelector() unescapes values like apimachinery", () => {
  assert.deepEqual(
    parseFieldSelector("a=x\\,y\\=z\\\\"),
    right([{ type: "equals", field: "a", value: "x,y=z\\" }]),
  );
  assert.deepEqual(
    parseFieldSelector("a=b\\q"),
    left("invalid field selector: invalid escape sequence: \\q"),
  );
  assert.deepEqual(
    parseFieldSelector("a=b\\"),
    left("invalid field selector: invalid escape sequence: \\"),
  );
  assert.deepEqual(
    parseFieldSelector("a==b=c"),
    left("invalid field selector: unescaped character in value: ="),
  );
  assert.deepEqual(
    parseFieldSelector("a=b,foo"),
    left("invalid selector: 'a=b,foo'; can't understand 'foo'"),
  );
});

Deno.test("matchesFields() treats missing fields as empty strings", () => {
  const get = (p: string) => ({ "metadata.name": "web" } as Record<string, string>)[p];
  const m = (s: string) => {
    const r = parseFieldSelector(s);
    if (r._tag === "Left") throw new Error(r.left);
    return matchesFields(r.right, get);
  };
  assert.equal(m("metadata.name=web"), true);
  assert.equal(m("metadata.name!=web"), false);
  assert.equal(m("spec.nodeName="), true);
  assert.equal(m("spec.nodeName!=n1,metadata.name=web"), true);
  assert.equal(m("spec.nodeName=n1"), false);
});

Deno.test("fieldSelectorPaths() and requiredFieldValue() inspect the terms", () => {
  const sel: FieldRequirement[] = [
    { type: "equals", field: "metadata.name", value: "a" },
    { type: "notEquals", field: "metadata.name", value: "b" },
    { type: "notEquals", field: "status.phase", value: "c" },
  ];
  assert.deepEqual(fieldSelectorPaths(sel), ["metadata.name", "status.phase"]);
  assert.equal(requiredFieldValue(sel, "metadata.name"), "a");
  assert.equal(requiredFieldValue(sel, "status.phase"), undefined);
  assert.equal(escapeFieldValue("a=b,c\\"), "a\\=b\\,c\\\\");
});

const field = fc.constantFrom(
  "metadata.name",
  "metadata.namespace",
  "spec.nodeName",
  "status.phase",
  "x",
);
const value = fc.string({
  maxLength: 6,
  unit: fc.constantFrom("a", "b", "=", ",", "\\", "!", " "),
});
const term: fc.Arbitrary<FieldRequirement> = fc.record({
  type: fc.constantFrom("equals" as const, "notEquals" as const),
  field,
  value,
}, { noNullPrototype: true });
/** Selectors in canonical order: sorted by formatted term, as the parser orders them. */
const selector = fc.array(term, { maxLength: 4 }).map((ts) =>
  ts.map((t) => ({ t, s: formatFieldSelector([t]) })).sort((
    a,
    b,
  ) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0))
    .map((x) => x.t)
);

Deno.test("formatFieldSelector() output parses back to the same selector", () => {
  fc.assert(
    fc.property(selector, (sel) => {
      assert.deepEqual(parseFieldSelector(formatFieldSelector(sel)), right(sel));
    }),
    { numRuns: 300 },
  );
});

Deno.test("matchesFields() agrees with a reference model", () => {
  const fields = fc.dictionary(field, fc.constantFrom("", "a", "b", "a=b"), { maxKeys: 3 }).map((
    o,
  ) => ({ ...o }));
  fc.assert(
    fc.property(selector, fields, (sel, obj) => {
      const get = (p: string) => (Object.hasOwn(obj, p) ? obj[p] : undefined);
      const want = sel.every((t) => ((obj[t.field] ?? "") === t.value) === (t.type === "equals"));
      assert.equal(matchesFields(sel, get), want);
    }),
    { numRuns: 300 },
  );
});

Deno.test("parseFieldSelector() never throws", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 12, unit: fc.constantFrom("a", "=", "!", ",", "\\", ".") }),
      (s) => {
        parseFieldSelector(s);
      },
    ),
    { numRuns: 500 },
  );
});
