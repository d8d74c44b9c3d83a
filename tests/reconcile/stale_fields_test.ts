import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { diff, E, type KubeObject, staleFields, stripManagedFields } from "../../mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

const M = "kubefold-web";
type Entry = NonNullable<NonNullable<KubeObject["metadata"]>["managedFields"]>[number];
const entry = (
  fieldsV1: Record<string, unknown>,
  extra: Partial<Entry> = {},
): Entry => ({ manager: M, operation: "Apply", fieldsV1, ...extra });
const withFields = (o: KubeObject, ...entries: Entry[]): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, managedFields: entries },
});

const observed: KubeObject = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "a", labels: { app: "web", tier: "front" } },
  data: { k: "v", old: "x" },
};
const labelsAndData = {
  "f:metadata": { "f:labels": { "f:app": {}, "f:tier": {} } },
  "f:data": { ".": {}, "f:k": {}, "f:old": {} },
};

Deno.test("staleFields() reports the fields the manager applied that desired dropped, shallowest first", () => {
  const o = withFields(observed, entry(labelsAndData));
  const desired = { metadata: { name: "a", labels: { app: "web" } }, data: { k: "v" } };
  assert.deepEqual(staleFields(desired, o, { fieldManager: M }), [
    "metadata.labels.tier",
    "data.old",
  ]);
  assert.deepEqual(staleFields({ metadata: { name: "a" } }, o, { fieldManager: M }), [
    "metadata.labels",
    "data",
  ]);
  const all = {
    metadata: { name: "a", labels: { app: "web", tier: "x" } },
    data: { k: "v", old: "y" },
  };
  assert.deepEqual(staleFields(all, o, { fieldManager: M }), [], "values are diff's business");
});

Deno.test("staleFields() reports dropped fields other entries own too: the apply gives up this manager's claim", () => {
  const desired = { metadata: { name: "a", labels: { app: "web" } }, data: { k: "v" } };
  const tier = { "f:metadata": { "f:labels": { "f:tier": {} } }, "f:data": { "f:old": {} } };
  for (
    const other of [
      entry(tier, { manager: "kubectl", operation: "Update" }),
      entry(tier, { manager: "kubectl" }),
      entry(tier, { operation: "Update" }),
    ]
  ) {
    assert.deepEqual(
      staleFields(desired, withFields(observed, entry(labelsAndData), other), { fieldManager: M }),
      ["metadata.labels.tier", "data.old"],
      JSON.stringify(other),
    );
  }
});

Deno.test("staleFields() reads only the manager's own Apply entry of the main resource", () => {
  const desired = { metadata: { name: "a" } };
  for (
    const e of [
      entry(labelsAndData, { manager: "kubefold-other" }),
      entry(labelsAndData, { operation: "Update" }),
      entry(labelsAndData, { subresource: "status" }),
    ]
  ) {
    assert.deepEqual(staleFields(desired, withFields(observed, e), { fieldManager: M }), []);
  }
});

Deno.test("staleFields() cannot tell without managed fields: undefined, also after stripManagedFields", () => {
  const o = withFields(observed, entry(labelsAndData));
  assert.equal(staleFields({ metadata: { name: "a" } }, observed, { fieldManager: M }), undefined);
  assert.equal(
    staleFields({ metadata: { name: "a" } }, stripManagedFields(o), { fieldManager: M }),
    undefined,
  );
  assert.equal(staleFields({}, withFields(observed), { fieldManager: M }), undefined);
});

Deno.test("staleFields() counts a null in desired as present, skips ignored root paths and server-owned ones", () => {
  const o = withFields(
    { ...observed, status: { phase: "x" } },
    entry({ ...labelsAndData, "f:status": { "f:phase": {} } }),
  );
  const desired = { metadata: { name: "a", labels: { app: "web", tier: "front" } }, data: null };
  assert.deepEqual(staleFields(desired, o, { fieldManager: M }), []);
  const one = {
    metadata: { name: "a", labels: { app: "web", tier: "front" } },
    data: { old: null },
  };
  assert.deepEqual(staleFields(one, o, { fieldManager: M }), ["data.k"]);
  assert.deepEqual(
    staleFields({ metadata: { name: "a" }, data: null }, o, {
      fieldManager: M,
      ignore: ["metadata.labels"],
    }),
    ["status"],
  );
});

