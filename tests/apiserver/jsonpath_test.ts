import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  compileJsonPath,
  evalJsonPath,
  type JsonPath,
  renderJsonPathCell,
} from "../../lib/apiserver/jsonpath.ts";

const compiled = (expr: string): JsonPath => {
  const r = compileJsonPath(expr);
  if (r._tag === "Left") throw new Error(`unexpected error for ${expr}: ${r.left}`);
  return r.right;
};
const run = (expr: string, obj: unknown) => evalJsonPath(compiled(expr), obj);

const node = {
  metadata: { name: "n1", labels: { "kubernetes.io/hostname": "n1", "a.b": "dots" } },
  spec: {
    size: 3,
    ratio: 1.5,
    on: true,
    containers: [{ name: "a", port: 80 }, { name: "b", port: 443 }],
  },
  status: {
    conditions: [
      { type: "MemoryPressure", status: "False" },
      { type: "Ready", status: "True" },
    ],
  },
};

Deno.test("evalJsonPath() follows dotted fields and bracket keys", () => {
  assert.deepEqual(run(".metadata.name", node), ["n1"]);
  assert.deepEqual(run("{.metadata.name}", node), ["n1"]);
  assert.deepEqual(run("$.metadata.name", node), ["n1"]);
  assert.deepEqual(run(".metadata.labels['a.b']", node), ["dots"]);
  assert.deepEqual(run('.metadata.labels["kubernetes.io/hostname"]', node), ["n1"]);
  assert.deepEqual(run(".", node), [node]);
  assert.deepEqual(run(".metadata.missing.deeper", node), []);
  assert.deepEqual(run(".metadata.name.length", node), []);
});

Deno.test("evalJsonPath() indexes arrays, from the end too, and expands wildcards", () => {
  assert.deepEqual(run(".spec.containers[0].name", node), ["a"]);
  assert.deepEqual(run(".spec.containers[-1].name", node), ["b"]);
  assert.deepEqual(run(".spec.containers[5].name", node), []);
  assert.deepEqual(run(".spec.containers[*].name", node), ["a", "b"]);
  assert.deepEqual(run(".spec.containers.*.port", node), [80, 443]);
  assert.deepEqual(run(".metadata.labels[*]", node), ["n1", "dots"]);
});

Deno.test("evalJsonPath() filters list items with ==, != and existence", () => {
  assert.deepEqual(run('.status.conditions[?(@.type=="Ready")].status', node), ["True"]);
  assert.deepEqual(run(".status.conditions[?(@.type == 'Ready')].status", node), ["True"]);
  assert.deepEqual(run('.status.conditions[?(@.type!="Ready")].type', node), ["MemoryPressure"]);
  assert.deepEqual(run(".spec.containers[?(@.port==443)].name", node), ["b"]);
  assert.deepEqual(run(".spec.containers[?(@.port>100)].name", node), ["b"]);
  assert.deepEqual(run(".spec.containers[?(@.name)].name", node), ["a", "b"]);
  assert.deepEqual(run(".spec.containers[?(@.nope)].name", node), []);
});

Deno.test("compileJsonPath() reports malformed expressions as values", () => {
  for (
    const bad of [
      "metadata",
      ".a[",
      ".a['x]",
      ".a[?(@.x=)]",
      ".a[1:2]",
      "{.a",
      "..a",
      ".a.",
      ".a[?(x==1)]",
      ".a[b]",
    ]
  ) {
    const r = compileJsonPath(bad);
    assert.equal(r._tag, "Left", bad);
  }
});

Deno.test("renderJsonPathCell() renders a cell like kube-apiserver's printer columns", () => {
  const cell = (expr: string, columnType?: "string" | "integer" | "number" | "boolean" | "date") =>
    renderJsonPathCell(compiled(expr), node, { columnType });
  assert.equal(cell(".spec.size", "integer"), 3);
  assert.equal(cell(".spec.ratio", "integer"), 1);
  assert.equal(cell(".spec.ratio", "number"), 1.5);
  assert.equal(cell(".spec.on", "boolean"), true);
  assert.equal(cell(".spec.size"), "3");
  assert.equal(cell(".metadata.name", "integer"), null);
  assert.equal(cell(".nope"), null);
  assert.equal(cell(".spec.containers[0]"), '{"name":"a","port":80}');
  assert.equal(cell(".spec.containers[*].name"), "a");
  assert.equal(
    renderJsonPathCell(compiled(".spec.containers[*].name"), node, { multiple: "join" }),
    "a,b",
  );
});

Deno.test("compileJsonPath() never throws and evaluation of a field chain finds the value", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 14, unit: fc.constantFrom(..."{}$.[]()?@='\"*-0a!<> ".split("")) }),
      (s) => {
        const r = compileJsonPath(s);
        if (r._tag === "Right") evalJsonPath(r.right, node);
      },
    ),
    { numRuns: 500 },
  );
  const key = fc.stringMatching(/^[a-z][a-z0-9.-]{0,5}$/);
  fc.assert(
    fc.property(fc.array(key, { minLength: 1, maxLength: 4 }), fc.jsonValue(), (keys, leaf) => {
      const obj = keys.reduceRight<unknown>((acc, k) => ({ [k]: acc }), leaf);
      const expr = keys.map((k) => `['${k}']`).join("");
      assert.deepEqual(evalJsonPath(compiled(expr), obj), [leaf]);
    }),
    { numRuns: 200 },
  );
});
