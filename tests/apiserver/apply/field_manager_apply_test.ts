import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../lib/core/object.ts";
import {
  allowedConflictsFromLastApplied,
  type ApplyOptions,
  applySchemaFor,
  fieldManagerApply,
  formatFieldSet,
  fromFieldsV1,
  LAST_APPLIED_ANNOTATION,
  lastAppliedConfiguration,
  recordUpdate,
  removeFields,
  syncLastApplied,
} from "../../../lib/apiserver/apply/mod.ts";
import { fieldSetOf } from "../../../lib/apiserver/apply/field_set.ts";
import { fieldElement as f } from "../../../lib/apiserver/apply/path_element.ts";

const schema = applySchemaFor("v1", "ConfigMap");
const opts = (manager: string, extra: Partial<ApplyOptions> = {}): ApplyOptions => ({
  manager,
  now: 1_735_787_045_000,
  apiVersion: "v1",
  schema,
  ...extra,
});
const cm = (data: Record<string, string>, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "demo", namespace: "default", ...meta },
  data,
});
const entries = (o: KubeObject) =>
  (o.metadata?.managedFields ?? []).map((e) => {
    const r = fromFieldsV1(e.fieldsV1 ?? {});
    return {
      manager: e.manager,
      operation: e.operation,
      fields: r._tag === "Right" ? formatFieldSet(r.right) : [],
    };
  });

/** What `kubectl apply` (client-side) stores on create: the annotation and an Update entry. */
function clientSideApplied(data: Record<string, string>, labels = { app: "x" }): KubeObject {
  const config = cm(data, { labels, annotations: {} });
  const created = cm(data, {
    labels,
    annotations: { [LAST_APPLIED_ANNOTATION]: lastAppliedConfiguration(config) },
    uid: "u1",
    resourceVersion: "5",
  });
  const managedFields = recordUpdate(undefined, created, {
    manager: "kubectl-client-side-apply",
    now: 1_735_787_000_000,
    apiVersion: "v1",
    schema,
  });
  return { ...created, metadata: { ...created.metadata, managedFields } } as KubeObject;
}

Deno.test("fieldManagerApply() lets kubectl take fields its client-side apply set (last-applied)", () => {
  const live = clientSideApplied({ a: "1", b: "2" });
  const r = fieldManagerApply(
    live,
    cm({ a: "3", b: "2" }, { labels: { app: "x" } }),
    opts("kubectl"),
  );
  assert.equal(r._tag, "Right");
  if (r._tag !== "Right") return;
  assert.deepEqual(r.right.object.data, { a: "3", b: "2" });
  const byManager = Object.fromEntries(entries(r.right.object).map((e) => [e.manager, e.fields]));
  assert.deepEqual(byManager.kubectl, [".data.a", ".data.b", ".metadata.labels.app"]);
  // The annotation follows the configuration just applied (Go's JSON, newline-terminated).
  assert.equal(
    r.right.object.metadata?.annotations?.[LAST_APPLIED_ANNOTATION],
    '{"apiVersion":"v1","data":{"a":"3","b":"2"},"kind":"ConfigMap","metadata":{"labels":{"app":"x"},"name":"demo","namespace":"default"}}\n',
  );
});

Deno.test("fieldManagerApply() still conflicts on fields changed since the client-side apply", () => {
  const live0 = clientSideApplied({ a: "1", b: "2" });
  // A controller changed b after kubectl's client-side apply.
  const changed = { ...live0, data: { a: "1", b: "ctrl" } };
  const live = {
    ...changed,
    metadata: {
      ...changed.metadata,
      managedFields: recordUpdate(live0, changed, {
        manager: "ctrl",
        now: 1_735_787_001_000,
        apiVersion: "v1",
        schema,
      }),
    },
  };
  const r = fieldManagerApply(live, cm({ a: "3", b: "4" }), opts("kubectl"));
  assert.equal(r._tag, "Left");
  if (r._tag !== "Left" || r.left.type !== "conflict") return;
  // .data.a is allowed (still as last applied); .data.b was taken by ctrl.
  assert.deepEqual(
    r.left.conflicts.map((c) => [
      c.manager,
      c.path.map((e) => e.type === "field" ? e.name : "?").join("."),
    ]),
    [
      ["ctrl", "data.b"],
    ],
  );
});

