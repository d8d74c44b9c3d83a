import assert from "node:assert/strict";
import { openWatch, widgetCrd, withApi } from "./_api.ts";

const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const widgets = "/apis/example.com/v1/namespaces/default/widgets";
const widget = (name: string, spec: Record<string, unknown> = { size: 1 }) => ({
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name },
  spec,
});

Deno.test("a created CRD is served at once and becomes Established in a MODIFIED event", () =>
  withApi(async (api) => {
    const w = await openWatch(api, `${crds}?watch=true`);
    const created = await api.post(crds, widgetCrd());
    assert.equal(created.status, 201);
    // As kube's strategy creates it: no finalizer yet (the first delete adds it), an empty
    // status with the storage version stored.
    assert.equal(created.body.metadata.finalizers, undefined);
    assert.deepEqual(created.body.status, {
      acceptedNames: { plural: "", kind: "" },
      storedVersions: ["v1"],
    });
    assert.equal((await api.post(widgets, widget("w"))).status, 201, "served in the same turn");
    assert.equal((await w.events.next()).type, "ADDED");
    const modified = await w.events.next();
    assert.equal(modified.type, "MODIFIED");
    const conds = Object.fromEntries(
      modified.object.status.conditions.map((
        c: { type: string; status: string },
      ) => [c.type, c.status]),
    );
    assert.deepEqual(conds, { NamesAccepted: "True", Established: "True" });
    assert.deepEqual(modified.object.status.storedVersions, ["v1"]);
    assert.equal(modified.object.status.acceptedNames.kind, "Widget");
    await w.events.close();
    const discovery = await api.get("/apis/example.com/v1");
    const names = discovery.body.resources.map((r: { name: string }) => r.name);
    assert.deepEqual(names, ["widgets", "widgets/status", "widgets/scale"]);
    const groups = await api.get("/apis");
    assert.ok(groups.body.groups.some((g: { name: string }) => g.name === "example.com"));
  }));

Deno.test("custom resources are pruned, defaulted and validated with every bad field named", () =>
  withApi(async (api) => {
    await api.post(crds, widgetCrd());
    const ok = await api.post(widgets, widget("w", { size: 2, extra: "dropped" }));
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.body.spec, { size: 2, color: "red" });
    assert.match(ok.headers.get("warning") ?? "", /unknown field \\?"spec.extra\\?"/);
    const bad = await api.post(widgets, widget("bad", { size: 0, color: "green" }));
    assert.equal(bad.status, 422);
    assert.equal(bad.body.details.kind, "Widget");
    assert.equal(bad.body.details.group, "example.com");
    const fields = bad.body.details.causes.map((c: { field: string; reason: string }) =>
      `${c.field} ${c.reason}`
    );
    assert.deepEqual(fields.sort(), [
      "spec.color FieldValueNotSupported",
      "spec.size FieldValueInvalid",
    ]);
    const strict = await api.post(
      `${widgets}?fieldValidation=Strict`,
      widget("s", { size: 1, extra: 1 }),
    );
    assert.equal(strict.status, 400);
    assert.match(strict.body.message, /strict decoding error: unknown field "spec.extra"/);
    const missing = await api.post(widgets, widget("m", {}));
    assert.equal(missing.status, 422);
    assert.equal(missing.body.details.causes[0].field, "spec.size");
  }));

Deno.test("printer columns render in Tables of custom resources", () =>
  withApi(async (api) => {
    await api.post(crds, widgetCrd());
    await api.post(widgets, widget("w", { size: 3 }));
    await api.patch(`${widgets}/w/status`, { status: { phase: "Ready" } });
    const t = await api.call("GET", widgets, undefined, {
      accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
    });
    assert.deepEqual(t.body.columnDefinitions.map((c: { name: string }) => c.name), [
      "Name",
      "Size",
      "Phase",
      "Age",
    ]);
    assert.deepEqual(t.body.rows[0].cells.slice(0, 3), ["w", 3, "Ready"]);
  }));

