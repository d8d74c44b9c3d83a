import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { diff, type Json, type JsonObject, SERVER_OWNED_PATHS } from "../../mod.ts";
import { applyMergePatch } from "../../lib/apiserver/patch/merge_patch.ts";

const RUNS = { numRuns: 300 };

// Desired keys never start with "zz": the "server" adds only zz-keys (defaults).
const key = fc.oneof(
  fc.stringMatching(/^[a-e]{1,2}$/),
  fc.constantFrom("metadata", "status", "uid", "labels"),
);
const scalar = fc.oneof(fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom("x", "y"));
const { json } = fc.letrec<{ json: Json; obj: JsonObject }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.constant(null),
    tie("obj"),
    fc.array(tie("json"), { maxLength: 3 }),
  ),
  obj: fc.dictionary(key, tie("json"), { maxKeys: 4 }),
}));
const obj = json.map((j) =>
  typeof j === "object" && j !== null && !Array.isArray(j) ? j : { a: j }
) as fc.Arbitrary<JsonObject>;

/** Adds server-style fields: zz-keys in every object (list items too), and server-owned paths. */
function serverize(value: Json, extra: Json): Json {
  if (Array.isArray(value)) return value.map((v) => serverize(v, extra));
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = { zzDefault: extra };
  for (const [k, v] of Object.entries(value)) out[k] = serverize(v, extra);
  return out;
}
function withServerOwned(o: JsonObject, extra: Json): JsonObject {
  const m = o.metadata;
  if (m !== undefined && (typeof m !== "object" || m === null || Array.isArray(m))) return o;
  const meta = m ?? {};
  return {
    ...o,
    status: extra,
    metadata: { ...meta, uid: "u", resourceVersion: "9", generation: 3, managedFields: [extra] },
  };
}

Deno.test("diff() finds nothing between an object and itself", () => {
  fc.assert(fc.property(obj, (x) => assert.equal(diff(x, structuredClone(x)), undefined)), RUNS);
});

Deno.test("diff() ignores server defaults (also inside list items) and server-owned fields", () => {
  fc.assert(
    fc.property(obj, scalar, (d, extra) => {
      const observed = withServerOwned(serverize(d, extra) as JsonObject, extra);
      assert.equal(diff(d, observed), undefined);
    }),
    RUNS,
  );
});

Deno.test("diff() ignores server-owned paths even when desired sets them", () => {
  fc.assert(
    fc.property(obj, json, json, (o, a, b) => {
      const d = { ...o, status: a, metadata: { uid: a, resourceVersion: b } };
      const observed = { ...o, status: b, metadata: { uid: b, resourceVersion: a } };
      assert.equal(diff(d, observed), undefined);
    }),
    RUNS,
  );
});

Deno.test("diff() returns a merge patch after which nothing differs", () => {
  fc.assert(
    fc.property(obj, obj, (d, o) => {
      const patch = diff(d, o);
      if (patch === undefined) return;
      const patched = applyMergePatch(structuredClone(o), patch);
      assert.equal(diff(d, patched), undefined);
    }),
    RUNS,
  );
});

Deno.test("diff() patches only fields desired has", () => {
  const within = (p: Json, d: Json | undefined): boolean => {
    if (p === null || typeof p !== "object" || Array.isArray(p)) return true;
    if (d === null || typeof d !== "object" || Array.isArray(d)) return false;
    return Object.entries(p).every(([k, v]) => k in d && within(v, d[k]));
  };
  fc.assert(
    fc.property(obj, obj, (d, o) => {
      const patch = diff(d, o);
      if (patch !== undefined) assert.ok(within(patch, d));
    }),
    RUNS,
  );
});

Deno.test("diff() reports a changed scalar, an added field, and a removed-by-null field", () => {
  fc.assert(
    fc.property(obj, scalar, scalar, (o, a, b) => {
      fc.pre(a !== b);
      assert.deepEqual(diff({ zzK: a }, { ...o, zzK: b }), { zzK: a });
      assert.deepEqual(diff({ zzK: a }, o), { zzK: a });
      assert.deepEqual(diff({ zzK: null }, { ...o, zzK: b }), { zzK: null });
    }),
    RUNS,
  );
});

Deno.test("diff() accepts a pod with server-defaulted containers and catches an image change", () => {
  const desired = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", labels: { app: "web" } },
    spec: { containers: [{ name: "c", image: "nginx:1" }] },
  };
  const observed = {
    ...desired,
    metadata: {
      ...desired.metadata,
      uid: "u1",
      resourceVersion: "7",
      creationTimestamp: "2025-01-01T00:00:00Z",
    },
    spec: {
      containers: [{
        name: "c",
        image: "nginx:1",
        terminationMessagePath: "/dev/termination-log",
        imagePullPolicy: "IfNotPresent",
      }],
      restartPolicy: "Always",
      dnsPolicy: "ClusterFirst",
    },
    status: { phase: "Running" },
  };
  assert.equal(diff(desired, observed), undefined);
  const bumped = { ...desired, spec: { containers: [{ name: "c", image: "nginx:2" }] } };
  assert.deepEqual(diff(bumped, observed), {
    spec: { containers: [{ name: "c", image: "nginx:2" }] },
  });
  const two = { ...desired, spec: { containers: [...desired.spec.containers, { name: "d" }] } };
  assert.deepEqual(diff(two, observed), { spec: { containers: two.spec.containers } });
});

Deno.test("diff() treats a missing object as empty and null as absent", () => {
  assert.equal(diff({ metadata: { labels: {} } }, {}), undefined);
  assert.equal(diff({ a: null }, {}), undefined);
  assert.equal(diff({ a: [null] }, { a: [null] }), undefined);
  assert.deepEqual(diff({ a: { b: 1 } }, { a: "s" }), { a: { b: 1 } });
  assert.deepEqual(diff({ a: [1, 2] }, { a: [2, 1] }), { a: [1, 2] });
});

Deno.test("diff() lists the server-owned paths it ignores by default, and takes others", () => {
  assert.ok(SERVER_OWNED_PATHS.includes("status"));
  assert.ok(SERVER_OWNED_PATHS.includes("metadata.managedFields"));
  assert.equal(diff({ spec: { x: 1 } }, { spec: { x: 2 } }, { ignore: ["spec.x"] }), undefined);
  assert.deepEqual(diff({ status: { x: 1 } }, {}, { ignore: [] }), { status: { x: 1 } });
});

Deno.test("diff() throws for a desired value that is not an object (a programmer error)", () => {
  assert.throws(() => diff([1], [1]), TypeError);
});
