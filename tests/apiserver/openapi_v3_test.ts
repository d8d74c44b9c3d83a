/**
 * OpenAPI v3 documents: index, per group/version documents built from the registry and CRDs,
 * hash-addressed caching, and the real kubectl's `explain` and server-side field validation.
 */
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { builtinResources } from "../../lib/apiserver/builtin_resources.ts";
import { servedVerbs } from "../../lib/apiserver/resource_info.ts";
import { crdResourceInfos } from "../../lib/apiserver/crd_resources.ts";
import {
  gvDocument,
  type GvResource,
  loadDocCatalog,
  referencedNames,
  schemaName,
} from "../../lib/apiserver/openapi/mod.ts";
import { type Api, withApi } from "./_api.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const objectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

const sizeDescription = "How many sprockets the widget turns.";
// deno-lint-ignore no-explicit-any
const widgetCrd = (specDescription: string): any => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: {
        openAPIV3Schema: {
          type: "object",
          description: "A Widget turns sprockets.",
          properties: {
            spec: {
              type: "object",
              description: specDescription,
              properties: {
                size: { type: "integer", minimum: 1, description: sizeDescription },
                color: { type: "string", enum: ["red", "blue"] },
              },
            },
          },
        },
      },
    }],
  },
});

// deno-lint-ignore no-explicit-any
type Json = any;

/** Every `$ref` of the document names one of its component schemas. */
function assertRefsResolve(doc: Json): void {
  for (const name of referencedNames(doc)) {
    assert.ok(name in doc.components.schemas, `dangling $ref ${name}`);
  }
}

/** The PATCH operations of a document tagged with the given kind. */
function patchOps(doc: Json, kind: string): Json[] {
  return Object.values(doc.paths).map((p: Json) => p.patch).filter((op: Json) =>
    op?.["x-kubernetes-group-version-kind"]?.kind === kind
  );
}

Deno.test("schemaName() spells built-in and custom kinds like kube-openapi", () => {
  assert.equal(
    schemaName({ group: "", version: "v1", kind: "Pod" }, false),
    "io.k8s.api.core.v1.Pod",
  );
  assert.equal(
    schemaName({ group: "apps", version: "v1", kind: "Deployment" }, false),
    "io.k8s.api.apps.v1.Deployment",
  );
  assert.equal(
    schemaName(
      { group: "apiextensions.k8s.io", version: "v1", kind: "CustomResourceDefinition" },
      false,
    ),
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
  );
  assert.equal(
    schemaName({ group: "example.com", version: "v1", kind: "Widget" }, true),
    "com.example.v1.Widget",
  );
});

Deno.test("gvDocument() of any resources resolves every $ref, tags every kind and advertises fieldValidation", async () => {
  const builtins = builtinResources();
  const catalog = await loadDocCatalog([
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    "io.k8s.api.autoscaling.v1.Scale",
    ...builtins.map((info) => schemaName(info, false)),
  ]);
  const leaf = fc.oneof(
    fc.constant({ type: "string" }),
    fc.constant({ type: "integer" }),
    fc.record({ type: fc.constant("string"), description: fc.string() }),
  );
  const schema = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.record({
        type: fc.constant("object"),
        properties: fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z]{0,6}$/), tie("node"), {
          maxKeys: 3,
        }),
      }),
      fc.record({ type: fc.constant("array"), items: tie("node") }),
    ),
  })).node;
  const custom = fc.record({
    kind: fc.stringMatching(/^[A-Z][a-z]{1,8}$/),
    namespaced: fc.boolean(),
    spec: schema,
  });
  fc.assert(
    fc.property(
      fc.subarray(builtins),
      fc.uniqueArray(custom, { selector: (c) => c.kind.toLowerCase(), maxLength: 3 }),
      (picked, customs) => {
        const resources: GvResource[] = [
          ...picked.map((info) => ({ info })),
          ...customs.flatMap((c) => {
            const crd = widgetCrd("");
            crd.spec.names = { plural: `${c.kind.toLowerCase()}s`, kind: c.kind };
            crd.spec.scope = c.namespaced ? "Namespaced" : "Cluster";
            const root = { type: "object", properties: { spec: c.spec } };
            return crdResourceInfos(crd).map((info) => ({ info, crdSchema: root }));
          }),
        ];
        const doc: Json = gvDocument(resources, catalog);
        assertRefsResolve(doc);
        for (const { info } of resources) {
          const kindSchema = doc.components.schemas[schemaName(info, info.isCustom)];
          assert.deepEqual(kindSchema["x-kubernetes-group-version-kind"], [
            { group: info.group, kind: info.kind, version: info.version },
          ]);
          assert.deepEqual(kindSchema.properties.metadata.allOf, [
            { $ref: `#/components/schemas/${objectMeta}` },
          ]);
          if (!servedVerbs(info).includes("patch")) continue; // the create-only reviews
          const patches = patchOps(doc, info.kind);
          assert.ok(patches.length >= 1, `no PATCH for ${info.kind}`);
          for (const op of patches) {
            assert.ok(
              op.parameters.some((p: Json) => p.name === "fieldValidation" && p.in === "query"),
            );
          }
        }
        // Equal input, equal bytes: what the content hash relies on.
        assert.equal(
          JSON.stringify(gvDocument([...resources].reverse(), catalog)),
          JSON.stringify(doc),
        );
      },
    ),
    { numRuns: 40 },
  );
});

