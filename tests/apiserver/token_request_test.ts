import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { podServiceAccountToken } from "../../lib/apiserver/token_request.ts";
import { createTokenSigner } from "../../lib/apiserver/authn/token_signer.ts";

/** A TLS-less server with an admin token, a clock to move, and a JSON caller. */
async function withServer(
  fn: (t: {
    call: (
      method: string,
      path: string,
      body?: unknown,
      token?: string,
    ) => Promise<{
      status: number;
      // deno-lint-ignore no-explicit-any
      body: any;
    }>;
    advance: (ms: number) => void;
  }) => Promise<void>,
) {
  let clock = Date.parse("2025-03-01T00:00:00Z");
  const server = await startApiServer({ token: "admin", now: () => clock });
  const call = async (method: string, path: string, body?: unknown, token = "admin") => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  try {
    await fn({ call, advance: (ms) => clock += ms });
  } finally {
    await server.close();
  }
}

const ns = "/api/v1/namespaces/default";
const tokenFor = (spec: Record<string, unknown> = {}) => ({
  apiVersion: "authentication.k8s.io/v1",
  kind: "TokenRequest",
  spec,
});

Deno.test("TokenRequest issues a token valid for its audience until it expires", () =>
  withServer(async ({ call, advance }) => {
    await call("POST", `${ns}/serviceaccounts`, { metadata: { name: "op" } });
    const tr = await call(
      "POST",
      `${ns}/serviceaccounts/op/token`,
      tokenFor({ expirationSeconds: 600 }),
    );
    assert.equal(tr.status, 201);
    assert.equal(tr.body.status.expirationTimestamp, "2025-03-01T00:10:00Z");
    assert.deepEqual(tr.body.spec.audiences, ["https://kubernetes.default.svc.cluster.local"]);
    const token = tr.body.status.token;
    const who = await call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {}, token);
    assert.equal(who.status, 201);
    assert.equal(who.body.status.userInfo.username, "system:serviceaccount:default:op");
    const review = await call("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
      spec: { token },
    });
    assert.equal(review.body.status.authenticated, true);
    assert.deepEqual(review.body.status.user.groups, [
      "system:serviceaccounts",
      "system:serviceaccounts:default",
      "system:authenticated",
    ]);
    advance(600_000);
    assert.equal((await call("GET", `${ns}/pods`, undefined, token)).status, 401, "expired");
    const expired = await call("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
      spec: { token },
    });
    assert.equal(expired.body.status.authenticated, undefined);
    assert.match(expired.body.status.error, /expired/);
  }));

Deno.test("TokenRequest validates expiry and the ServiceAccount; other audiences and deleted bound pods are refused", () =>
  withServer(async ({ call }) => {
    assert.equal(
      (await call("POST", `${ns}/serviceaccounts/ghost/token`, tokenFor())).status,
      404,
    );
    const short = await call(
      "POST",
      `${ns}/serviceaccounts/default/token`,
      tokenFor({ expirationSeconds: 60 }),
    );
    assert.equal(short.status, 422);
    assert.match(
      short.body.message,
      /spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes/,
    );
    const vault = await call(
      "POST",
      `${ns}/serviceaccounts/default/token`,
      tokenFor({ audiences: ["vault"] }),
    );
    assert.equal((await call("GET", `${ns}/pods`, undefined, vault.body.status.token)).status, 401);
    const forVault = await call("POST", "/apis/authentication.k8s.io/v1/tokenreviews", {
      spec: { token: vault.body.status.token, audiences: ["vault"] },
    });
    assert.deepEqual(forVault.body.status.audiences, ["vault"]);

    const pod = await call("POST", `${ns}/pods`, {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "i" }] },
    });
    const bound = await call(
      "POST",
      `${ns}/serviceaccounts/default/token`,
      tokenFor({
        boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "p", uid: pod.body.metadata.uid },
      }),
    );
    assert.equal(bound.status, 201);
    const token = bound.body.status.token;
    const who = await call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", {}, token);
    assert.deepEqual(who.body.status.userInfo.extra["authentication.kubernetes.io/pod-name"], [
      "p",
    ]);
    await call("DELETE", `${ns}/pods/p`);
    assert.equal((await call("GET", "/version", undefined, token)).status, 401, "bound pod gone");
    const wrongUid = await call(
      "POST",
      `${ns}/serviceaccounts/default/token`,
      tokenFor({
        boundObjectRef: { kind: "Secret", apiVersion: "v1", name: "nope" },
      }),
    );
    assert.equal(wrongUid.status, 404);
  }));

