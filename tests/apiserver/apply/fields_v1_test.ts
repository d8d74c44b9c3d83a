import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  difference,
  elementKey,
  fieldElement,
  type FieldPath,
  fieldSetEquals,
  fieldSetOf,
  fieldSetPaths,
  formatPath,
  fromFieldsV1,
  hasPath,
  indexElement,
  intersection,
  keyElement,
  type PathElement,
  toFieldsV1,
  union,
  valueElement,
} from "../../../lib/apiserver/apply/mod.ts";

const scalar = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 500 }),
  fc.boolean(),
);
const element: fc.Arbitrary<PathElement> = fc.oneof(
  fc.constantFrom("a", "b", "spec", "<&>", "x.y").map(fieldElement),
  fc.dictionary(fc.constantFrom("name", "port", "protocol"), scalar, { minKeys: 1 }).map(
    keyElement,
  ),
  scalar.map(valueElement),
  fc.nat({ max: 3 }).map(indexElement),
);
const path: fc.Arbitrary<FieldPath> = fc.array(element, { minLength: 1, maxLength: 4 });
const paths = fc.array(path, { maxLength: 12 });
const runs = { numRuns: 200 };

Deno.test("toFieldsV1() writes kube's format: f:, k: with sorted keys, v:, i:, and '.' last", () => {
  const c = [fieldElement("spec"), fieldElement("containers"), keyElement({ name: "c1" })];
  const set = fieldSetOf([
    c,
    [...c, fieldElement("image")],
    [...c, fieldElement("ports"), keyElement({ protocol: "TCP", containerPort: 80 })],
    [fieldElement("metadata"), fieldElement("finalizers"), valueElement("example.com/f")],
    [fieldElement("args"), indexElement(0)],
  ]);
  const json = toFieldsV1(set);
  assert.equal(
    JSON.stringify(json),
    '{"f:args":{"i:0":{}},"f:metadata":{"f:finalizers":{"v:\\"example.com/f\\"":{}}},' +
      '"f:spec":{"f:containers":{"k:{\\"name\\":\\"c1\\"}":{"f:image":{},' +
      '"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{}},".":{}}}}}',
  );
});

Deno.test("toFieldsV1() escapes <, > and & in values as Go does", () => {
  assert.equal(elementKey(valueElement("a<b>&")), 'v:"a\\u003cb\\u003e\\u0026"');
});

Deno.test("fromFieldsV1() reads what toFieldsV1() wrote (round trip)", () => {
  fc.assert(
    fc.property(paths, (ps) => {
      const set = fieldSetOf(ps);
      const back = fromFieldsV1(JSON.parse(JSON.stringify(toFieldsV1(set))));
      assert.equal(back._tag, "Right");
      if (back._tag === "Right") {
        assert.ok(fieldSetEquals(back.right, set));
        assert.deepEqual(JSON.stringify(toFieldsV1(back.right)), JSON.stringify(toFieldsV1(set)));
      }
    }),
    runs,
  );
});

Deno.test("fromFieldsV1() treats a key with only children as not a member and '.' as a member", () => {
  const r = fromFieldsV1({ "f:metadata": { "f:labels": { ".": {}, "f:app": {} } }, "f:x": {} });
  assert.equal(r._tag, "Right");
  if (r._tag !== "Right") return;
  const m = fieldElement("metadata"), l = fieldElement("labels");
  assert.ok(hasPath(r.right, [m, l]));
  assert.ok(hasPath(r.right, [m, l, fieldElement("app")]));
  assert.ok(!hasPath(r.right, [m]));
  assert.ok(hasPath(r.right, [fieldElement("x")]));
});

Deno.test("fromFieldsV1() rejects malformed keys and skips unknown element types", () => {
  assert.equal(fromFieldsV1({ "k:{bad": {} })._tag, "Left");
  assert.equal(fromFieldsV1({ "f:a": 1 })._tag, "Left");
  const r = fromFieldsV1({ "z:future": {}, "f:a": {} });
  assert.equal(r._tag, "Right");
  if (r._tag === "Right") assert.deepEqual(fieldSetPaths(r.right).map(formatPath), [".a"]);
});

const keysOf = (ps: FieldPath[]) => new Set(ps.map((p) => p.map(elementKey).join("/")));

Deno.test("union, difference and intersection agree with the same operations on path sets", () => {
  fc.assert(
    fc.property(paths, paths, (xs, ys) => {
      const a = fieldSetOf(xs), b = fieldSetOf(ys);
      const ka = keysOf(xs), kb = keysOf(ys);
      assert.deepEqual(keysOf(fieldSetPaths(union(a, b))), new Set([...ka, ...kb]));
      assert.deepEqual(
        keysOf(fieldSetPaths(difference(a, b))),
        new Set([...ka].filter((k) => !kb.has(k))),
      );
      assert.deepEqual(
        keysOf(fieldSetPaths(intersection(a, b))),
        new Set([...ka].filter((k) => kb.has(k))),
      );
    }),
    runs,
  );
});

Deno.test("formatPath() prints kube's text form", () => {
  assert.equal(
    formatPath([
      fieldElement("spec"),
      fieldElement("ports"),
      keyElement({ protocol: "TCP", port: 80 }),
      fieldElement("name"),
    ]),
    '.spec.ports[port=80,protocol="TCP"].name',
  );
  assert.equal(formatPath([fieldElement("f"), valueElement("x"), indexElement(2)]), '.f[="x"][2]');
});
