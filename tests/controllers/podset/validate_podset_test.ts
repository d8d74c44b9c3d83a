import assert from "node:assert/strict";
import { validatePodSet } from "../../../controllers/podset/validate_podset.ts";
import type { PodSet } from "../../../controllers/podset/types.ts";

const valid: PodSet = {
  metadata: { name: "web" },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    },
  },
};
const withSpec = (spec: unknown) => ({ ...valid, spec } as PodSet);
const fields = (ps: PodSet) => validatePodSet(ps).errors.map((e) => e.field);

Deno.test("validatePodSet() accepts a valid spec and returns its selector and replicas", () => {
  const v = validatePodSet(valid);
  assert.deepEqual(v.errors, []);
  assert.equal(v.replicas, 2);
  assert.deepEqual(v.selector, [{ type: "equals", key: "app", value: "web" }]);
  assert.equal(validatePodSet(withSpec({ ...valid.spec, replicas: undefined })).replicas, 1);
});

Deno.test("validatePodSet() names each bad field", () => {
  assert.deepEqual(fields(withSpec({ ...valid.spec, replicas: -1 })), ["spec.replicas"]);
  assert.deepEqual(fields(withSpec({ ...valid.spec, replicas: 1.5 })), ["spec.replicas"]);
  assert.deepEqual(fields(withSpec({ ...valid.spec, selector: undefined })), ["spec.selector"]);
  assert.deepEqual(fields(withSpec({ ...valid.spec, selector: {} })), ["spec.selector"]);
  assert.deepEqual(
    fields(
      withSpec({ ...valid.spec, selector: { matchExpressions: [{ key: "a", operator: "Is" }] } }),
    ),
    ["spec.selector"],
  );
  assert.deepEqual(fields(withSpec({ ...valid.spec, selector: { matchLabels: { app: "db" } } })), [
    "spec.template.metadata.labels",
  ]);
  assert.deepEqual(
    fields(
      withSpec({ ...valid.spec, template: { ...valid.spec.template, spec: { containers: [] } } }),
    ),
    ["spec.template.spec.containers"],
  );
  assert.deepEqual(fields(withSpec(undefined)), ["spec.selector", "spec.template.spec.containers"]);
});

Deno.test("validatePodSet() explains a selector that does not match the template", () => {
  const v = validatePodSet(withSpec({ ...valid.spec, selector: { matchLabels: { app: "db" } } }));
  assert.equal(
    v.errors[0].detail,
    'Invalid value: {"app":"web"}: `selector` does not match template `labels`',
  );
});
