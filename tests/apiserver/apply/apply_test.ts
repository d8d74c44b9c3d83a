import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../mod.ts";
import {
  apply,
  type ApplyOptions,
  applySchemaFor,
  applySchemaFromOpenApi,
  conflictStatus,
  formatFieldSet,
  fromFieldsV1,
  type ManagedFieldsEntry,
  recordUpdate,
} from "../../../lib/apiserver/apply/mod.ts";

const cmSchema = applySchemaFor("v1", "ConfigMap");
const opts = (manager: string, extra: Partial<ApplyOptions> = {}): ApplyOptions => ({
  manager,
  now: 1_735_787_045_000,
  apiVersion: "v1",
  schema: cmSchema,
  ...extra,
});
const cm = (data: Record<string, string>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "demo", namespace: "default", ...meta },
  data,
});

function ok(r: ReturnType<typeof apply>) {
  if (r._tag === "Left") assert.fail(`apply failed: ${JSON.stringify(r.left)}`);
  return r.right;
}

/** What the server stores: the object plus server-set metadata. */
const stored = (o: KubeObject): KubeObject => ({
  ...o,
  metadata: {
    ...o.metadata,
    uid: "u1",
    resourceVersion: "7",
    creationTimestamp: "2025-01-01T00:00:00Z",
  },
});

const fieldsOfEntry = (e: ManagedFieldsEntry | undefined) => {
  const r = fromFieldsV1(e?.fieldsV1 ?? {});
  return r._tag === "Right" ? formatFieldSet(r.right) : [];
};

Deno.test("apply() creates the object with one Apply entry in FieldsV1", () => {
  const r = ok(apply(undefined, cm({ a: "1" }, { labels: { app: "x" } }), opts("kubectl")));
  assert.deepEqual(r.object.data, { a: "1" });
  assert.equal(r.object.metadata?.name, "demo");
  assert.deepEqual(r.managedFields, [{
    manager: "kubectl",
    operation: "Apply",
    apiVersion: "v1",
    time: "2025-01-02T03:04:05Z",
    fieldsType: "FieldsV1",
    fieldsV1: { "f:data": { "f:a": {} }, "f:metadata": { "f:labels": { "f:app": {} } } },
  }]);
  assert.deepEqual(r.object.metadata?.managedFields, r.managedFields);
});

Deno.test("apply() rejects a configuration that sets metadata.managedFields", () => {
  const r = apply(undefined, cm({}, { managedFields: [] }), opts("kubectl"));
  assert.equal(r._tag, "Left");
  if (r._tag === "Left") assert.equal(r.left.type, "invalid");
});

Deno.test("apply() twice with the same configuration changes nothing (same managedFields)", () => {
  const config = cm({ a: "1" }, { labels: { app: "x" }, finalizers: ["f"] });
  const first = stored(ok(apply(undefined, config, opts("kubectl"))).object);
  const second = ok(apply(first, config, opts("kubectl", { now: 1_800_000_000_000 })));
  assert.equal(second.changed, false);
  assert.deepEqual(second.object, first);
});

Deno.test("apply() removes a field the manager stops applying when nobody else owns it", () => {
  const live = stored(
    ok(apply(undefined, cm({ a: "1", b: "2" }, { labels: { x: "1" } }), opts("kubectl"))).object,
  );
  const r = ok(apply(live, cm({ a: "1" }), opts("kubectl")));
  assert.deepEqual(r.object.data, { a: "1" });
  assert.equal(r.object.metadata?.labels, undefined, "an emptied labels map goes away");
  assert.deepEqual(fieldsOfEntry(r.managedFields[0]), [".data.a"]);
  assert.equal(r.object.metadata?.uid, "u1", "server-set metadata is kept");
});

