import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../mod.ts";
import {
  apply,
  applySchemaFor,
  formatFieldSet,
  fromFieldsV1,
  managerFromUserAgent,
  recordUpdate,
} from "../../../lib/apiserver/apply/mod.ts";

const schema = applySchemaFor("v1", "ConfigMap");
const cm = (data: Record<string, string>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "demo", uid: "u", resourceVersion: "3", ...meta },
  data,
});
const fields = (e: { fieldsV1?: unknown } | undefined) => {
  const r = fromFieldsV1(e?.fieldsV1 ?? {});
  return r._tag === "Right" ? formatFieldSet(r.right) : [];
};
const upd = (manager: string, now = 0) => ({ manager, now, apiVersion: "v1", schema });

Deno.test("recordUpdate() on create gives every field to the writer, maps with '.'", () => {
  const mf = recordUpdate(
    undefined,
    cm({ a: "1" }, { labels: { app: "x" } }),
    upd("kubectl", 5_000),
  );
  assert.deepEqual(mf, [{
    manager: "kubectl",
    operation: "Update",
    apiVersion: "v1",
    time: "1970-01-01T00:00:05Z",
    fieldsType: "FieldsV1",
    fieldsV1: {
      "f:data": { "f:a": {}, ".": {} },
      "f:metadata": { "f:labels": { "f:app": {}, ".": {} } },
    },
  }]);
});

Deno.test("recordUpdate() never tracks server-set metadata, apiVersion, kind, name", () => {
  const old = cm({});
  const next = {
    ...cm({}, { resourceVersion: "9", generation: 4, name: "demo" }),
    kind: "ConfigMap",
  };
  assert.deepEqual(recordUpdate(old, next, upd("x")), []);
});

Deno.test("recordUpdate() after apply steals the changed fields from the applier", () => {
  const applied = apply(
    undefined,
    cm({ a: "1", b: "1" }, { uid: undefined, resourceVersion: undefined }),
    {
      manager: "kubectl",
      now: 0,
      apiVersion: "v1",
      schema,
    },
  );
  if (applied._tag === "Left") return assert.fail("apply failed");
  const live = applied.right.object;
  const next = { ...live, data: { a: "2", b: "1" } };
  const mf = recordUpdate(live, next, upd("ctrl", 1000));
  assert.deepEqual(mf.map((e) => [e.manager, e.operation, fields(e)]), [
    ["kubectl", "Apply", [".data.b"]],
    ["ctrl", "Update", [".data.a"]],
  ]);
});

Deno.test("recordUpdate() merges with the writer's earlier Update entry and drops empty managers", () => {
  const one = cm({ a: "1" });
  const m1 = recordUpdate(undefined, one, upd("w1"));
  const two = { ...cm({ a: "1", b: "1" }), metadata: { ...one.metadata, managedFields: m1 } };
  const m2 = recordUpdate(
    { ...one, metadata: { ...one.metadata, managedFields: m1 } },
    two,
    upd("w2"),
  );
  const three = { ...cm({ a: "2", b: "2" }), metadata: { ...one.metadata, managedFields: m2 } };
  const m3 = recordUpdate(
    { ...two, metadata: { ...two.metadata, managedFields: m2 } },
    three,
    upd("w2"),
  );
  assert.deepEqual(m3.map((e) => [e.manager, fields(e)]), [
    ["w1", [".data"]],
    ["w2", [".data.a", ".data.b"]],
  ]);
  const o1: KubeObject = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "demo" },
    immutable: false,
  };
  const o1mf = {
    ...o1,
    metadata: { ...o1.metadata, managedFields: recordUpdate(undefined, o1, upd("w1")) },
  };
  const o2 = { ...o1mf, immutable: true };
  assert.deepEqual(recordUpdate(o1mf, o2, upd("w2")).map((e) => [e.manager, fields(e)]), [["w2", [
    ".immutable",
  ]]]);
});

