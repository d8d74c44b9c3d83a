import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { apiNames } from "../../lib/cli/scaffold/api_names.ts";
import { versionNames } from "../../lib/cli/scaffold/version_files.ts";
import {
  conversionFile,
  fieldDiff,
  schemaFieldPaths,
} from "../../lib/cli/scaffold/conversion_files.ts";

const n = apiNames({ group: "myapp", version: "v1", kind: "HelloWorld" }, "example.com");

/** A JSON schema with the given leaf paths (`a.b`, `a.list[].c`). */
const schemaOf = (paths: string[][]) => {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    let at = root;
    for (const k of path) {
      const props = (at.properties ??= {}) as Record<string, Record<string, unknown>>;
      at = props[k] ??= {};
    }
  }
  return root;
};
const paths = fc.array(fc.array(fc.constantFrom("spec", "size", "replicas", "template"), {
  minLength: 1,
  maxLength: 3,
}));

Deno.test("fieldDiff(): empty for a schema and itself; swapping the sides swaps the lists", () => {
  fc.assert(fc.property(paths, paths, (a, b) => {
    const [x, y] = [schemaOf(a), schemaOf(b)];
    assert.deepEqual(fieldDiff(x, x), { onlyHub: [], onlySpoke: [] });
    const d = fieldDiff(x, y), e = fieldDiff(y, x);
    assert.deepEqual([d.onlyHub, d.onlySpoke], [e.onlySpoke, e.onlyHub]);
    for (const p of d.onlyHub) assert.ok(schemaFieldPaths(x).includes(p));
  }));
});

Deno.test("schemaFieldPaths() names array items with []", () => {
  const s = {
    properties: { spec: { properties: { list: { items: { properties: { a: {} } } } } } },
  };
  assert.deepEqual(schemaFieldPaths(s), ["spec", "spec.list", "spec.list[].a"]);
});

Deno.test("conversionFile(): identity stubs when the schemas match; compiling TODO stubs naming the fields when they differ", () => {
  const hub = versionNames(n, "v1", "v1"), v2 = versionNames(n, "v2", "v1");
  const same = conversionFile(n, hub, [{ names: v2, diff: { onlyHub: [], onlySpoke: [] } }]);
  assert.match(same, /up: \(v2\) => \(\{ \.\.\.v2, apiVersion: HELLOWORLD_API_VERSION \}\)/);
  assert.match(same, /none yet: the schemas are the same; change types_v2\.ts/);
  const renamed = conversionFile(n, hub, [{
    names: v2,
    diff: { onlyHub: ["spec.replicas"], onlySpoke: ["spec.size"] },
  }]);
  assert.match(renamed, /only in v1: spec\.replicas\n.*only in v2: spec\.size/);
  assert.match(
    renamed,
    /throw new Error\(`TODO: convert HelloWorld v2 to \$\{HELLOWORLD_API_VERSION\}`\)/,
  );
  assert.match(renamed, /conversions: \[helloWorldV2Conversion\]/);
});