async function indexOf(api: Api): Promise<Record<string, string>> {
  const r = await api.get("/openapi/v3");
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type") ?? "", /application\/json/);
  return Object.fromEntries(
    Object.entries(r.body.paths).map(([k, v]: [string, Json]) => [k, v.serverRelativeURL]),
  );
}

Deno.test("/openapi/v3 lists every served group/version with a hash URL", async () => {
  await withApi(async (api) => {
    const index = await indexOf(api);
    for (const gv of ["api/v1", "apis/apps/v1", "apis/coordination.k8s.io/v1"]) {
      assert.match(index[gv], new RegExp(`^/openapi/v3/${gv}\\?hash=[0-9A-F]{128}$`));
    }
    assert.equal(index["apis/example.com/v1"], undefined);
  });
});

Deno.test("/openapi/v3/api/v1 describes Pod, ConfigMap and ObjectMeta and tags the paths", async () => {
  await withApi(async (api) => {
    const r = await api.get((await indexOf(api))["api/v1"]);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("cache-control"), "public, immutable");
    const doc = r.body;
    assert.equal(doc.openapi, "3.0.0");
    assertRefsResolve(doc);
    const schemas = doc.components.schemas;
    const pod = schemas["io.k8s.api.core.v1.Pod"];
    assert.deepEqual(pod["x-kubernetes-group-version-kind"], [
      { group: "", kind: "Pod", version: "v1" },
    ]);
    assert.ok(schemas["io.k8s.api.core.v1.PodSpec"].properties.containers.description);
    assert.ok(schemas["io.k8s.api.core.v1.Container"].properties.image);
    assert.ok(schemas["io.k8s.api.core.v1.ConfigMap"].properties.binaryData);
    assert.ok(schemas[objectMeta].properties.labels);
    // Every served kind is described (generated from kubernetes-types), Node included.
    assert.match(schemas["io.k8s.api.core.v1.Node"].description, /^Node is a worker node/);
    assert.ok(schemas["io.k8s.api.core.v1.NodeSpec"].properties.taints.description);
    const item = doc.paths["/api/v1/namespaces/{namespace}/pods/{name}"];
    for (const verb of ["get", "put", "patch", "delete"]) {
      assert.equal(item[verb]["x-kubernetes-group-version-kind"].kind, "Pod", verb);
    }
    assert.ok(doc.paths["/api/v1/namespaces/{namespace}/pods"].post);
    assert.ok(doc.paths["/api/v1/pods"].get);
    assert.ok(doc.paths["/api/v1/nodes/{name}"].patch);
    // Strategic merge for built-ins, as kube-apiserver lists it: kubectl's client-side apply
    // computes its patches from these schemas.
    assert.deepEqual(Object.keys(item.patch.requestBody.content), [
      "application/apply-patch+yaml",
      "application/json-patch+json",
      "application/merge-patch+json",
      "application/strategic-merge-patch+json",
    ]);
  });
});

