/**
 * Status bodies byte for byte as kube-apiserver writes them: metav1.Status's field order
 * (kind, apiVersion, metadata, status, message, reason, details{name, group, kind, uid,
 * causes[{reason, message, field}], retryAfterSeconds}, code), omitempty, Go's escaping, the
 * json.Encoder's trailing newline, and json.MarshalIndent for pretty output.
 */
import assert from "node:assert/strict";
import { failure, type Status } from "../../lib/core/status.ts";
import { statusBody, wantsPretty } from "../../lib/apiserver/status_body.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";

Deno.test("statusBody() orders fields like metav1.Status and ends with a newline", () => {
  // Built with the fields in a different order than Go's struct.
  const s = {
    code: 404,
    details: { kind: "deployments", group: "apps", name: "web" },
    reason: "NotFound",
    message: 'deployments.apps "web" not found',
    status: "Failure",
    metadata: {},
    apiVersion: "v1",
    kind: "Status",
  } as Status;
  assert.equal(
    statusBody(s),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"web\\" not found","reason":"NotFound","details":{"name":"web","group":"apps","kind":"deployments"},"code":404}\n',
  );
});

Deno.test("statusBody() leaves out empty fields and escapes like Go", () => {
  const s = failure("Invalid", 'Pod "p" is invalid: spec.x: Invalid value: "<a&b>"', {
    name: "p",
    kind: "Pod",
    causes: [{ field: "spec.x", reason: "FieldValueInvalid", message: 'Invalid value: "<a&b>"' }],
  });
  assert.equal(
    statusBody(s),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Pod \\"p\\" is invalid: spec.x: Invalid value: \\"\\u003ca\\u0026b\\u003e\\"","reason":"Invalid","details":{"name":"p","kind":"Pod","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \\"\\u003ca\\u0026b\\u003e\\"","field":"spec.x"}]},"code":422}\n',
  );
  // A delete's Success status has no code (kube's registry leaves it 0).
  assert.equal(
    statusBody({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: "a", kind: "configmaps", uid: "u" },
      code: 0,
    }),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"a","kind":"configmaps","uid":"u"}}\n',
  );
});

Deno.test("statusBody() pretty is json.MarshalIndent with two spaces and no newline", () => {
  const s = failure("Invalid", "bad", {
    name: "p",
    kind: "Pod",
    causes: [{ reason: "FieldValueRequired", message: "Required value", field: "spec" }],
  });
  assert.equal(
    statusBody(s, true),
    [
      "{",
      '  "kind": "Status",',
      '  "apiVersion": "v1",',
      '  "metadata": {},',
      '  "status": "Failure",',
      '  "message": "bad",',
      '  "reason": "Invalid",',
      '  "details": {',
      '    "name": "p",',
      '    "kind": "Pod",',
      '    "causes": [',
      "      {",
      '        "reason": "FieldValueRequired",',
      '        "message": "Required value",',
      '        "field": "spec"',
      "      }",
      "    ]",
      "  },",
      '  "code": 422',
      "}",
    ].join("\n"),
  );
  // Semantically the same document.
  assert.deepEqual(JSON.parse(statusBody(s, true)), JSON.parse(statusBody(s)));
});

Deno.test("wantsPretty() follows ?pretty, then curl, Wget and browsers", () => {
  const req = (q: string, ua?: string) =>
    new Request(`http://x/api${q}`, { headers: ua ? { "user-agent": ua } : {} });
  assert.equal(wantsPretty(req("")), false);
  assert.equal(wantsPretty(req("?pretty=true")), true);
  assert.equal(wantsPretty(req("?pretty=false", "curl/8")), false);
  assert.equal(wantsPretty(req("", "curl/8.5.0")), true);
  assert.equal(wantsPretty(req("", "Wget/1.21")), true);
  assert.equal(wantsPretty(req("", "Mozilla/5.0 (X11)")), true);
  assert.equal(wantsPretty(req("", "kubectl/v1.32.5 (linux/amd64) kubernetes/abc")), false);
});

Deno.test("the server answers errors and deletes with kube-apiserver's Status bytes", async () => {
  const server = await startApiServer();
  try {
    const get = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/nope`);
    assert.equal(get.headers.get("content-type"), "application/json");
    assert.equal(
      await get.text(),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"configmaps"},"code":404}\n',
    );
    const curl = await fetch(`${server.url}/apis/nope.example.com/v1`, {
      headers: { "user-agent": "curl/8.5.0" },
    });
    assert.equal(curl.status, 404);
    assert.equal(
      await curl.text(),
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "the server could not find the requested resource",\n  "reason": "NotFound",\n  "details": {},\n  "code": 404\n}',
    );
    const created = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }),
    });
    const uid = (await created.json()).metadata.uid;
    const del = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/a`, {
      method: "DELETE",
    });
    assert.equal(
      await del.text(),
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"a","kind":"configmaps","uid":"${uid}"}}\n`,
    );
  } finally {
    await server.close();
  }
});

Deno.test("refusals before routing (401) and delete Status bodies are pretty for curl too", async () => {
  const server = await startApiServer({ token: "secret" });
  const curl = { "user-agent": "curl/8.5.0" };
  try {
    const anonymous = await fetch(`${server.url}/api`, { headers: curl });
    assert.equal(anonymous.status, 401);
    assert.equal(
      await anonymous.text(),
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "Unauthorized",\n  "reason": "Unauthorized",\n  "code": 401\n}',
    );
    const auth = { ...curl, authorization: "Bearer secret" };
    await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }),
    }).then((r) => r.body?.cancel());
    const del = await fetch(`${server.url}/api/v1/namespaces/default/configmaps/a`, {
      method: "DELETE",
      headers: auth,
    });
    assert.match(await del.text(), /^\{\n {2}"kind": "Status",\n[^]*\n\}$/);
  } finally {
    await server.close();
  }
});