Deno.test("recordUpdate() removes deleted fields from every manager", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom("a", "b", "c"), fc.constantFrom("1", "2"), {
        noNullPrototype: true,
      }),
      fc.dictionary(fc.constantFrom("a", "b", "c"), fc.constantFrom("1", "2"), {
        noNullPrototype: true,
      }),
      (d1, d2) => {
        const first = cm(d1);
        const withMf = {
          ...first,
          metadata: { ...first.metadata, managedFields: recordUpdate(undefined, first, upd("w1")) },
        };
        const next = { ...cm(d2), metadata: withMf.metadata };
        const mf = recordUpdate(withMf, next, upd("w2"));
        const owned = new Set(mf.flatMap((e) => fields(e)));
        for (const k of Object.keys(d1)) if (!(k in d2)) assert.ok(!owned.has(`.data.${k}`));
        for (const k of Object.keys(d2)) assert.ok(owned.has(`.data.${k}`), `.data.${k} owned`);
        for (const e of mf) {
          if (e.manager === "w1") {
            for (const f of fields(e)) {
              assert.ok(!f.startsWith(".data.") || d1[f.slice(6)] === d2[f.slice(6)]);
            }
          }
        }
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("recordUpdate() records the status subresource", () => {
  const created = { ...cm({}), status: { phase: "A" } };
  const old = {
    ...created,
    metadata: {
      ...created.metadata,
      managedFields: recordUpdate(undefined, created, upd("kubectl")),
    },
  };
  const next = { ...old, status: { phase: "B" } };
  const mf = recordUpdate(old, next, { ...upd("kubelet"), subresource: "status" });
  const status = mf.find((e) => e.manager === "kubelet");
  assert.equal(status?.subresource, "status");
  assert.deepEqual(fields(status), [".status.phase"]);
});

Deno.test("recordUpdate() does not track an update of an object without managed fields", () => {
  // kube's skipNonAppliedManager: only a create starts tracking; `[]` and `[{}]` reset.
  assert.deepEqual(recordUpdate(cm({ a: "1" }), cm({ a: "2" }), upd("ctrl")), []);
  const created = cm({ a: "1" });
  const tracked = {
    ...created,
    metadata: {
      ...created.metadata,
      managedFields: recordUpdate(undefined, created, upd("kubectl")),
    },
  };
  for (const reset of [[], [{}]]) {
    const next = {
      ...tracked,
      data: { a: "2" },
      metadata: { ...tracked.metadata, managedFields: reset },
    };
    assert.deepEqual(recordUpdate(tracked, next as KubeObject, upd("ctrl")), []);
  }
  // Managed fields a client sends are taken as they are (kubectl's client-side apply upgrade).
  const sent = [{
    manager: "mine",
    operation: "Apply" as const,
    apiVersion: "v1",
    fieldsType: "FieldsV1" as const,
    fieldsV1: { "f:data": { "f:a": {} } },
  }];
  const next = { ...tracked, metadata: { ...tracked.metadata, managedFields: sent } };
  assert.deepEqual(recordUpdate(tracked, next, upd("ctrl")), sent);
});

Deno.test("recordUpdate() keeps at most ten updaters, merging the oldest into ancient-changes", () => {
  let obj: KubeObject = { ...cm({}) };
  obj = {
    ...obj,
    metadata: { ...obj.metadata, managedFields: recordUpdate(undefined, obj, upd("creator")) },
  };
  for (let i = 0; i < 12; i++) {
    const next = { ...obj, data: { ...obj.data as Record<string, string>, [`k${i}`]: "v" } };
    next.metadata = {
      ...next.metadata,
      managedFields: recordUpdate(obj, next, upd(`m${i}`, (i + 1) * 1000)),
    };
    obj = next;
  }
  const mf = obj.metadata?.managedFields ?? [];
  assert.equal(mf.length, 10);
  const ancient = mf.find((e) => e.manager === "ancient-changes");
  // creator (t=0) became the bucket, m0..m2 merged into it; its time is the last merged one's.
  assert.deepEqual(fields(ancient), [".data", ".data.k0", ".data.k1", ".data.k2"]);
  assert.equal(ancient?.time, "1970-01-01T00:00:03Z");
  assert.deepEqual(mf.filter((e) => e.manager !== "ancient-changes").map((e) => e.manager), [
    "m3",
    "m4",
    "m5",
    "m6",
    "m7",
    "m8",
    "m9",
    "m10",
    "m11",
  ]);
});

Deno.test("managerFromUserAgent() takes the User-Agent prefix before '/'", () => {
  assert.equal(managerFromUserAgent("kubectl/v1.30.0 (linux/amd64) kubernetes/7c48c2b"), "kubectl");
  assert.equal(managerFromUserAgent("python-requests"), "python-requests");
  assert.equal(managerFromUserAgent(undefined), "");
  assert.equal(managerFromUserAgent("x".repeat(300)).length, 128);
});
