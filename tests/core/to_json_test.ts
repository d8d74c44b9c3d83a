import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { toJson, toJsonObject } from "../../lib/core/to_json.ts";
import { isCrd } from "../../lib/core/is_crd.ts";

Deno.test("toJson() equals a JSON.stringify round trip", () => {
  fc.assert(
    fc.property(fc.anything({ withDate: true, withNullPrototype: true }), (v) => {
      const expected = JSON.stringify(v);
      const got = JSON.stringify(toJson(v));
      assert.equal(got, expected);
    }),
  );
});

Deno.test("toJsonObject() drops undefined fields and copies", () => {
  const input = { kind: "A", spec: undefined, list: [1, undefined], at: new Date(0) };
  const out = toJsonObject(input);
  assert.deepEqual(out, { kind: "A", list: [1, null], at: "1970-01-01T00:00:00.000Z" });
  assert.notEqual(out.list, input.list);
});

Deno.test("isCrd() wants spec.group, names.plural, names.kind and versions", () => {
  const spec = {
    group: "x.io",
    scope: "Cluster",
    names: { plural: "as", kind: "A" },
    versions: [],
  };
  assert.equal(isCrd({ spec }), true);
  for (const k of ["group", "versions"] as const) {
    assert.equal(isCrd({ spec: { ...spec, [k]: undefined } }), false, k);
  }
  assert.equal(isCrd({ spec: { ...spec, names: { plural: "as" } } }), false);
  assert.equal(isCrd({ spec: { ...spec, names: { kind: "A" } } }), false);
  assert.equal(isCrd(null), false);
});