Deno.test("/openapi/v3 serves a CRD's schema and changes its hash when the CRD changes", async () => {
  await withApi(async (api) => {
    assert.equal((await api.post(crdPath, widgetCrd("What the widget is."))).status, 201);
    const url = (await indexOf(api))["apis/example.com/v1"];
    assert.ok(url);
    const doc = (await api.get(url)).body;
    assertRefsResolve(doc);
    const widget = doc.components.schemas["com.example.v1.Widget"];
    assert.deepEqual(widget["x-kubernetes-group-version-kind"], [
      { group: "example.com", kind: "Widget", version: "v1" },
    ]);
    assert.equal(widget.description, "A Widget turns sprockets.");
    assert.equal(widget.properties.spec.properties.size.description, sizeDescription);
    assert.deepEqual(widget.properties.metadata.allOf, [
      { $ref: `#/components/schemas/${objectMeta}` },
    ]);
    assert.ok(doc.components.schemas["com.example.v1.WidgetList"]);
    const patch = doc.paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"].patch;
    assert.deepEqual(patch["x-kubernetes-group-version-kind"], {
      group: "example.com",
      kind: "Widget",
      version: "v1",
    });
    assert.ok(patch.parameters.some((p: Json) => p.name === "fieldValidation"));
    assert.ok(doc.paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status"]);

    // Unrelated writes keep the hash; a schema change moves it.
    assert.equal((await indexOf(api))["apis/example.com/v1"], url);
    const current = (await api.get(`${crdPath}/widgets.example.com`)).body;
    const changed = { ...current, spec: widgetCrd("What the widget really is.").spec };
    assert.equal((await api.put(`${crdPath}/widgets.example.com`, changed)).status, 200);
    const next = (await indexOf(api))["apis/example.com/v1"];
    assert.notEqual(next, url);
    assert.equal((await indexOf(api))["api/v1"], (await indexOf(api))["api/v1"]);
    const updated = (await api.get(next)).body.components.schemas["com.example.v1.Widget"];
    assert.equal(updated.properties.spec.description, "What the widget really is.");

    // Deleting the CRD eventually removes the group/version from the index.
    assert.equal((await api.del(`${crdPath}/widgets.example.com`)).status, 200);
    for (let i = 0; i < 50 && (await indexOf(api))["apis/example.com/v1"]; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal((await indexOf(api))["apis/example.com/v1"], undefined);
  });
});

Deno.test("/openapi/v3 redirects stale hashes, answers 304 to a matching ETag and 406 to protobuf-only", async () => {
  await withApi(async (api) => {
    const url = (await indexOf(api))["apis/apps/v1"];
    const base = api.server.url;
    const stale = await fetch(`${base}/openapi/v3/apis/apps/v1?hash=ABC`, { redirect: "manual" });
    await stale.body?.cancel();
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.get("location"), url);
    const first = await fetch(base + url);
    const etag = first.headers.get("etag");
    await first.body?.cancel();
    assert.ok(etag);
    const again = await fetch(base + url, { headers: { "if-none-match": etag } });
    await again.body?.cancel();
    assert.equal(again.status, 304);
    const proto = await api.call("GET", url, undefined, {
      accept: "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
    });
    assert.equal(proto.status, 406);
    assert.equal((await api.get("/openapi/v3/apis/nope.example/v1")).status, 404);
  });
});

const available = kubectlAvailable();

Deno.test({
  name: available
    ? "kubectl explain reads the documents and kubectl relies on server-side field validation"
    : "kubectl explain and field validation (SKIPPED: no kubectl on PATH)",
  ignore: !available,
  fn: async (t) => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    const k = (args: string[], stdin?: string) => kubectl.run(args, { stdin });
    const ok = (r: { code: number; stdout: string; stderr: string }, what: string) => {
      assert.equal(r.code, 0, `${what} failed:\n${r.stderr}${r.stdout}`);
      return r.stdout;
    };
    try {
      ok(await k(["apply", "-f", "-"], JSON.stringify(widgetCrd("What the widget is."))), "CRD");

      await t.step(
        "explain widgets.spec.size prints the field's type and description",
        async () => {
          const out = ok(await k(["explain", "widgets.spec.size"]), "explain widgets.spec.size");
          assert.match(out, /KIND:\s+Widget/);
          assert.match(out, /FIELD: size <integer>/);
          assert.ok(out.includes(sizeDescription), out);
        },
      );

      await t.step("explain pods.spec.containers lists the container fields", async () => {
        const out = ok(
          await k(["explain", "pods.spec.containers"]),
          "explain pods.spec.containers",
        );
        assert.match(out, /FIELD: containers <\[\]Container>/);
        assert.match(out, /image\s+<string>/);
        assert.match(out, /name\s+<string> -required-/);
      });

      await t.step(
        "explain deployment.spec.strategy prints the generated descriptions",
        async () => {
          const out = ok(await k(["explain", "deployment.spec.strategy"]), "explain strategy");
          assert.match(out, /GROUP:\s+apps/);
          assert.match(out, /FIELD: strategy <DeploymentStrategy>/);
          assert.match(
            out,
            /The deployment strategy to use to replace existing pods with new ones\./,
          );
          assert.match(out, /rollingUpdate\s+<RollingUpdateDeployment>/);
          assert.match(out, /type\s+<string>/);
        },
      );

      await t.step(
        "explain pods.spec.containers.ports shows types and required fields",
        async () => {
          const out = ok(await k(["explain", "pods.spec.containers.ports"]), "explain ports");
          assert.match(out, /FIELD: ports <\[\]ContainerPort>/);
          assert.match(out, /containerPort\s+<integer> -required-/);
          assert.match(out, /protocol\s+<string>/);
          assert.match(out, /Number of port to expose on the pod's IP address\./);
        },
      );

      await t.step("explain reaches int-or-string and quantity fields of other kinds", async () => {
        const surge = ok(
          await k(["explain", "deployment.spec.strategy.rollingUpdate.maxSurge"]),
          "explain maxSurge",
        );
        assert.match(surge, /FIELD: maxSurge <IntOrString>/);
        const limits = ok(await k(["explain", "pods.spec.containers.resources.limits"]), "limits");
        assert.match(limits, /FIELD: limits <map\[string\]Quantity>/);
        const taints = ok(await k(["explain", "nodes.spec.taints"]), "explain taints");
        assert.match(taints, /effect\s+<string> -required-/);
      });

      await t.step("explain shows fields newer than kubernetes-types 1.30", async () => {
        const out = ok(await k(["explain", "pods.spec.volumes.image"]), "explain image");
        assert.match(out, /FIELD: image <ImageVolumeSource>/);
        assert.match(out, /An OCI image or artifact mounted read-only as a volume/);
        assert.match(out, /reference\s+<string>/);
      });

      const bad = JSON.stringify({
        apiVersion: "example.com/v1",
        kind: "Widget",
        metadata: { name: "w1", namespace: "default" },
        spec: { size: 2, colour: "red" },
      });

      await t.step("apply -f of an unknown field fails on the server with its path", async () => {
        const r = await k(["apply", "-v=7", "-f", "-"], bad);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /strict decoding error: unknown field "spec\.colour"/);
        // kubectl read the group/version document and did not fall back to client-side checks.
        assert.match(r.stderr, /GET \S+\/openapi\/v3\/apis\/example\.com\/v1\?hash=/);
        assert.match(r.stderr, /POST \S+widgets\?\S*fieldValidation=Strict/);
        assert.doesNotMatch(r.stderr, /falling back/i);
        assert.doesNotMatch(r.stderr, /GET \S+\/openapi\/v2/);
      });

      await t.step("kubectl leaves field validation of built-in kinds to the server", async () => {
        const cm = JSON.stringify({
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "c1", namespace: "default" },
          data: { a: "1" },
        });
        const r = await k(["apply", "-v=7", "-f", "-"], cm);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /GET \S+\/openapi\/v3\/api\/v1\?hash=/);
        assert.match(r.stderr, /POST \S+configmaps\?\S*fieldValidation=Strict/);
        assert.doesNotMatch(r.stderr, /falling back/i);
      });

      await t.step("apply --validate=warn creates it and prints the server's warning", async () => {
        const r = await k(["apply", "--validate=warn", "-f", "-"], bad);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /Warning: unknown field "spec\.colour"/);
      });
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
