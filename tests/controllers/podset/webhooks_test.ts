import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  checkRoundTrip,
  type corev1,
  handleAdmissionReview,
  handleConversionReview,
  type KubeObject,
  type ValidatingWebhook,
} from "../../../mod.ts";
import {
  defaultPodSet,
  type PodSet,
  podSetConversion,
  podSetCrdV1,
  type PodSetV1,
  podSetWebhooks,
  validatePodSetLimits,
} from "../../../controllers/podset/mod.ts";
import { validateCrd } from "../../../lib/apiserver/crd_validation.ts";
import { compileSchema, processCustomResource } from "../../../lib/apiserver/schema/mod.ts";

const name = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
const labels = fc.dictionary(name, name, { maxKeys: 3, noNullPrototype: true });
const quantity = fc.constantFrom("100m", "1", "64Mi", "1Gi");
const container = fc.record({
  name,
  image: name,
  resources: fc.option(
    fc.record({
      limits: fc.dictionary(fc.constantFrom("cpu", "memory"), quantity, { noNullPrototype: true }),
    }, {
      requiredKeys: [],
    }),
    { nil: undefined },
  ),
}, { requiredKeys: ["name", "image"] });
const template = fc.record({
  metadata: fc.record({ labels }, { requiredKeys: [] }),
  spec: fc.record({ containers: fc.array(container, { minLength: 1, maxLength: 3 }) }),
}, { requiredKeys: ["spec"] });
const meta = fc.record({
  name,
  namespace: fc.constant("default"),
  labels: fc.option(labels, { nil: undefined }),
  annotations: fc.option(labels, { nil: undefined }),
}, { requiredKeys: ["name", "namespace"] });
const status = fc.record({
  replicas: fc.nat(5),
  readyReplicas: fc.nat(5),
  podNames: fc.array(name, { maxLength: 3 }),
}, { requiredKeys: ["replicas", "readyReplicas", "podNames"] });

/** Valid v1alpha1 PodSets: the schema requires the selector and the template. */
const alpha: fc.Arbitrary<PodSet> = fc.record({
  apiVersion: fc.constant("app.example.com/v1alpha1"),
  kind: fc.constant("PodSet"),
  metadata: meta,
  spec: fc.record({
    replicas: fc.option(fc.nat(10), { nil: undefined }),
    selector: fc.record({ matchLabels: labels }),
    template,
  }, { requiredKeys: ["selector", "template"] }),
  status: fc.option(status, { nil: undefined }),
}, { requiredKeys: ["apiVersion", "kind", "metadata", "spec"] }) as fc.Arbitrary<PodSet>;

/** Valid v1 PodSets: the selector may be left out. */
const v1: fc.Arbitrary<PodSetV1> = fc.record({
  apiVersion: fc.constant("app.example.com/v1"),
  kind: fc.constant("PodSet"),
  metadata: meta,
  spec: fc.record({
    size: fc.option(fc.nat(10), { nil: undefined }),
    selector: fc.option(fc.record({ matchLabels: labels }), { nil: undefined }),
    template,
  }, { requiredKeys: ["template"] }),
}, { requiredKeys: ["apiVersion", "kind", "metadata", "spec"] }) as fc.Arbitrary<PodSetV1>;

const schemaOf = (v: string) =>
  compileSchema(
    podSetCrdV1.spec.versions.find((x) => x.name === v)!.schema!.openAPIV3Schema as never,
  );
const [v1Schema, alphaSchema] = [schemaOf("v1"), schemaOf("v1alpha1")];
const clean = (o: unknown) => JSON.parse(JSON.stringify(o));

Deno.test("PodSet conversion: down(up(x)) is x for every valid v1alpha1 PodSet, and up(x) is a valid v1 PodSet", () => {
  fc.assert(
    fc.property(alpha, (x) => {
      assert.deepEqual(checkRoundTrip(podSetConversion, "up", x), {
        _tag: "Right",
        right: undefined,
      });
      const up = processCustomResource(clean(podSetConversion.up(x)), v1Schema);
      assert.ok(up.ok, JSON.stringify(up));
      assert.equal(podSetConversion.up(x).spec.size, x.spec.replicas);
    }),
    { numRuns: 300 },
  );
});

