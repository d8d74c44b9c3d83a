import assert from "node:assert/strict";
import { decodeAdmissionRequest } from "../../lib/webhook/decode_admission_request.ts";

const base = { uid: "u", operation: "UPDATE" };

Deno.test("decodeAdmissionRequest() keeps what kube-apiserver sends", () => {
  const request = {
    ...base,
    kind: { group: "apps", version: "v1", kind: "Deployment" },
    resource: { group: "apps", version: "v1", resource: "deployments" },
    requestKind: { group: "apps", version: "v1beta1", kind: "Deployment" },
    requestResource: { group: "apps", version: "v1beta1", resource: "deployments" },
    subResource: "scale",
    requestSubResource: "scale",
    name: "web",
    namespace: "default",
    userInfo: { username: "alice", uid: "1", groups: ["dev"], extra: { scopes: ["a"] } },
    object: { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" } },
    oldObject: null,
    options: { apiVersion: "meta.k8s.io/v1", kind: "UpdateOptions" },
    dryRun: false,
  };
  assert.deepEqual(decodeAdmissionRequest(request), { _tag: "Right", right: request });
});

Deno.test("decodeAdmissionRequest() reads an absent kind, resource or userInfo as zero", () => {
  assert.deepEqual(decodeAdmissionRequest(base), {
    _tag: "Right",
    right: {
      ...base,
      kind: { group: "", version: "", kind: "" },
      resource: { group: "", version: "", resource: "" },
      userInfo: {},
    },
  });
});

Deno.test("decodeAdmissionRequest() names the field of the wrong type", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ uid: 1 }, "request.uid: must be a string"],
    [{ ...base, operation: "MAKE" }, "request.operation: must be one of CREATE"],
    [{ ...base, kind: { kind: 3 } }, "request.kind.kind: must be a string"],
    [{ ...base, resource: "pods" }, "request.resource: must be an object"],
    [{ ...base, userInfo: { groups: [1] } }, "request.userInfo.groups: must be a list"],
    [{ ...base, userInfo: { extra: { a: "b" } } }, "request.userInfo.extra.a: must be a list"],
    [{ ...base, object: [] }, "request.object: must be a Kubernetes object or null"],
    [{ ...base, oldObject: { kind: 1 } }, "request.oldObject: must be a Kubernetes object"],
    [{ ...base, dryRun: "yes" }, "request.dryRun: must be a boolean"],
    [{ ...base, namespace: 1 }, "request.namespace: must be a string"],
  ];
  for (const [request, message] of cases) {
    const d = decodeAdmissionRequest(request);
    assert.ok(d._tag === "Left" && d.left.includes(message), `${JSON.stringify(d)} ~ ${message}`);
  }
});
