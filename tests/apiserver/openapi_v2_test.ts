/**
 * `/openapi/v2` served for real: a Swagger 2.0 document of the built-in kinds and CRDs, in
 * JSON and as gnostic's protobuf `openapi.v2.Document`, which the real kubectl reads
 * (`kubectl explain --output=plaintext-openapiv2`, client-side apply of custom resources).
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { WireReader } from "../../lib/apiserver/protobuf/mod.ts";
import { swaggerV2Protobuf } from "../../lib/apiserver/openapi/swagger_v2_protobuf.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";

const protobufAccept = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
type Obj = Record<string, unknown>;

/** Top-level fields of a protobuf message: number -> list of raw values. */
function fields(bytes: Uint8Array): Map<number, (Uint8Array | bigint)[]> {
  const out = new Map<number, (Uint8Array | bigint)[]>();
  const r = new WireReader(bytes);
  while (!r.done()) {
    const { number, value } = r.field();
    out.set(number, [...(out.get(number) ?? []), value.wire === 0 ? value.value : value.bytes]);
  }
  return out;
}
const text = (b: Uint8Array | bigint | undefined) =>
  b instanceof Uint8Array ? new TextDecoder().decode(b) : undefined;

Deno.test("swaggerV2Protobuf() writes gnostic's Document (the 28-byte minimum kubectl accepts)", () => {
  const min = swaggerV2Protobuf({
    swagger: "2.0",
    info: { title: "Kubernetes", version: "v1.32.0" },
  });
  assert.equal(btoa(String.fromCharCode(...min)), "CgMyLjASFQoKS3ViZXJuZXRlcxIHdjEuMzIuMA==");
  // A schema with a $ref, a type, properties and a vendor extension.
  const doc = swaggerV2Protobuf({
    definitions: {
      "a.B": {
        type: "object",
        properties: { c: { $ref: "#/definitions/a.C" } },
        "x-kubernetes-group-version-kind": [{ group: "", kind: "B", version: "v1" }],
      },
    },
  });
  const defs = fields(fields(doc).get(9)![0] as Uint8Array); // Definitions
  const named = fields(defs.get(1)![0] as Uint8Array); // NamedSchema
  assert.equal(text(named.get(1)![0]), "a.B");
  const schema = fields(named.get(2)![0] as Uint8Array);
  assert.equal(text(fields(schema.get(22)![0] as Uint8Array).get(1)![0]), "object"); // TypeItem
  const ext = fields(schema.get(31)![0] as Uint8Array); // NamedAny
  assert.equal(text(ext.get(1)![0]), "x-kubernetes-group-version-kind");
  const yaml = text(fields(ext.get(2)![0] as Uint8Array).get(2)![0]);
  assert.deepEqual(JSON.parse(yaml!), [{ group: "", kind: "B", version: "v1" }]);
  const prop = fields(fields(schema.get(25)![0] as Uint8Array).get(1)![0] as Uint8Array);
  assert.equal(text(prop.get(1)![0]), "c");
  assert.equal(text(fields(prop.get(2)![0] as Uint8Array).get(1)![0]), "#/definitions/a.C");
});

Deno.test("/openapi/v2 serves the built-in kinds as Swagger 2.0, in JSON and protobuf", async () => {
  const server = await startApiServer();
  try {
    const res = await fetch(`${server.url}/openapi/v2`, {
      headers: { accept: "application/json" },
    });
    assert.equal(res.headers.get("content-type"), "application/json");
    const doc = await res.json() as {
      swagger: string;
      definitions: Record<string, Obj>;
      paths: Record<string, Record<string, Obj>>;
    };
    assert.equal(doc.swagger, "2.0");
    const deployment = doc.definitions["io.k8s.api.apps.v1.Deployment"];
    assert.deepEqual(deployment["x-kubernetes-group-version-kind"], [
      { group: "apps", kind: "Deployment", version: "v1" },
    ]);
    assert.deepEqual(
      (deployment.properties as Record<string, Obj>).spec.$ref,
      "#/definitions/io.k8s.api.apps.v1.DeploymentSpec",
    );
    assert.deepEqual(
      doc.definitions["io.k8s.apimachinery.pkg.util.intstr.IntOrString"].type,
      "string",
    );
    const patch = doc.paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"].patch;
    assert.ok((patch.consumes as string[]).includes("application/strategic-merge-patch+json"));
    assert.deepEqual((patch.parameters as Obj[])[0], {
      name: "body",
      in: "body",
      required: true,
      schema: { $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" },
    });
    const etag = res.headers.get("etag")!;
    const again = await fetch(`${server.url}/openapi/v2`, { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    await again.body?.cancel();

    const proto = await fetch(`${server.url}/openapi/v2`, { headers: { accept: protobufAccept } });
    assert.equal(
      proto.headers.get("content-type"),
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
    );
    const top = fields(new Uint8Array(await proto.arrayBuffer()));
    assert.equal(text(top.get(1)![0]), "2.0");
    const names = fields(top.get(9)![0] as Uint8Array).get(1)!.map((n) =>
      text(fields(n as Uint8Array).get(1)![0])
    );
    assert.deepEqual(names, Object.keys(doc.definitions));

    const refused = await fetch(`${server.url}/openapi/v2`, { headers: { accept: "text/html" } });
    assert.equal(refused.status, 406);
    await refused.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "kubectl explain --output=plaintext-openapiv2 reads the protobuf document",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      const r = await kubectl.run([
        "explain",
        "deployment.spec.strategy",
        "--output=plaintext-openapiv2",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /KIND:\s+Deployment/);
      assert.match(r.stdout, /rollingUpdate\s+<Object>/);
      const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer, description: How big.}}}
`;
      assert.equal((await kubectl.run(["apply", "-f", "-"], { stdin: crd })).code, 0);
      assert.equal(
        (await kubectl.run(["wait", "--for=condition=established", "crd/gadgets.example.com"]))
          .code,
        0,
      );
      const g = await kubectl.run(["explain", "gadget.spec.size", "--output=plaintext-openapiv2"]);
      assert.equal(g.code, 0, g.stderr);
      assert.match(g.stdout, /How big\./);
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
