import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { Json } from "../../../mod.ts";
import { applyStrategicMergePatch } from "../../../lib/apiserver/patch/strategic_merge_patch.ts";
import {
  deploymentSchema,
  nodeSchema,
  objectSchema,
  podSchema,
  serviceSchema,
  strategicSchemaFor,
} from "../../../lib/apiserver/patch/strategic_schemas.ts";
import type { MergeSchema } from "../../../lib/apiserver/patch/merge_schema.ts";
import { deepFreeze, isLeft, jsonObject } from "./_helpers.ts";

const ok = (doc: unknown, patch: unknown, schema: MergeSchema = podSchema): Json => {
  const r = applyStrategicMergePatch(deepFreeze(doc) as Json, deepFreeze(patch), schema);
  if (isLeft(r)) throw new Error(`unexpected error: ${r.left.message}`);
  return r.right;
};
const err = (doc: unknown, patch: unknown, schema: MergeSchema = podSchema) => {
  const r = applyStrategicMergePatch(doc as Json, patch, schema);
  if (!isLeft(r)) throw new Error(`expected an error, got ${JSON.stringify(r.right)}`);
  return r.left;
};

const pod = {
  metadata: { name: "p", labels: { a: "1" }, finalizers: ["x"] },
  spec: {
    containers: [
      {
        name: "a",
        image: "a:1",
        env: [{ name: "E1", value: "1" }],
        ports: [{ containerPort: 80 }],
      },
      { name: "b", image: "b:1" },
    ],
    tolerations: [{ key: "t1" }],
    volumes: [{ name: "v", emptyDir: {} }],
  },
};

Deno.test("applyStrategicMergePatch() merges containers by name and env by name", () => {
  const r = ok(pod, {
    spec: {
      containers: [
        { name: "a", env: [{ name: "E2", value: "2" }], ports: [{ containerPort: 443 }] },
        { name: "c", image: "c:1" },
      ],
    },
  }) as typeof pod;
  assert.deepEqual(r.spec.containers, [
    {
      name: "a",
      image: "a:1",
      env: [{ name: "E1", value: "1" }, { name: "E2", value: "2" }],
      ports: [{ containerPort: 80 }, { containerPort: 443 }],
    },
    { name: "b", image: "b:1" },
    { name: "c", image: "c:1" },
  ]);
});

Deno.test("applyStrategicMergePatch() replaces tolerations and unknown lists wholesale", () => {
  const r = ok(pod, { spec: { tolerations: [{ key: "t2" }] }, x: [1] }) as Record<string, Json>;
  assert.deepEqual((r.spec as typeof pod.spec).tolerations, [{ key: "t2" }]);
  assert.deepEqual(r.x, [1]);
});

Deno.test("applyStrategicMergePatch() deletes list items and maps with $patch: delete", () => {
  const r = ok(pod, {
    metadata: { labels: { $patch: "delete" } },
    spec: { containers: [{ name: "b", $patch: "delete" }] },
  }) as typeof pod;
  assert.equal(r.metadata.labels, undefined);
  assert.deepEqual(r.spec.containers.map((c) => c.name), ["a"]);
});

Deno.test("applyStrategicMergePatch() replaces a list or a map with $patch: replace", () => {
  const r = ok(pod, {
    metadata: { labels: { b: "2", $patch: "replace" } },
    spec: { containers: [{ name: "z", image: "z" }, { $patch: "replace" }] },
  }) as typeof pod;
  assert.deepEqual(r.metadata.labels, { b: "2" });
  assert.deepEqual(r.spec.containers, [{ name: "z", image: "z" }]);
});

Deno.test("applyStrategicMergePatch() unions finalizers and deletes with $deleteFromPrimitiveList", () => {
  const r = ok(pod, {
    metadata: { finalizers: ["y"], "$deleteFromPrimitiveList/finalizers": ["x"] },
  }) as typeof pod;
  assert.deepEqual(r.metadata.finalizers, ["y"]);
  const r2 = ok(pod, { metadata: { finalizers: ["y", "x"] } }) as typeof pod;
  assert.deepEqual(r2.metadata.finalizers, ["x", "y"]);
});

Deno.test("applyStrategicMergePatch() applies $setElementOrder within the merged list", () => {
  const r = ok(pod, {
    spec: {
      "$setElementOrder/containers": [{ name: "c" }, { name: "b" }, { name: "a" }],
      containers: [{ name: "c", image: "c:1" }],
    },
  }) as typeof pod;
  assert.deepEqual(r.spec.containers.map((c) => c.name), ["c", "b", "a"]);
});

