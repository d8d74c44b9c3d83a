/**
 * The compiled schemas of built-in kinds, run through the same pipeline as custom resources:
 * types, formats, required fields, int-or-string and quantity values, unknown fields, the
 * x-kubernetes-* extensions of CRD schemas, and lazy loading.
 */
import assert from "node:assert/strict";
import {
  builtinSchema,
  loadDocCatalog,
  lookupBuiltinSchema,
} from "../../../lib/apiserver/openapi/builtin/mod.ts";
import { kinds } from "../../../lib/apiserver/openapi/builtin/data/index.ts";
import { type FieldValidation, processCustomResource } from "../../../lib/apiserver/schema/mod.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

async function check(
  apiVersion: string,
  obj: Json,
  fieldValidation: FieldValidation = "Warn",
): Promise<{ ok: boolean; details: string[]; object?: Json; warnings?: string[] }> {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const schema = await builtinSchema(group, version, obj.kind);
  assert.ok(schema, `no schema for ${apiVersion} ${obj.kind}`);
  const r = processCustomResource({ apiVersion, ...obj }, schema, { fieldValidation });
  return r.ok
    ? { ok: true, details: [], object: r.object, warnings: r.warnings }
    : { ok: false, details: r.errors.map((e) => `${e.field}: ${e.detail}`) };
}

const deployment = (podSpec: Json): Json => ({
  kind: "Deployment",
  metadata: { name: "d" },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: "d" } },
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: 1 } },
    template: { metadata: { labels: { app: "d" } }, spec: podSpec },
  },
});

Deno.test("builtinSchema() rejects a ConfigMap whose data is not a map of strings", async () => {
  const bad = await check("v1", { kind: "ConfigMap", metadata: { name: "c" }, data: "x" });
  assert.deepEqual(bad.details, [
    'data: Invalid value: "string": data in body must be of type object: "string"',
  ]);
  const badValue = await check("v1", {
    kind: "ConfigMap",
    metadata: { name: "c" },
    data: { k: 5 },
  });
  assert.equal(badValue.ok, false);
  assert.match(badValue.details[0], /^data\[k\]: .*must be of type string/);
  assert.equal(
    (await check("v1", { kind: "ConfigMap", metadata: { name: "c" }, data: { k: "v" } })).ok,
    true,
  );
});

Deno.test("builtinSchema() checks a Deployment's pod template: lists, required names, int-or-string, quantities", async () => {
  const ok = await check(
    "apps/v1",
    deployment({
      containers: [{
        name: "web",
        image: "nginx",
        ports: [{ containerPort: 80, protocol: "TCP" }],
        resources: { limits: { cpu: "500m", memory: 1073741824 } },
        livenessProbe: { httpGet: { port: "http", path: "/" } },
      }],
    }),
  );
  assert.deepEqual(ok.details, []);
  const notAList = await check("apps/v1", deployment({ containers: { name: "web" } }));
  assert.ok(
    notAList.details.some((d) =>
      /spec\.template\.spec\.containers: .*must be of type array/.test(d)
    ),
    notAList.details.join("\n"),
  );
  const noName = await check("apps/v1", deployment({ containers: [{ image: "nginx" }] }));
  assert.ok(
    noName.details.includes("spec.template.spec.containers[0].name: Required value"),
    noName.details.join("\n"),
  );
  const badPort = await check(
    "apps/v1",
    deployment({ containers: [{ name: "w", ports: [{ containerPort: "80" }] }] }),
  );
  assert.ok(
    badPort.details.some((d) => d.includes("containerPort") && d.includes("integer")),
    badPort.details.join("\n"),
  );
  const badSurge = await check("apps/v1", {
    ...deployment({ containers: [{ name: "w" }] }),
    spec: { ...deployment({}).spec, strategy: { rollingUpdate: { maxSurge: true } } },
  });
  assert.ok(badSurge.details.some((d) => d.includes("maxSurge")), badSurge.details.join("\n"));
});