Deno.test("a terminating pod's bound token works until 60 s past its deletionTimestamp (JWT leeway)", () =>
  withServer(async ({ call, advance }) => {
    const pod = await call("POST", `${ns}/pods`, {
      metadata: { name: "t", finalizers: ["example.com/hold"] },
      spec: { containers: [{ name: "c", image: "i" }] },
    });
    const bound = await call(
      "POST",
      `${ns}/serviceaccounts/default/token`,
      tokenFor({
        boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "t", uid: pod.body.metadata.uid },
      }),
    );
    const token = bound.body.status.token;
    const deleted = await call("DELETE", `${ns}/pods/t`);
    assert.ok(deleted.body.metadata.deletionTimestamp, "held by its finalizer: terminating");
    const at = Date.parse(deleted.body.metadata.deletionTimestamp);
    assert.equal((await call("GET", "/version", undefined, token)).status, 200, "terminating");
    advance(at - Date.parse("2025-03-01T00:00:00Z") + 60_000);
    assert.equal((await call("GET", "/version", undefined, token)).status, 200, "at the leeway");
    advance(1_000);
    assert.equal((await call("GET", "/version", undefined, token)).status, 401, "past the leeway");
  }));

Deno.test("SubjectAccessReview and LocalSubjectAccessReview answer for another user; the admin is all-powerful", () =>
  withServer(async ({ call }) => {
    await call("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", {
      metadata: { name: "dev-edit" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "edit" },
      subjects: [{ kind: "Group", name: "dev" }],
    });
    await new Promise((r) => setTimeout(r, 0));
    const sar = (
      user: string,
      groups: string[],
      verb: string,
      resource: string,
      namespace = "default",
    ) =>
      call("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
        spec: { user, groups, resourceAttributes: { namespace, verb, group: "apps", resource } },
      });
    const allowed = await sar("alice", ["dev"], "create", "deployments");
    assert.equal(allowed.status, 201);
    assert.deepEqual(allowed.body.status, {
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "dev-edit/default" of ClusterRole "edit" to Group "dev"',
    });
    assert.equal((await sar("alice", [], "create", "deployments")).body.status.allowed, false);
    assert.equal(
      (await sar("alice", ["dev"], "create", "deployments", "kube-system")).body.status.allowed,
      false,
    );
    const local = await call(
      "POST",
      "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
      {
        spec: {
          user: "alice",
          groups: ["dev"],
          resourceAttributes: { verb: "delete", resource: "pods" },
        },
      },
    );
    assert.equal(local.body.status.allowed, true);
    assert.equal(local.body.spec.resourceAttributes.namespace, "default");
    const neither = await call("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
      spec: { resourceAttributes: { verb: "get", resource: "pods" } },
    });
    assert.equal(neither.status, 422);
    const self = await call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
      spec: { nonResourceAttributes: { verb: "get", path: "/anything" } },
    });
    assert.equal(self.body.status.allowed, true, "the admin (system:masters) may do anything");
    // Deleting every binding leaves the admin all-powerful.
    await call("DELETE", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/cluster-admin");
    assert.equal((await call("GET", "/api/v1/nodes")).status, 200);
    assert.equal(
      (await call("GET", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")).status,
      405,
    );
  }));

Deno.test("podServiceAccountToken(): a kubelet's token for a pod is its ServiceAccount's, bound to the pod, valid a year", async () => {
  const clock = Date.parse("2025-03-01T00:00:00Z");
  const server = await startApiServer({ now: () => clock });
  try {
    const res = await fetch(`${server.url}${ns}/pods`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        metadata: { name: "p" },
        spec: { containers: [{ name: "c", image: "i" }] },
      }),
    });
    const pod = await res.json();
    assert.equal(pod.spec.serviceAccountName, "default");
    const signer = createTokenSigner();
    const token = await podServiceAccountToken(server.context, signer, pod);
    const claims = await signer.verify(token!);
    assert.equal(claims?.sub, "system:serviceaccount:default:default");
    assert.deepEqual(claims?.["kubernetes.io"].pod, { name: "p", uid: pod.metadata.uid });
    assert.equal(claims!.exp - claims!.iat, 365 * 24 * 3600);
    const orphan = { ...pod, spec: { ...pod.spec, serviceAccountName: "ghost" } };
    assert.equal(await podServiceAccountToken(server.context, signer, orphan), undefined);
  } finally {
    await server.close();
  }
});