const deployment = (container: Record<string, unknown>): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web" },
  spec: { template: { spec: { containers: [{ name: "c", image: "nginx", ...container }] } } },
});
const containerFields = {
  "f:spec": {
    "f:template": {
      "f:spec": {
        "f:containers": {
          'k:{"name":"c"}': {
            ".": {},
            "f:name": {},
            "f:image": {},
            "f:env": { 'k:{"name":"A"}': { ".": {}, "f:name": {}, "f:value": {} } },
            "f:ports": {
              'k:{"containerPort":80,"protocol":"TCP"}': {
                ".": {},
                "f:containerPort": {},
                "f:name": {},
              },
            },
          },
        },
      },
    },
  },
};

Deno.test("staleFields() walks into list-map items desired keeps: a container's dropped env is stale", () => {
  const o = withFields(
    deployment({
      env: [{ name: "A", value: "1" }],
      ports: [{ containerPort: 80, protocol: "TCP", name: "http" }],
    }),
    entry(containerFields),
  );
  const port = { containerPort: 80, name: "http" };
  // The port's protocol was defaulted by the server: the key still matches.
  assert.deepEqual(
    staleFields(deployment({ env: [{ name: "A", value: "1" }], ports: [port] }), o, {
      fieldManager: M,
    }),
    [],
  );
  assert.deepEqual(
    staleFields(deployment({ ports: [{ containerPort: 80 }] }), o, { fieldManager: M }),
    [
      'spec.template.spec.containers[name="c"].env',
      'spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].name',
    ],
  );
  // An env var dropped from the list is diff's: the list changed (lists are atomic there).
  const fewer = deployment({ env: [], ports: [port] });
  assert.deepEqual(staleFields(fewer, o, { fieldManager: M }), []);
  assert.notEqual(diff(fewer, o), undefined);
  // A container dropped is diff's too.
  const none = { ...fewer, spec: { template: { spec: { containers: [] } } } };
  assert.deepEqual(staleFields(none, o, { fieldManager: M }), []);
  assert.notEqual(diff(none, o), undefined);
});

