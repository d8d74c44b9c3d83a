/**
 * Fields Kubernetes added after 1.30 (kubernetes-types 1.30 lacks them; the generator takes
 * them from client-node's models) validate under Strict like the others: a 1.32 Pod with an
 * image volume and a supplementalGroupsPolicy is valid, and the new types are still checked.
 */
import assert from "node:assert/strict";
import {
  builtinSchema,
  type CompiledSchema,
  loadDocCatalog,
  lookupBuiltinSchema,
} from "../../../lib/apiserver/openapi/builtin/mod.ts";
import { processCustomResource } from "../../../lib/apiserver/schema/mod.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** The schema through the synchronous lookup, as admission reads it. */
async function lookup(group: string, version: string, kind: string): Promise<CompiledSchema> {
  let r = lookupBuiltinSchema(group, version, kind);
  if (r.type === "loading") {
    await r.loaded;
    r = lookupBuiltinSchema(group, version, kind);
  }
  assert.equal(r.type, "found", `${group}/${version} ${kind}`);
  return (r as { schema: CompiledSchema }).schema;
}

const strict = (obj: Json, schema: CompiledSchema) => {
  const r = processCustomResource(obj, schema, { fieldValidation: "Strict" });
  return r.ok ? [] : r.errors.map((e) => `${e.field}: ${e.detail}`);
};

const pod = (securityContext: Json, volume: Json): Json => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "default" },
  spec: {
    securityContext,
    containers: [{ name: "c", image: "nginx", volumeMounts: [{ name: "v", mountPath: "/v" }] }],
    volumes: [{ name: "v", ...volume }],
  },
});

const newerPod = pod(
  { supplementalGroupsPolicy: "Strict", runAsUser: 1000 },
  { image: { reference: "quay.io/crio/artifact:v2", pullPolicy: "IfNotPresent" } },
);

const containerStatus = {
  name: "c",
  image: "nginx",
  imageID: "",
  ready: true,
  restartCount: 0,
};

Deno.test("a 1.32 Pod with supplementalGroupsPolicy and an image volume validates under Strict", async () => {
  assert.deepEqual(strict(newerPod, await lookup("", "v1", "Pod")), []);
  assert.deepEqual(strict(newerPod, (await builtinSchema("", "v1", "Pod"))!), []);
});

Deno.test("the newer fields and types are checked, not just let through", async () => {
  const schema = await lookup("", "v1", "Pod");
  assert.deepEqual(
    strict(pod({ supplementalGroupsPolicy: 1 }, { emptyDir: {} }), schema),
    [
      'spec.securityContext.supplementalGroupsPolicy: Invalid value: "integer": ' +
      "spec.securityContext.supplementalGroupsPolicy in body must be of type string: " +
      '"integer"',
    ],
  );
  assert.deepEqual(
    strict(pod({}, { image: { reference: "x", digest: "sha256:0" } }), schema),
    ['spec.volumes[0].image.digest: unknown field "spec.volumes[0].image.digest"'],
  );
});

Deno.test("newer quantity and integer fields keep their Kubernetes types", async () => {
  const hpa = await lookup("autoscaling", "v2", "HorizontalPodAutoscaler");
  const withTolerance = (tolerance: Json): Json => ({
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "h", namespace: "default" },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" },
      maxReplicas: 3,
      behavior: { scaleUp: { tolerance } },
    },
  });
  assert.deepEqual(strict(withTolerance("50m"), hpa), []);
  assert.deepEqual(strict(withTolerance(0.05), hpa), [], "a Quantity may be a JSON number");
  const status = await lookup("", "v1", "Pod");
  const withUser = (uid: Json): Json => ({
    ...newerPod,
    status: { containerStatuses: [{ ...containerStatus, user: { linux: { uid, gid: 0 } } }] },
  });
  assert.deepEqual(strict(withUser(1000), status), []);
  assert.equal(strict(withUser("1000"), status).length, 1, "uid is an int64");
});

Deno.test("newer fields carry descriptions (upstream or ours) for explain", async () => {
  const catalog = await loadDocCatalog(["io.k8s.api.core.v1.Pod"]);
  const volume = catalog("io.k8s.api.core.v1.Volume") as Json;
  assert.match(volume?.properties?.image?.description, /OCI image or artifact/);
  const policy = catalog("io.k8s.api.core.v1.PodSecurityContext") as Json;
  assert.match(
    policy?.properties?.supplementalGroupsPolicy?.description,
    /how supplemental groups of the first container processes/,
  );
  const source = catalog("io.k8s.api.core.v1.ImageVolumeSource") as Json;
  assert.match(source?.description, /^ImageVolumeSource represents/);
});