Deno.test("fieldManagerApply() upgrades only the kubectl field manager", () => {
  const live = clientSideApplied({ a: "1" });
  const r = fieldManagerApply(live, cm({ a: "3" }), opts("other"));
  assert.equal(r._tag === "Left" && r.left.type, "conflict");
  // Without the annotation kubectl conflicts like anyone else.
  const { annotations: _, ...meta } = live.metadata!;
  const bare = { ...live, metadata: meta };
  const r2 = fieldManagerApply(bare, cm({ a: "3" }), opts("kubectl"));
  assert.equal(r2._tag === "Left" && r2.left.type, "conflict");
  // An annotation of another version gives nothing either.
  const other = {
    ...live,
    metadata: {
      ...live.metadata,
      annotations: { [LAST_APPLIED_ANNOTATION]: '{"apiVersion":"v2","data":{"a":"1"}}' },
    },
  };
  const r3 = fieldManagerApply(other, cm({ a: "3" }), opts("kubectl"));
  assert.equal(r3._tag === "Left" && r3.left.type, "conflict");
});

Deno.test("fieldManagerApply() gives an object without managed fields to before-first-apply", () => {
  const live = cm({ a: "1", b: "2" }, { uid: "u1", resourceVersion: "3" });
  const same = fieldManagerApply(live, cm({ a: "1" }), opts("mine"));
  assert.equal(same._tag, "Right");
  if (same._tag !== "Right") return;
  assert.deepEqual(entries(same.right.object), [
    { manager: "mine", operation: "Apply", fields: [".data.a"] },
    { manager: "before-first-apply", operation: "Update", fields: [".data", ".data.a", ".data.b"] },
  ]);
  const clash = fieldManagerApply(live, cm({ a: "9" }), opts("mine"));
  assert.equal(clash._tag, "Left");
  if (clash._tag === "Left" && clash.left.type === "conflict") {
    assert.equal(clash.left.conflicts[0].manager, "before-first-apply");
  }
});

Deno.test("allowedConflictsFromLastApplied() is the last-applied fields whose values still hold", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom("a", "b", "c", "d"), fc.constantFrom("1", "2")),
      fc.dictionary(fc.constantFrom("a", "b", "c", "d"), fc.constantFrom("1", "2")),
      (last, now) => {
        const annotation = lastAppliedConfiguration(cm(last));
        const live = cm(now, { annotations: { [LAST_APPLIED_ANNOTATION]: annotation } });
        const allowed = allowedConflictsFromLastApplied(live, {
          apiVersion: "v1",
          schema,
          scope: "all",
        });
        const expected = Object.keys(last).filter((k) => now[k] === last[k]).sort().map((k) =>
          `.data.${k}`
        );
        const got = formatFieldSet(allowed!).filter((p) => p.startsWith(".data."));
        assert.deepEqual(got, expected);
      },
    ),
  );
});

Deno.test("syncLastApplied() keeps the annotation only while it exists and fits 256 KiB", () => {
  const applied = cm({ a: "<&>" });
  assert.equal(syncLastApplied(cm({}), applied).metadata?.annotations, undefined);
  const withIt = cm({}, { annotations: { [LAST_APPLIED_ANNOTATION]: "{}" } });
  assert.equal(
    syncLastApplied(withIt, applied).metadata?.annotations?.[LAST_APPLIED_ANNOTATION],
    '{"apiVersion":"v1","data":{"a":"\\u003c\\u0026\\u003e"},"kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"}}\n',
  );
  const huge = cm({ a: "x".repeat(300 * 1024) });
  assert.equal(
    syncLastApplied(withIt, huge).metadata?.annotations?.[LAST_APPLIED_ANNOTATION],
    undefined,
  );
});

Deno.test("removeFields() keeps what another manager owns below a removed map", () => {
  const obj = { metadata: { annotations: { keep: "1", drop: "2" } } };
  const toRemove = fieldSetOf([[f("metadata"), f("annotations")]]);
  const owned = fieldSetOf([[f("metadata"), f("annotations"), f("keep")]]);
  assert.deepEqual(removeFields(obj, toRemove, { owned }), {
    metadata: { annotations: { keep: "1" } },
  });
  assert.deepEqual(removeFields(obj, toRemove), {});
});