// A server-side-apply oracle: the embedded server's apply (defaults, list maps, ownership).
const podAnnotations = fc.dictionary(
  fc.constantFrom("prometheus.io/scrape", "prometheus.io/port"),
  fc.constantFrom("true", "9090"),
  { maxKeys: 2 },
);
const containerArb = fc.record({
  name: fc.constantFrom("c1", "c2"),
  image: fc.constantFrom("nginx:1", "nginx:2"),
  env: fc.option(
    fc.uniqueArray(
      fc.record({ name: fc.constantFrom("A", "B"), value: fc.constantFrom("1", "2") }),
      { selector: (e) => e.name, minLength: 1 },
    ),
    { nil: undefined },
  ),
  command: fc.option(fc.constant(["serve"]), { nil: undefined }),
  ports: fc.option(
    fc.constantFrom<{ containerPort: number; name?: string; protocol?: string }[]>(
      [{ containerPort: 80 }],
      [{ containerPort: 80, name: "http" }],
      [{ containerPort: 81, protocol: "UDP" }],
    ),
    { nil: undefined },
  ),
}, { requiredKeys: ["name", "image"] });
const desiredArb = fc.record({
  labels: fc.dictionary(fc.constantFrom("tier", "team"), fc.constantFrom("a", "b"), { maxKeys: 2 }),
  annotations: fc.option(fc.record({ note: fc.constantFrom("x", "y") }), { nil: undefined }),
  replicas: fc.option(fc.constantFrom(1, 2), { nil: undefined }),
  podAnnotations,
  containers: fc.uniqueArray(containerArb, { selector: (c) => c.name, minLength: 1, maxLength: 2 }),
}, { requiredKeys: ["containers"] });
type Desired = typeof desiredArb extends fc.Arbitrary<infer T> ? T : never;
/** A and B: unrelated, or B is A with some fields dropped (what a reconciler stops rendering). */
const pairArb: fc.Arbitrary<[Desired, Desired]> = fc.oneof(
  fc.tuple(desiredArb, desiredArb),
  fc.tuple(desiredArb, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 })).map(
    ([a, drop]): [Desired, Desired] => {
      const b = structuredClone(a);
      if (drop[0]) delete b.labels;
      if (drop[1]) delete b.annotations;
      if (drop[2]) delete b.podAnnotations?.["prometheus.io/scrape"];
      if (drop[3]) delete b.replicas;
      b.containers.forEach((c, i) => {
        if (drop[4 + 4 * i]) delete c.env;
        if (drop[5 + 4 * i]) delete c.command;
        if (drop[6 + 4 * i]) delete c.ports;
        if (drop[7 + 4 * i] && c.ports) c.ports = c.ports.map(({ name: _, ...p }) => p);
      });
      return [a, b];
    },
  ),
);
const render = (name: string, d: Desired): KubeObject => {
  const nonEmpty = (m: Record<string, string> | undefined) =>
    m && Object.keys(m).length ? m : undefined;
  return JSON.parse(JSON.stringify({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name,
      namespace: "default",
      labels: nonEmpty(d.labels),
      annotations: nonEmpty(d.annotations),
    },
    spec: {
      replicas: d.replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: nonEmpty(d.podAnnotations) },
        spec: { containers: d.containers },
      },
    },
  }));
};
/** What another manager does in between: nothing, or set an annotation by apply or patch. */
const otherArb = fc.constantFrom(
  "none",
  "apply-same",
  "apply-same",
  "apply-new",
  "patch-changed",
  "patch-new",
);
/** The object without bookkeeping, and this manager's Apply entry: what an apply can change. */
const content = (o: KubeObject | undefined) => {
  const { managedFields, resourceVersion: _r, generation: _g, ...meta } = o?.metadata ?? {};
  const mine = managedFields?.find((e) => e.manager === M && e.operation === "Apply");
  return JSON.stringify({ ...o, metadata: meta, mine: mine?.fieldsV1 });
};

Deno.test("staleFields() agrees with server-side apply: with nothing diff sees, a stale field is exactly what makes an apply change the object or the manager's fields; after the apply nothing is stale", async () => {
  using api = createTestApi();
  const client = api.client({ fieldManager: M });
  const kind = { apiVersion: "apps/v1", kind: "Deployment" };
  let n = 0;
  await fc.assert(
    fc.asyncProperty(pairArb, otherArb, async ([a, b], other) => {
      const name = `d${n++}`;
      const first = await client.apply(render(name, a), { fieldManager: M, force: false });
      assert.ok(E.isRight(first), JSON.stringify(first));
      const note = a.annotations?.note;
      if (other === "apply-same" || other === "apply-new") {
        const value = other === "apply-same" && note ? note : "z";
        const r = await client.apply({
          ...kind,
          metadata: { name, namespace: "default", annotations: { note: value } },
        }, { fieldManager: "kubectl", force: true });
        assert.ok(E.isRight(r));
      } else if (other !== "none") {
        const r = await client.patch(kind, name, {
          namespace: "default",
          fieldManager: "kubectl-annotate",
          patch: {
            type: "merge",
            body: {
              metadata: { annotations: { [other === "patch-new" ? "extra" : "note"]: "z" } },
            },
          },
        });
        assert.ok(E.isRight(r));
      }
      const live = api.get(kind, name)!;
      const desired = render(name, b);
      const stale = staleFields(desired, live, { fieldManager: M });
      assert.ok(stale !== undefined);
      const drift = diff(desired, live);
      const second = await client.apply(desired, { fieldManager: M, force: true });
      assert.ok(E.isRight(second), JSON.stringify(second));
      const after = api.get(kind, name)!;
      if (drift === undefined) {
        assert.equal(stale.length > 0, content(after) !== content(live), stale.join(", "));
      }
      assert.deepEqual(staleFields(desired, after, { fieldManager: M }), []);
      assert.equal(diff(desired, after), undefined);
    }),
    { numRuns: 300 },
  );
});