Deno.test("apply() keeps a dropped field that another manager also applied", () => {
  const a = stored(ok(apply(undefined, cm({ a: "1", b: "2" }), opts("one"))).object);
  const b = stored(ok(apply(a, cm({ b: "2" }), opts("two"))).object);
  const r = ok(apply(b, cm({ a: "1" }), opts("one")));
  assert.deepEqual(r.object.data, { a: "1", b: "2" });
  const byManager = Object.fromEntries(r.managedFields.map((e) => [e.manager, fieldsOfEntry(e)]));
  assert.deepEqual(byManager, { one: [".data.a"], two: [".data.b"] });
});

Deno.test("apply() of another manager's field with a different value conflicts; force moves it", () => {
  const live = stored(ok(apply(undefined, cm({ a: "1" }), opts("kubectl"))).object);
  const r = apply(live, cm({ a: "2" }), opts("other"));
  assert.equal(r._tag, "Left");
  if (r._tag !== "Left" || r.left.type !== "conflict") return;
  assert.equal(
    conflictStatus(r.left.conflicts).message,
    'Apply failed with 1 conflict: conflict with "kubectl": .data.a',
  );
  const forced = ok(apply(live, cm({ a: "2" }), opts("other", { force: true })));
  assert.deepEqual(forced.object.data, { a: "2" });
  assert.deepEqual(forced.managedFields.map((e) => [e.manager, fieldsOfEntry(e)]), [["other", [
    ".data.a",
  ]]]);
});

Deno.test("apply() of the value a field already has shares ownership without a conflict", () => {
  const live = stored(ok(apply(undefined, cm({ a: "1" }), opts("kubectl"))).object);
  const r = ok(apply(live, cm({ a: "1" }), opts("other")));
  assert.deepEqual(r.managedFields.map((e) => [e.manager, fieldsOfEntry(e)]).sort(), [
    ["kubectl", [".data.a"]],
    ["other", [".data.a"]],
  ]);
});

Deno.test("Appendix B.4: apply, an Update by ctrl, conflicting re-apply, forced re-apply", () => {
  const config = cm({ a: "1" });
  const created = stored(ok(apply(undefined, config, opts("kubectl"))).object);
  const put = { ...created, data: { a: "2" } };
  const live = stored({
    ...put,
    metadata: {
      ...put.metadata,
      managedFields: recordUpdate(created, put, {
        manager: "ctrl",
        now: 1_735_787_100_000,
        apiVersion: "v1",
      }),
    },
  });
  const r = apply(live, config, opts("kubectl"));
  assert.equal(r._tag, "Left");
  if (r._tag !== "Left" || r.left.type !== "conflict") return;
  assert.deepEqual(conflictStatus(r.left.conflicts), {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: 'Apply failed with 1 conflict: conflict with "ctrl" using v1: .data.a',
    reason: "Conflict",
    details: {
      causes: [{
        reason: "FieldManagerConflict",
        message: 'conflict with "ctrl" using v1',
        field: ".data.a",
      }],
    },
    code: 409,
  });
  const forced = ok(apply(live, config, opts("kubectl", { force: true })));
  assert.deepEqual(forced.object.data, { a: "1" });
  assert.deepEqual(forced.managedFields.map((e) => [e.manager, e.operation, fieldsOfEntry(e)]), [
    ["kubectl", "Apply", [".data.a"]],
  ]);
});

Deno.test("conflictStatus() groups several conflicts by manager", () => {
  const live = stored(ok(apply(undefined, cm({ a: "1", b: "1" }), opts("m1"))).object);
  const live2 = stored(ok(apply(live, cm({ c: "1" }), opts("m2"))).object);
  const r = apply(live2, cm({ a: "2", b: "2", c: "2" }), opts("m3"));
  if (r._tag !== "Left" || r.left.type !== "conflict") return assert.fail("expected conflicts");
  assert.equal(
    conflictStatus(r.left.conflicts).message,
    'Apply failed with 3 conflicts: conflicts with "m1":\n- .data.a\n- .data.b\nconflicts with "m2":\n- .data.c',
  );
});