Deno.test("applyStrategicMergePatch() clears keys not listed in $retainKeys", () => {
  const dep = { spec: { strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } } } };
  const r = ok(
    dep,
    { spec: { strategy: { $retainKeys: ["type"], type: "Recreate" } } },
    deploymentSchema,
  );
  assert.deepEqual(r, { spec: { strategy: { type: "Recreate" } } });
  const v = ok(pod, {
    spec: {
      volumes: [{ name: "v", $retainKeys: ["name", "configMap"], configMap: { name: "cm" } }],
    },
  }) as typeof pod;
  assert.deepEqual(v.spec.volumes, [{ name: "v", configMap: { name: "cm" } }]);
  assert.equal(
    err(dep, { spec: { strategy: { $retainKeys: ["type"], x: 1 } } }).type,
    "malformedPatch",
  );
});

Deno.test("applyStrategicMergePatch() merges service ports by port and node conditions by type", () => {
  const svc = { spec: { ports: [{ port: 80, name: "http" }, { port: 443, name: "https" }] } };
  assert.deepEqual(ok(svc, { spec: { ports: [{ port: 443, targetPort: 8443 }] } }, serviceSchema), {
    spec: { ports: [{ port: 80, name: "http" }, { port: 443, name: "https", targetPort: 8443 }] },
  });
  const node = { status: { conditions: [{ type: "Ready", status: "False" }], addresses: [] } };
  assert.deepEqual(
    ok(node, { status: { conditions: [{ type: "Ready", status: "True" }] } }, nodeSchema),
    { status: { conditions: [{ type: "Ready", status: "True" }], addresses: [] } },
  );
});

Deno.test("applyStrategicMergePatch() rejects unknown directives and bad list items as values", () => {
  const cases: unknown[] = [
    { metadata: { $frob: 1 } },
    { metadata: { $patch: "frob" } },
    { spec: { containers: [{ image: "no-name" }] } },
    { spec: { containers: ["a"] } },
    { spec: { containers: [{ name: "a", $patch: "frob" }] } },
    { spec: { containers: [{ $patch: "delete" }] } },
    { metadata: { "$deleteFromPrimitiveList/finalizers": "x" } },
    { spec: { "$setElementOrder/containers": {} } },
    { metadata: { $retainKeys: "name" } },
    [1],
    "x",
  ];
  for (const patch of cases) {
    assert.equal(err(pod, patch).type, "malformedPatch", JSON.stringify(patch));
  }
});

Deno.test("applyStrategicMergePatch() resolves nulls and directives inside new fields", () => {
  assert.deepEqual(
    ok({}, { spec: { a: { b: null, c: 1 }, containers: [{ name: "x", x: null }] } }),
    {
      spec: { a: { c: 1 }, containers: [{ name: "x" }] },
    },
  );
});

Deno.test("strategicSchemaFor() knows built-in kinds and not custom resources", () => {
  assert.equal(strategicSchemaFor("v1", "Pod"), podSchema);
  assert.equal(strategicSchemaFor("apps/v1", "Deployment"), deploymentSchema);
  assert.equal(strategicSchemaFor("v1", "ConfigMap"), objectSchema);
  assert.ok(strategicSchemaFor("batch/v1", "Job"));
  assert.equal(strategicSchemaFor("example.com/v1", "Widget"), undefined);
});

Deno.test("applyStrategicMergePatch() with an empty patch is the identity", () => {
  fc.assert(
    fc.property(jsonObject, (doc) => {
      for (const schema of [podSchema, deploymentSchema, objectSchema]) {
        assert.deepEqual(ok(doc, {}, schema), doc);
      }
    }),
    { numRuns: 100 },
  );
});

const name = fc.stringMatching(/^[a-z]{1,5}$/);
const container = fc.record({ name, image: fc.string({ maxLength: 5 }) }, {
  noNullPrototype: true,
});

Deno.test("applyStrategicMergePatch() appends an item with a new merge key to a keyed list", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(container, { selector: (c) => c.name, maxLength: 5 }),
      container,
      (cs, c) => {
        fc.pre(!cs.some((x) => x.name === c.name));
        const r = ok({ spec: { containers: cs } }, { spec: { containers: [c] } });
        assert.deepEqual(r, { spec: { containers: [...cs, c] } });
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("applyStrategicMergePatch() merging an existing item keeps the list length and order", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(container, { selector: (c) => c.name, minLength: 1, maxLength: 5 }),
      fc.nat(),
      fc.string({ maxLength: 5 }),
      (cs, i, image) => {
        const target = cs[i % cs.length];
        const r = ok({ spec: { containers: cs } }, {
          spec: { containers: [{ name: target.name, image }] },
        });
        const want = cs.map((c) => (c.name === target.name ? { name: c.name, image } : c));
        assert.deepEqual(r, { spec: { containers: want } });
      },
    ),
    { numRuns: 200 },
  );
});
