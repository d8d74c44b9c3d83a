import assert from "node:assert/strict";
import { podSetCrd } from "../../../controllers/podset/crd.ts";
import { podSetSchema } from "../../../controllers/podset/types.ts";
import { validateCrd } from "../../../lib/apiserver/crd_validation.ts";
import {
  compileSchema,
  processCustomResource,
  type SchemaProps,
  structuralErrors,
} from "../../../lib/apiserver/schema/mod.ts";
import { type KubeObject, worldFromObjects } from "../../../mod.ts";
import { reconcilePodSet } from "../../../controllers/podset/reconcile.ts";
import type { Pod, PodSet } from "../../../controllers/podset/types.ts";

const version = podSetCrd.spec.versions[0];
const schema = version.schema?.openAPIV3Schema as SchemaProps;
const compiled = compileSchema(schema);
const podSet = (spec: unknown): KubeObject => ({
  apiVersion: "app.example.com/v1alpha1",
  kind: "PodSet",
  metadata: { name: "web", namespace: "default" },
  spec,
});
const template = {
  metadata: { labels: { app: "web" } },
  spec: { containers: [{ name: "c", image: "nginx", ports: [{ containerPort: 80 }] }] },
};

Deno.test("podSetCrd is a valid CRD with a structural schema generated from the TypeScript definition", () => {
  assert.deepEqual(validateCrd(podSetCrd as unknown as KubeObject), []);
  assert.deepEqual(structuralErrors(schema, "spec.versions[0].schema.openAPIV3Schema"), []);
  assert.equal(version.schema?.openAPIV3Schema, podSetSchema.json);
});

Deno.test("podSetCrd names PodSet, its short name, subresources and printer columns", () => {
  assert.equal(podSetCrd.spec.group, "app.example.com");
  assert.equal(podSetCrd.spec.names.plural, "podsets");
  assert.deepEqual(podSetCrd.spec.names.shortNames, ["ps"]);
  assert.equal(version.name, "v1alpha1");
  assert.deepEqual(version.subresources, {
    status: {},
    scale: {
      specReplicasPath: ".spec.replicas",
      statusReplicasPath: ".status.replicas",
      labelSelectorPath: ".status.selector",
    },
  });
  assert.deepEqual(
    version.additionalPrinterColumns?.map((c) => [c.name.toUpperCase(), c.jsonPath]),
    [
      ["DESIRED", ".spec.replicas"],
      ["CURRENT", ".status.replicas"],
      ["READY", ".status.readyReplicas"],
      ["AGE", ".metadata.creationTimestamp"],
    ],
  );
});

Deno.test("the PodSet schema defaults replicas to 1 and keeps the pod spec as given", () => {
  const r = processCustomResource(
    podSet({ selector: { matchLabels: { app: "web" } }, template }),
    compiled,
  );
  assert.ok(r.ok, JSON.stringify(r));
  if (!r.ok) return;
  const spec = (r.object as { spec: Record<string, unknown> }).spec;
  assert.equal(spec.replicas, 1);
  assert.deepEqual(spec.template, template);
});

Deno.test("the PodSet schema rejects negative replicas, a missing selector and non-string labels", () => {
  const bad = [
    { replicas: -1, selector: { matchLabels: { app: "web" } }, template },
    { replicas: 1, template },
    {
      selector: { matchLabels: { app: "web" } },
      template: { ...template, metadata: { labels: { app: 3 } } },
    },
  ];
  for (const spec of bad) {
    const r = processCustomResource(podSet(spec), compiled);
    assert.equal(r.ok, false, JSON.stringify(spec));
  }
});

Deno.test("the status the reconciler writes is valid under the PodSet schema", () => {
  const ps = {
    ...podSet({ replicas: 2, selector: { matchLabels: { app: "web" } }, template }),
    metadata: { name: "web", namespace: "default", uid: "u1", generation: 2 },
  } as unknown as PodSet;
  const plan = reconcilePodSet(ps, { pods: worldFromObjects<Pod>([]) }, { now: 0 });
  assert.equal(plan._tag, "Right");
  if (plan._tag !== "Right") return;
  const op = plan.right.ops.find((o) => o.type === "status");
  assert.ok(op !== undefined && op.type === "status");
  const r = processCustomResource({ ...ps, status: op.status } as unknown as KubeObject, compiled);
  assert.ok(r.ok, JSON.stringify(r));
  if (r.ok) assert.deepEqual((r.object as { status: unknown }).status, op.status);
});