const deploy = (containers: unknown[]): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { template: { spec: { containers } } },
});
const dOpts = (manager: string): ApplyOptions => ({
  manager,
  now: 0,
  apiVersion: "apps/v1",
  schema: applySchemaFor("apps/v1", "Deployment"),
});
const containersOf = (
  o: KubeObject,
) => ((o.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec
  .containers);

Deno.test("apply() merges containers by name: each manager removes only its own", () => {
  const a = stored(ok(apply(undefined, deploy([{ name: "a", image: "a:1" }]), dOpts("A"))).object);
  const ab = stored(ok(apply(a, deploy([{ name: "b", image: "b:1" }]), dOpts("B"))).object);
  assert.deepEqual(containersOf(ab).map((c) => c.name), ["a", "b"]);
  const r = ok(apply(ab, deploy([]), dOpts("A")));
  assert.deepEqual(containersOf(r.object), [{ name: "b", image: "b:1" }]);
  assert.deepEqual(fieldsOfEntry(r.managedFields.find((e) => e.manager === "B")), [
    '.spec.template.spec.containers[name="b"]',
    '.spec.template.spec.containers[name="b"].image',
    '.spec.template.spec.containers[name="b"].name',
  ]);
});

Deno.test("apply() keys container ports by containerPort and protocol (defaulting TCP)", () => {
  const r = ok(
    apply(
      undefined,
      deploy([{
        name: "a",
        ports: [{ containerPort: 80 }, { containerPort: 80, protocol: "UDP" }],
      }]),
      dOpts("A"),
    ),
  );
  const fields = fieldsOfEntry(r.managedFields[0]);
  assert.ok(
    fields.includes(
      '.spec.template.spec.containers[name="a"].ports[containerPort=80,protocol="TCP"]',
    ),
  );
  assert.ok(
    fields.includes(
      '.spec.template.spec.containers[name="a"].ports[containerPort=80,protocol="UDP"]',
    ),
  );
});

Deno.test("apply() reports a list-map item without its key as invalid", () => {
  const r = apply(undefined, deploy([{ image: "x" }]), dOpts("A"));
  assert.equal(r._tag, "Left");
  if (r._tag === "Left") {
    assert.equal(r.left.type === "invalid" && r.left.field, ".spec.template.spec.containers");
  }
});

Deno.test("apply() merges finalizers as a set and removes only the manager's own values", () => {
  const a = stored(ok(apply(undefined, cm({}, { finalizers: ["x"] }), opts("A"))).object);
  const ab = stored(ok(apply(a, cm({}, { finalizers: ["y"] }), opts("B"))).object);
  assert.deepEqual(ab.metadata?.finalizers, ["x", "y"]);
  const r = ok(apply(ab, cm({}), opts("A")));
  assert.deepEqual(r.object.metadata?.finalizers, ["y"]);
});

Deno.test("apply() replaces atomic lists whole and conflicts on them as one field", () => {
  const withArgs = (args: string[]) => deploy([{ name: "a", args }]);
  const a = stored(ok(apply(undefined, withArgs(["1", "2"]), dOpts("A"))).object);
  const r = ok(apply(a, withArgs(["3"]), dOpts("A")));
  assert.deepEqual((containersOf(r.object)[0] as unknown as { args: string[] }).args, ["3"]);
  const c = apply(a, withArgs(["1"]), dOpts("B"));
  assert.equal(c._tag === "Left" && c.left.type === "conflict" && c.left.conflicts.length, 1);
});

Deno.test("apply() on the status subresource records subresource status and touches only status", () => {
  const crd = applySchemaFromOpenApi({
    type: "object",
    properties: { status: { type: "object", properties: { phase: { type: "string" } } } },
  });
  const live = stored({
    apiVersion: "example.com/v1",
    kind: "W",
    metadata: { name: "w" },
    spec: { x: 1 },
  });
  const r = ok(
    apply(live, {
      apiVersion: "example.com/v1",
      kind: "W",
      metadata: { name: "w" },
      spec: { x: 2 },
      status: { phase: "Ready" },
    }, {
      manager: "ctrl",
      now: 0,
      apiVersion: "example.com/v1",
      schema: crd,
      subresource: "status",
    }),
  );
  assert.deepEqual(r.object.spec, { x: 1 });
  assert.deepEqual(r.object.status, { phase: "Ready" });
  assert.equal(r.managedFields[0].subresource, "status");
  assert.deepEqual(fieldsOfEntry(r.managedFields[0]), [".status.phase"]);
});

Deno.test("apply() derives list-map keys from a CRD schema", () => {
  const schema = applySchemaFromOpenApi({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: {
          rules: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["host", "port"],
            items: {
              type: "object",
              properties: { host: { type: "string" }, port: { type: "integer", default: 80 } },
            },
          },
        },
      },
    },
  });
  const w = (rules: unknown[]) => ({
    apiVersion: "example.com/v1",
    kind: "W",
    metadata: { name: "w" },
    spec: { rules },
  });
  const o = { manager: "A", now: 0, apiVersion: "example.com/v1", schema };
  const a = stored(ok(apply(undefined, w([{ host: "a" }]), o)).object);
  const r = ok(apply(a, w([{ host: "b", port: 81 }]), { ...o, manager: "B" }));
  assert.deepEqual((r.object.spec as { rules: unknown[] }).rules, [{ host: "a" }, {
    host: "b",
    port: 81,
  }]);
  assert.ok(
    fieldsOfEntry(r.managedFields.find((e) => e.manager === "A")).includes(
      '.spec.rules[host="a",port=80]',
    ),
  );
});

