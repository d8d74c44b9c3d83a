import assert from "node:assert/strict";
import { requestTargetOf } from "../../lib/client/api_resource.ts";
import { apiVersionOf, resourcePath } from "../../mod.ts";

const pods = { group: "", version: "v1", plural: "pods", kind: "Pod", namespaced: true };
const deploys = {
  group: "apps",
  version: "v1",
  plural: "deployments",
  kind: "Deployment",
  namespaced: true,
};
const nodes = { group: "", version: "v1", plural: "nodes", kind: "Node", namespaced: false };

Deno.test("resourcePath() builds core, grouped, namespaced and cluster-scoped paths", () => {
  assert.equal(resourcePath(pods), "/api/v1/pods");
  assert.equal(resourcePath(pods, { namespace: "a" }), "/api/v1/namespaces/a/pods");
  assert.equal(
    resourcePath(deploys, { namespace: "a", name: "w", subresource: "scale" }),
    "/apis/apps/v1/namespaces/a/deployments/w/scale",
  );
  assert.equal(resourcePath(nodes, { namespace: "ignored", name: "n1" }), "/api/v1/nodes/n1");
  assert.equal(
    resourcePath(pods, { namespace: "a", name: "a b" }),
    "/api/v1/namespaces/a/pods/a%20b",
  );
});

Deno.test("apiVersionOf() and requestTargetOf() spell group versions and grouped resources", () => {
  assert.equal(apiVersionOf(pods), "v1");
  assert.equal(apiVersionOf(deploys), "apps/v1");
  assert.deepEqual(requestTargetOf(deploys, { namespace: "a", name: "w" }), {
    resource: "deployments.apps",
    namespace: "a",
    name: "w",
  });
});
