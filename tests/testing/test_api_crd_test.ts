import assert from "node:assert/strict";
import { createTestApi } from "../../lib/testing/mod.ts";
import type { apiextensionsv1 as k8sApiextensions, KubeObject } from "../../mod.ts";
import { left, right } from "./_test_api.ts";

const widgetCrd = (group = "example.com"): k8sApiextensions.CustomResourceDefinition => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: "Namespaced",
    names: { plural: "widgets", kind: "Widget" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              properties: { size: { type: "integer", default: 1, minimum: 1 } },
            },
            status: { type: "object", properties: { ready: { type: "boolean" } } },
          },
        },
      },
    }],
  },
});
const widget = (name: string, spec: object, group = "example.com"): KubeObject => ({
  apiVersion: `${group}/v1`,
  kind: "Widget",
  metadata: { name, namespace: "default" },
  spec,
});
const widgets = { apiVersion: "example.com/v1", kind: "Widget" };

Deno.test("createTestApi() serves its CRDs' custom resources with their schema and status rules", async () => {
  using api = createTestApi({ crds: [widgetCrd()] });
  const client = api.client();
  const made = right(await client.create(widget("w", { size: 2, color: "red" })));
  assert.equal(made.metadata?.generation, 1);
  assert.deepEqual(made.spec, { size: 2 }); // unknown fields are pruned
  assert.deepEqual(right(await client.create(widget("d", {}))).spec, { size: 1 }); // defaulted
  const invalid = left(await client.create(widget("z", { size: 0 })));
  assert.equal(invalid.code, 422);
  const status = right(await client.replaceStatus({ ...made, status: { ready: true } }));
  assert.equal(status.metadata?.generation, 1);
  const resized = right(
    await client.patch(widgets, "w", { patch: { type: "merge", body: { spec: { size: 3 } } } }),
  );
  assert.equal(resized.metadata?.generation, 2);
  assert.deepEqual(resized.status, { ready: true });
  const smp = left(await client.patch(widgets, "w", { patch: { type: "strategic", body: {} } }));
  assert.equal(smp.code, 415);
  const unconditional = left(
    await client.replace({ ...made, metadata: { name: "w", namespace: "default" } }),
  );
  assert.equal(unconditional.code, 422);
});

Deno.test("createTestApi() serves a CRD created through a client and marks it Established", async () => {
  using api = createTestApi();
  const client = api.client();
  const gadgets = { apiVersion: "gadgets.io/v1", kind: "Widget" };
  const before = await client.create(widget("w", {}, "gadgets.io"));
  assert.ok(before._tag === "Left" && before.left.type === "resolve", "not served yet");
  right(await client.create(widgetCrd("gadgets.io") as unknown as KubeObject));
  await api.clock.settle();
  const crd = api.get(
    { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" },
    "widgets.gadgets.io",
  );
  const conditions = (crd?.status as { conditions: { type: string; status: string }[] }).conditions;
  assert.ok(conditions.some((c) => c.type === "Established" && c.status === "True"));
  right(await client.create(widget("w", {}, "gadgets.io")));
  assert.deepEqual(api.list(gadgets).map((w) => w.metadata?.name), ["w"]);
});