// Properties over random ConfigMap configurations from two managers.
const dataArb = fc.dictionary(fc.constantFrom("a", "b", "c", "d"), fc.constantFrom("1", "2"), {
  maxKeys: 4,
  noNullPrototype: true,
});
const labelsArb = fc.dictionary(fc.constantFrom("x", "y"), fc.constantFrom("1", "2"), {
  maxKeys: 2,
  noNullPrototype: true,
});
const configArb = fc.record({ data: dataArb, labels: labelsArb }).map(({ data, labels }) =>
  cm(data, { labels })
);

Deno.test("apply() is idempotent: re-applying any configuration changes nothing", () => {
  fc.assert(
    fc.property(configArb, configArb, (first, second) => {
      const live = stored(ok(apply(undefined, first, opts("A"))).object);
      const once = apply(live, second, opts("A"));
      if (once._tag === "Left") return;
      const twice = ok(apply(stored(once.right.object), second, opts("A", { now: 9e12 })));
      assert.equal(twice.changed, false);
      assert.deepEqual(twice.object, stored(once.right.object));
    }),
    { numRuns: 150 },
  );
});

Deno.test("apply() by a sole manager leaves exactly the configuration's data (others' data kept)", () => {
  fc.assert(
    fc.property(configArb, configArb, dataArb, (first, second, otherData) => {
      const base = stored(ok(apply(undefined, cm(otherData), opts("B"))).object);
      const r1 = apply(base, first, opts("A", { force: true }));
      if (r1._tag === "Left") return;
      const r2 = ok(apply(stored(r1.right.object), second, opts("A", { force: true })));
      const data = (r2.object.data ?? {}) as Record<string, string>;
      for (const [k, v] of Object.entries(second.data as Record<string, string>)) {
        assert.equal(data[k], v);
      }
      const firstData = first.data as Record<string, string>;
      for (const k of Object.keys(data)) {
        const kept = k in (second.data as object) || (k in otherData && !(k in firstData));
        assert.ok(
          kept || (k in otherData && otherData[k] === firstData[k]),
          `unexpected data.${k}`,
        );
      }
    }),
    { numRuns: 150 },
  );
});