Deno.test("several versions share one storage; reading through another version rewrites apiVersion", () =>
  withApi(async (api) => {
    const schema = {
      openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    };
    await api.post(
      crds,
      widgetCrd({
        versions: [
          { name: "v1beta1", served: true, storage: false, schema },
          { name: "v1", served: true, storage: true, schema },
          { name: "v1alpha1", served: false, storage: false, schema },
        ],
      }),
    );
    await api.post(widgets, widget("w", { size: 1 }));
    const beta = await api.get("/apis/example.com/v1beta1/namespaces/default/widgets/w");
    assert.equal(beta.body.apiVersion, "example.com/v1beta1");
    const list = await api.get("/apis/example.com/v1beta1/namespaces/default/widgets");
    assert.equal(list.body.items[0].apiVersion, "example.com/v1beta1");
    assert.equal(
      (await api.get("/apis/example.com/v1alpha1/namespaces/default/widgets")).status,
      404,
    );
    const group = await api.get("/apis/example.com");
    assert.deepEqual(group.body.versions.map((v: { version: string }) => v.version), [
      "v1",
      "v1beta1",
    ]);
    assert.equal(group.body.preferredVersion.version, "v1");
  }));

Deno.test("deleting a CRD deletes its objects, then stops serving it", () =>
  withApi(async (api) => {
    await api.post(crds, widgetCrd());
    await api.post(widgets, widget("a"));
    await api.post(widgets, {
      ...widget("b"),
      metadata: { name: "b", finalizers: ["example.com/hold"] },
    });
    const w = await openWatch(
      api,
      `${crds}?watch=true&fieldSelector=metadata.name%3Dwidgets.example.com`,
    );
    await w.events.next();
    await api.del(`${crds}/widgets.example.com`);
    // The CRD waits for b's finalizer.
    let e = await w.events.next();
    while (!e.object.status.conditions?.some((c: { type: string }) => c.type === "Terminating")) {
      e = await w.events.next();
    }
    // The delete added the cleanup finalizer (kube's CRD REST Delete).
    assert.deepEqual(e.object.metadata.finalizers, ["customresourcecleanup.apiextensions.k8s.io"]);
    assert.equal((await api.get(`${widgets}/a`)).status, 404);
    assert.ok((await api.get(`${widgets}/b`)).body.metadata.deletionTimestamp);
    await api.patch(`${widgets}/b`, { metadata: { finalizers: null } });
    while (e.type !== "DELETED") e = await w.events.next();
    await w.events.close();
    assert.equal((await api.get(widgets)).status, 404);
    assert.equal((await api.get("/apis/example.com/v1")).status, 404);
  }));

Deno.test("invalid CRDs are rejected naming the fields; name conflicts are reported in conditions", () =>
  withApi(async (api) => {
    const bad = widgetCrd();
    bad.metadata.name = "wrong.example.com";
    (bad.spec as Record<string, unknown>).scope = "Galaxy";
    const r = await api.post(crds, bad);
    assert.equal(r.status, 422);
    const fields = r.body.details.causes.map((c: { field: string }) => c.field).sort();
    assert.deepEqual(fields, ["metadata.name", "spec.scope"]);
    const notStructural = widgetCrd({
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: "object", properties: { spec: { properties: {} } } } },
      }],
    });
    const ns = await api.post(crds, notStructural);
    assert.equal(ns.status, 422);
    assert.match(
      ns.body.message,
      /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.type/,
    );
    await api.post(crds, widgetCrd());
    const clash = widgetCrd();
    clash.metadata.name = "gadgets.example.com";
    clash.spec.names = { plural: "gadgets", singular: "gadget", kind: "Widget", shortNames: [] };
    const w = await openWatch(
      api,
      `${crds}?watch=true&fieldSelector=metadata.name%3Dgadgets.example.com`,
    );
    await api.post(crds, clash);
    let e = await w.events.next();
    while (!e.object.status.conditions) e = await w.events.next();
    const accepted = e.object.status.conditions.find((c: { type: string }) =>
      c.type === "NamesAccepted"
    );
    assert.equal(accepted.status, "False");
    await w.events.close();
    assert.equal((await api.get("/apis/example.com/v1/namespaces/default/gadgets")).status, 404);
  }));
