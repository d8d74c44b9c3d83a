/**
 * Item 2 of the reliability issue: built-in kinds are decoded and validated like
 * kube-apiserver does, with its messages. Each attack that used to store an object typed
 * clients cannot decode is refused; valid kubectl-style objects still pass.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";

type Answer = {
  status: number;
  body: Record<string, unknown> & { message?: string };
  warning: string;
};

async function call(
  url: string,
  method: string,
  path: string,
  body?: string,
  type = "application/json",
): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    ...(body !== undefined ? { body, headers: { "content-type": type } } : {}),
  });
  return { status: res.status, body: await res.json(), warning: res.headers.get("warning") ?? "" };
}

const cms = "/api/v1/namespaces/default/configmaps";
const deployments = "/apis/apps/v1/namespaces/default/deployments";
const cm = (extra: Record<string, unknown>, name = "c") =>
  JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, ...extra });

const deployment = (name: string, containers: unknown) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, creationTimestamp: null },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name }, creationTimestamp: null },
      spec: { containers },
    },
    strategy: {},
  },
  status: {},
});

Deno.test("wrongly typed built-in fields are refused with kube-apiserver's decoding errors, nothing stored", async () => {
  const s = await startApiServer();
  try {
    const str = await call(s.url, "POST", cms, cm({ data: "x" }));
    assert.equal(str.status, 400);
    assert.equal(
      str.body.message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string',
    );
    const num = await call(s.url, "POST", cms, cm({ data: { k: 5 } }));
    assert.equal(num.status, 400);
    assert.match(
      String(num.body.message),
      /cannot unmarshal number into Go struct field ConfigMap\.data of type string$/,
    );
    const list = await call(s.url, "GET", cms);
    const items = (list.body as { items: { metadata: { name: string } }[] }).items;
    const stored = items.map((i) => i.metadata.name);
    assert.deepEqual(stored, ["kube-root-ca.crt"], "nothing was stored (but the published CA)");
  } finally {
    await s.close();
  }
});

Deno.test("a strategic merge patch that makes containers an object is refused (422) and the Deployment stays as it was", async () => {
  const s = await startApiServer();
  try {
    const made = await call(
      s.url,
      "POST",
      deployments,
      JSON.stringify(deployment("web", [{ name: "web", image: "nginx" }])),
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const patch = { spec: { template: { spec: { containers: { name: "web" } } } } };
    const r = await call(
      s.url,
      "PATCH",
      `${deployments}/web`,
      JSON.stringify(patch),
      "application/strategic-merge-patch+json",
    );
    assert.equal(r.status, 422);
    assert.match(
      String(r.body.message),
      /patch: Invalid value: .*json: cannot unmarshal object into Go struct field PodSpec\.spec\.template\.spec\.containers of type \[\]v1\.Container/,
    );
    const now = await call(s.url, "GET", `${deployments}/web`);
    const spec = now.body.spec as { template: { spec: { containers: unknown } } };
    assert.ok(Array.isArray(spec.template.spec.containers));
  } finally {
    await s.close();
  }
});

Deno.test("fieldValidation: Strict refuses unknown and duplicate fields, Warn warns and drops, Ignore drops", async () => {
  const s = await startApiServer();
  try {
    const body =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME","labels":{"a":"1","a":"2"}},"data":{"k":"v"},"colour":"red"}';
    const strict = await call(
      s.url,
      "POST",
      `${cms}?fieldValidation=Strict`,
      body.replace("NAME", "s"),
    );
    assert.equal(strict.status, 400);
    assert.equal(
      strict.body.message,
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.a", unknown field "colour"',
    );
    const warn = await call(
      s.url,
      "POST",
      `${cms}?fieldValidation=Warn`,
      body.replace("NAME", "w"),
    );
    assert.equal(warn.status, 201);
    assert.equal(
      warn.warning,
      '299 - "duplicate field \\"metadata.labels.a\\"", 299 - "unknown field \\"colour\\""',
    );
    assert.equal(warn.body.colour, undefined, "the unknown field is dropped");
    assert.deepEqual((warn.body.metadata as { labels: unknown }).labels, { a: "2" });
    const ignore = await call(
      s.url,
      "POST",
      `${cms}?fieldValidation=Ignore`,
      body.replace("NAME", "i"),
    );
    assert.equal(ignore.status, 201);
    assert.equal(ignore.warning, "");
    assert.equal(ignore.body.colour, undefined);
    const patched = await call(
      s.url,
      "PATCH",
      `${cms}/w?fieldValidation=Strict`,
      '{"data":{"k":"v2"},"spec":{}}',
      "application/merge-patch+json",
    );
    assert.equal(patched.status, 422);
    assert.match(String(patched.body.message), /strict decoding error: unknown field "spec"/);
  } finally {
    await s.close();
  }
});

Deno.test("required fields and name formats of built-ins are validated (422) with kube-apiserver's wording", async () => {
  const s = await startApiServer();
  try {
    const bad = await call(
      s.url,
      "POST",
      deployments,
      JSON.stringify(deployment("bad", [{ name: "Bad_Name", image: "nginx" }, { image: "x" }])),
    );
    assert.equal(bad.status, 422);
    const causes = (bad.body.details as { causes: { field: string; message: string }[] }).causes;
    assert.deepEqual(causes.map((c) => c.field).sort(), [
      "spec.template.spec.containers[0].name",
      "spec.template.spec.containers[1].name",
    ]);
    assert.match(
      String(bad.body.message),
      /spec\.template\.spec\.containers\[0\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of/,
    );
    assert.match(String(bad.body.message), /containers\[1\]\.name: Required value/);
  } finally {
    await s.close();
  }
});

Deno.test("ConfigMaps and Secrets over 1 MiB of data and objects over 1.5 MiB are refused with kube-apiserver's messages", async () => {
  const s = await startApiServer();
  try {
    const big = await call(s.url, "POST", cms, cm({ data: { a: "x".repeat(2_900_000) } }, "big"));
    assert.equal(big.status, 422);
    assert.equal(
      big.body.message,
      'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
    const secret = await call(
      s.url,
      "POST",
      "/api/v1/namespaces/default/secrets",
      JSON.stringify({
        apiVersion: "v1",
        kind: "Secret",
        metadata: { name: "s" },
        stringData: { a: "y".repeat(1_100_000) },
      }),
    );
    assert.equal(secret.status, 422);
    assert.equal(
      secret.body.message,
      'Secret "s" is invalid: data: Too long: may not be more than 1048576 bytes',
    );
    // Nothing else limits a container's arguments: only the 1.5 MiB object limit applies.
    const revision = await call(
      s.url,
      "POST",
      "/api/v1/namespaces/default/pods",
      JSON.stringify({
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "p" },
        spec: { containers: [{ name: "c", image: "busybox", args: ["z".repeat(1_700_000)] }] },
      }),
    );
    assert.equal(revision.status, 413);
    assert.equal(revision.body.message, "etcdserver: request is too large");
    assert.equal((await call(s.url, "POST", cms, cm({ data: { a: "ok" } }, "small"))).status, 201);
  } finally {
    await s.close();
  }
});

Deno.test("bodies: a custom resource without kind is refused (400); a body that is neither JSON nor YAML gets 415", async () => {
  const s = await startApiServer();
  try {
    const crd = await call(
      s.url,
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      JSON.stringify({
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
            schema: {
              openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            },
          }],
        },
      }),
    );
    assert.equal(crd.status, 201);
    let noKind: Answer | undefined;
    for (let i = 0; i < 100; i++) {
      noKind = await call(
        s.url,
        "POST",
        "/apis/example.com/v1/namespaces/default/widgets",
        JSON.stringify({ apiVersion: "example.com/v1", metadata: { name: "w" } }),
      );
      if (noKind.status !== 404) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(noKind!.status, 400);
    assert.match(
      String(noKind!.body.message),
      /the object provided is unrecognized \(must be of type Widget\): Object 'Kind' is missing in/,
    );
    const text = await call(s.url, "POST", cms, cm({}), "text/plain");
    assert.equal(text.status, 415);
    assert.match(String(text.body.message), /the body of the request was in an unknown format/);
    const put = await call(s.url, "PUT", `${cms}/c`, cm({}), "text/plain");
    assert.equal(put.status, 415);
  } finally {
    await s.close();
  }
});

Deno.test("kubectl-style objects (creationTimestamp: null, status: {}, empty strategy) still pass Strict", async () => {
  const s = await startApiServer();
  try {
    const r = await call(
      s.url,
      "POST",
      `${deployments}?fieldValidation=Strict`,
      JSON.stringify(deployment("ok", [{ name: "web", image: "nginx", resources: {} }])),
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.warning, "");
  } finally {
    await s.close();
  }
});