Deno.test("PodSet conversion: up(down(y)) is y for every valid v1 PodSet; with a selector, down(y) is valid v1alpha1", () => {
  fc.assert(
    fc.property(v1, (y) => {
      assert.deepEqual(checkRoundTrip(podSetConversion, "down", y), {
        _tag: "Right",
        right: undefined,
      });
      if (y.spec.selector) {
        const down = processCustomResource(clean(podSetConversion.down(y)), alphaSchema);
        assert.ok(down.ok, JSON.stringify(down));
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("the PodSet conversion webhook converts a ConversionReview both ways", () => {
  const convert = podSetWebhooks.find((w) => w.type === "conversion")!;
  if (convert.type !== "conversion") throw new Error("no conversion webhook");
  const x = fc.sample(alpha, 1)[0];
  const review = (objects: unknown[], to: string) => ({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "u", desiredAPIVersion: `app.example.com/${to}`, objects },
  });
  const up = handleConversionReview(convert, review([x], "v1")).body as {
    response: { convertedObjects: KubeObject[]; result: { status: string } };
  };
  assert.equal(up.response.result.status, "Success");
  const down = handleConversionReview(convert, review(up.response.convertedObjects, "v1alpha1"))
    .body as { response: { convertedObjects: KubeObject[] } };
  assert.deepEqual(clean(down.response.convertedObjects[0]), clean(x));
});

Deno.test("defaultPodSet() derives the selector and requests, keeps what is set, and is idempotent", () => {
  fc.assert(
    fc.property(v1, (y) => {
      const d = defaultPodSet(y);
      assert.deepEqual(defaultPodSet(d), d);
      const templateLabels = y.spec.template.metadata?.labels;
      if (y.spec.selector) assert.deepEqual(d.spec.selector, y.spec.selector);
      else if (templateLabels) assert.deepEqual(d.spec.selector, { matchLabels: templateLabels });
      const containers = (d.spec.template.spec as corev1.PodSpec).containers;
      for (const c of containers) {
        if (c.resources?.limits) assert.deepEqual(c.resources.requests, c.resources.limits);
      }
    }),
    { numRuns: 200 },
  );
});

Deno.test("validatePodSetLimits() denies each container without limits, by field path, and warns at size 0", async () => {
  const request = (object: unknown) => ({
    uid: "u",
    operation: "CREATE" as const,
    userInfo: {},
    kind: { group: "app.example.com", version: "v1", kind: "PodSet" },
    resource: { group: "app.example.com", version: "v1", resource: "podsets" },
    object: object as PodSetV1,
  });
  const v = validatePodSetLimits(request({
    spec: {
      template: {
        spec: {
          initContainers: [{ name: "init", image: "i" }],
          containers: [
            { name: "a", image: "i", resources: { limits: { cpu: "1" } } },
            { name: "b", image: "i", resources: { limits: {} } },
          ],
        },
      },
    },
  }));
  assert.deepEqual(v, {
    _tag: "Denied",
    reasons: [
      {
        type: "FieldValueRequired",
        field: "spec.template.spec.initContainers[0].resources.limits",
        detail: 'Required value: container "init" needs resource limits',
      },
      {
        type: "FieldValueRequired",
        field: "spec.template.spec.containers[1].resources.limits",
        detail: 'Required value: container "b" needs resource limits',
      },
    ],
    code: 403,
    warnings: [],
  });
  const zero = validatePodSetLimits(request({
    spec: {
      size: 0,
      template: { spec: { containers: [{ name: "a", resources: { limits: { cpu: "1" } } }] } },
    },
  }));
  assert.deepEqual(zero, {
    _tag: "Allowed",
    warnings: ["spec.size is 0: the PodSet runs no pods"],
  });
  // Through the webhook: the denial's Status keeps the reasons as causes.
  const hook = podSetWebhooks.find((w) => w.type === "validating") as ValidatingWebhook;
  const answer = await handleAdmissionReview(hook, {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: request({ spec: { template: { spec: { containers: [{ name: "x" }] } } } }),
  }, { signal: new AbortController().signal, deadlineMs: Date.now() + 1000 });
  assert.deepEqual((answer.body as { response: unknown }).response, {
    uid: "u",
    allowed: false,
    result: {
      status: "Failure",
      code: 403,
      reason: "Forbidden",
      message:
        'spec.template.spec.containers[0].resources.limits: Required value: container "x" needs resource limits',
      details: {
        causes: [{
          reason: "FieldValueRequired",
          field: "spec.template.spec.containers[0].resources.limits",
          message: 'Required value: container "x" needs resource limits',
        }],
      },
    },
  });
});

Deno.test("podSetCrdV1 is a valid CRD: v1 stored with spec.size, v1alpha1 served with spec.replicas", () => {
  assert.deepEqual(validateCrd(podSetCrdV1 as unknown as KubeObject), []);
  const [one, alpha] = podSetCrdV1.spec.versions;
  assert.deepEqual([one.name, one.storage, alpha.name, alpha.storage], [
    "v1",
    true,
    "v1alpha1",
    false,
  ]);
  assert.equal(one.subresources?.scale?.specReplicasPath, ".spec.size");
  assert.equal(alpha.subresources?.scale?.specReplicasPath, ".spec.replicas");
  assert.equal(one.additionalPrinterColumns?.[0].jsonPath, ".spec.size");
});