Deno.test("builtinSchema() applies formats: int32 range, date-time, base64 bytes", async () => {
  const tooBig = await check("v1", {
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers: [{ name: "c", ports: [{ containerPort: 2 ** 40 }] }] },
  });
  assert.equal(tooBig.ok, false, "containerPort is an int32");
  const badTime = await check("coordination.k8s.io/v1", {
    kind: "Lease",
    metadata: { name: "l" },
    spec: { renewTime: "yesterday" },
  });
  assert.ok(badTime.details.some((d) => d.startsWith("spec.renewTime")), badTime.details.join());
  const badSecret = await check("v1", {
    kind: "Secret",
    metadata: { name: "s" },
    data: { k: "not base64!" },
  });
  assert.ok(badSecret.details.some((d) => d.startsWith("data[k]")), badSecret.details.join());
  assert.equal(
    (await check("v1", { kind: "Secret", metadata: { name: "s" }, data: { k: "aGk=" } })).ok,
    true,
  );
});

Deno.test("builtinSchema() reports unknown fields under Strict and drops them under Warn", async () => {
  const obj = {
    kind: "Service",
    metadata: { name: "s" },
    spec: { ports: [{ port: 80, colour: 1 }] },
  };
  const strict = await check("v1", obj, "Strict");
  assert.deepEqual(strict.details, [
    'spec.ports[0].colour: unknown field "spec.ports[0].colour"',
  ]);
  const warn = await check("v1", obj, "Warn");
  assert.deepEqual(warn.warnings, ['unknown field "spec.ports[0].colour"']);
  assert.deepEqual(warn.object.spec.ports, [{ port: 80, protocol: "TCP" }]);
});

Deno.test("builtinSchema() accepts a CRD with x-kubernetes-* extensions and recursive schemas under Strict", async () => {
  const crd = {
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", kind: "Widget" },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                "x-kubernetes-preserve-unknown-fields": true,
                "x-kubernetes-validations": [{ rule: "self.size > 0" }],
                properties: {
                  items: {
                    type: "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    items: { type: "object", properties: { name: { type: "string" } } },
                  },
                  port: { "x-kubernetes-int-or-string": true },
                },
              },
            },
          },
        },
      }],
    },
  };
  const r = await check("apiextensions.k8s.io/v1", crd, "Strict");
  assert.deepEqual(r.details, []);
  assert.deepEqual(r.object.spec, crd.spec);
});

Deno.test("lookupBuiltinSchema() answers unknown kinds at once and loads a group/version once", async () => {
  assert.deepEqual(lookupBuiltinSchema("example.com", "v1", "Widget"), { type: "unknown" });
  assert.equal(await builtinSchema("apps", "v1", "Nope"), undefined);
  let r = lookupBuiltinSchema("scheduling.k8s.io", "v1", "PriorityClass");
  if (r.type === "loading") {
    await r.loaded;
    r = lookupBuiltinSchema("scheduling.k8s.io", "v1", "PriorityClass");
  }
  assert.equal(r.type, "found");
  const again = lookupBuiltinSchema("scheduling.k8s.io", "v1", "PriorityClass");
  assert.ok(again.type === "found" && r.type === "found" && again.schema === r.schema);
});

Deno.test("every generated top-level kind compiles and accepts its minimal object", async () => {
  for (const key of Object.keys(kinds)) {
    const kind = key.slice(key.lastIndexOf("/") + 1);
    const apiVersion = key.slice(0, key.lastIndexOf("/"));
    const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
    const schema = await builtinSchema(group, version, kind);
    assert.ok(schema, key);
    const required = schema.root.required ?? [];
    const r = processCustomResource(
      {
        apiVersion,
        kind,
        metadata: { name: "x" },
        ...Object.fromEntries(required.map((f) => [f, kind.endsWith("List") ? [] : {}])),
      },
      schema,
      { fieldValidation: "Strict" },
    );
    // Only the required fields' own contents may be wrong; the kind itself is known.
    if (!r.ok) assert.equal(r.reason, "Invalid", `${key}: ${JSON.stringify(r.errors)}`);
  }
});

Deno.test("apiregistration.k8s.io/v1 APIService (not in kubernetes-types) comes from client-node's models", async () => {
  const missing = await check("apiregistration.k8s.io/v1", {
    kind: "APIService",
    metadata: { name: "v1.example.com" },
    spec: { group: "example.com", version: "v1", caBundle: "aGk=", service: { port: 443 } },
  });
  assert.ok(
    missing.details.includes("spec.groupPriorityMinimum: Required value"),
    missing.details.join(),
  );
  const catalog = await loadDocCatalog([
    "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService",
  ]);
  const spec = catalog("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec");
  assert.match(String(spec?.description), /^APIServiceSpec contains information/);
  const apiService = catalog("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService");
  assert.match(String(apiService?.description), /Name must be "version\.group"/);
});
