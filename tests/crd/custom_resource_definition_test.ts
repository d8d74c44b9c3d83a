import assert from "node:assert/strict";
import {
  customResourceDefinition,
  type KubeObject,
  pluralOf,
  resourceSchema,
  t,
} from "../../mod.ts";
import { validateCrd } from "../../lib/apiserver/crd_validation.ts";

const schema = resourceSchema(
  t.object({ replicas: t.optional(t.integer({ minimum: 0, default: 1 })) }),
  t.object({ ready: t.integer() }),
);

Deno.test("customResourceDefinition(): names, scope, categories, subresources and an Age column; a valid CRD", () => {
  const crd = customResourceDefinition({
    group: "myapp.example.com",
    kind: "HelloWorld",
    shortNames: ["hw"],
    categories: ["all"],
    versions: [{
      name: "v1",
      schema,
      scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.ready" },
      printerColumns: [{ name: "Replicas", type: "integer", jsonPath: ".spec.replicas" }],
    }],
  });
  assert.equal(crd.metadata?.name, "helloworlds.myapp.example.com");
  assert.deepEqual(crd.spec.names, {
    kind: "HelloWorld",
    listKind: "HelloWorldList",
    plural: "helloworlds",
    singular: "helloworld",
    shortNames: ["hw"],
    categories: ["all"],
  });
  assert.equal(crd.spec.scope, "Namespaced");
  const [v] = crd.spec.versions;
  assert.deepEqual(v.subresources, {
    status: {},
    scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.ready" },
  });
  assert.deepEqual(v.additionalPrinterColumns?.map((c) => c.name), ["Replicas", "Age"]);
  assert.deepEqual(validateCrd(crd as unknown as KubeObject), []);
});

Deno.test("customResourceDefinition(): the last version stores unless one says storage; status can be switched off", () => {
  const crd = customResourceDefinition({
    group: "g.example.com",
    kind: "Box",
    scope: "Cluster",
    versions: [{ name: "v1alpha1", schema, status: false }, { name: "v1", schema }],
  });
  assert.deepEqual(crd.spec.versions.map((v) => [v.name, v.storage]), [["v1alpha1", false], [
    "v1",
    true,
  ]]);
  assert.equal(crd.spec.versions[0].subresources, undefined);
  assert.equal(crd.spec.names.plural, "boxes");
  assert.deepEqual(validateCrd(crd as unknown as KubeObject), []);
  assert.throws(
    () => customResourceDefinition({ group: "g", kind: "X", versions: [] }),
    /Cannot define the CRD of X.g: it has no version/,
  );
});

Deno.test("pluralOf() spells plurals like kubebuilder", () => {
  assert.deepEqual(["Policy", "Ingress", "Box", "Day", "HelloWorld"].map(pluralOf), [
    "policies",
    "ingresses",
    "boxes",
    "days",
    "helloworlds",
  ]);
});
