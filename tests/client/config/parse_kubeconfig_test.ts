import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { kubeconfigFor } from "../../../lib/client/config/kubeconfig_for.ts";
import { parseKubeconfig } from "../../../lib/client/config/parse_kubeconfig.ts";
import { assertNoSecret, b64, unwrap, unwrapLeft } from "./_helpers.ts";

const src = "/home/u/.kube/config"; // outside-path-ok: a name in error messages, never read

Deno.test("parseKubeconfig() reads clusters, users and contexts with their origins", () => {
  const k = unwrap(parseKubeconfig(
    `
apiVersion: v1
kind: Config
clusters:
- name: dev
  cluster:
    server: https://10.0.0.1:6443
    tls-server-name: api.dev
users:
- name: admin
  user:
    token: dev-token
contexts:
- name: dev
  context: {cluster: dev, user: admin, namespace: team}
current-context: dev
`,
    src,
  ));
  assert.equal(k.currentContext, "dev");
  assert.equal(k.currentContextSource, src);
  assert.deepEqual(k.sources, [src]);
  assert.equal(k.clusters[0].value.server, "https://10.0.0.1:6443");
  assert.equal(k.clusters[0].value.tlsServerName, "api.dev");
  assert.equal(k.clusters[0].value.insecureSkipTlsVerify, false);
  assert.equal(k.users[0].value.token?.reveal(), "dev-token");
  assert.deepEqual(k.contexts[0], {
    name: "dev",
    value: { cluster: "dev", user: "admin", namespace: "team" },
    source: src,
    path: "contexts[0]",
  });
});

Deno.test("parseKubeconfig() treats an empty file as an empty config", () => {
  const k = unwrap(parseKubeconfig("", src));
  assert.deepEqual([k.clusters, k.users, k.contexts, k.currentContext], [[], [], [], undefined]);
});

Deno.test("parseKubeconfig() reports bad YAML with file, line and column but no file content", () => {
  const e = unwrapLeft(parseKubeconfig("users:\n- name: a\n  user: {token: s3cr3t-token\n", src));
  assert.equal(e.type, "Parse");
  assert.match(e.message, /^\/home\/u\/\.kube\/config: line \d+, column \d+: invalid YAML: /);
  assertNoSecret(e.message, ["s3cr3t-token"]);
});

Deno.test("parseKubeconfig() reports duplicate keys as bad YAML", () => {
  const e = unwrapLeft(parseKubeconfig("current-context: a\ncurrent-context: b\n", src));
  assert.equal(e.type, "Parse");
  assert.match(e.message, /line 2, column 1/);
});

Deno.test("parseKubeconfig() names the file and field of a missing value", () => {
  const e = unwrapLeft(parseKubeconfig(
    "contexts:\n- name: a\n  context: {cluster: c}\n- context: {cluster: c}\n",
    src,
  ));
  assert.equal(e.message, `${src}: contexts[1].name: Required value`);
  assert.equal(e.type === "Invalid" && e.errors[0].type, "FieldValueRequired");
});

Deno.test("parseKubeconfig() names the field of a wrong type without echoing the value", () => {
  const e = unwrapLeft(parseKubeconfig(
    `
clusters:
- name: c
  cluster: {server: https://x, insecure-skip-tls-verify: "please"}
users:
- name: u
  user: {token: 123456789}
contexts: {}
`,
    src,
  ));
  assert.equal(
    e.message,
    [
      `${src}: clusters[0].cluster.insecure-skip-tls-verify: Invalid value: string: must be a boolean`,
      `${src}: users[0].user.token: Invalid value: number: must be a string`,
      `${src}: contexts: Invalid value: object: must be a list`,
    ].join("; "),
  );
  assertNoSecret(e.message, ["123456789", "please"]);
});

Deno.test("parseKubeconfig() reads YAML 1.1 booleans like kubectl", () => {
  const k = unwrap(parseKubeconfig(
    "clusters: [{name: c, cluster: {server: 'https://x', insecure-skip-tls-verify: yes}}]\n",
    src,
  ));
  assert.equal(k.clusters[0].value.insecureSkipTlsVerify, true);
});

Deno.test("parseKubeconfig() decodes *-data fields from base64 and rejects bad base64", () => {
  const k = unwrap(parseKubeconfig(
    `
clusters: [{name: c, cluster: {server: "https://x", certificate-authority-data: ${b64("CA PEM")}}}]
users: [{name: u, user: {client-certificate-data: ${b64("CERT")}, client-key-data: ${
      b64("KEY-SECRET")
    }}}]
`,
    src,
  ));
  assert.equal(k.clusters[0].value.certificateAuthorityData, "CA PEM");
  assert.equal(k.users[0].value.clientCertificateData, "CERT");
  assert.equal(k.users[0].value.clientKeyData?.reveal(), "KEY-SECRET");
  assertNoSecret(JSON.stringify(k) + Deno.inspect(k, { depth: 10 }), ["KEY-SECRET"]);

  const e = unwrapLeft(parseKubeconfig(
    "users: [{name: u, user: {client-key-data: 'not base64!'}}]\n",
    src,
  ));
  assert.equal(
    e.message,
    `${src}: users[0].user.client-key-data: Invalid value: must be base64-encoded PEM data`,
  );
});

Deno.test("parseKubeconfig() resolves relative paths against the file's directory", () => {
  const k = unwrap(parseKubeconfig(
    `
clusters: [{name: c, cluster: {server: "https://x", certificate-authority: ca.crt}}]
users:
- name: u
  user:
    client-certificate: ../pki/u.crt
    client-key: /abs/u.key
    tokenFile: token
    exec: {apiVersion: client.authentication.k8s.io/v1, command: ./bin/login, interactiveMode: Never}
- name: v
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: gcloud}
`,
    "/etc/kube/config",
  ));
  assert.equal(k.clusters[0].value.certificateAuthority, "/etc/kube/ca.crt");
  const u = k.users[0].value;
  assert.deepEqual(
    [u.clientCertificate, u.clientKey, u.tokenFile, u.exec?.command],
    ["/etc/pki/u.crt", "/abs/u.key", "/etc/kube/token", "/etc/kube/bin/login"],
  );
  assert.equal(k.users[1].value.exec?.command, "gcloud");
  assert.equal(k.users[1].value.exec?.interactiveMode, "IfAvailable");
});

Deno.test("parseKubeconfig() checks exec plugin fields", () => {
  const e = unwrapLeft(parseKubeconfig(
    `
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1alpha1
      args: [1]
      env: [{value: x}]
- name: w
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: x}
`,
    src,
  ));
  const fields = e.type === "Invalid" ? e.errors.map((x) => x.field) : [];
  assert.deepEqual(fields, [
    "users[0].user.exec.apiVersion",
    "users[0].user.exec.command",
    "users[0].user.exec.args[0]",
    "users[0].user.exec.env[0].name",
    "users[1].user.exec.interactiveMode",
  ]);
  assert.match(
    e.message,
    /exec\.apiVersion: Unsupported value: "client\.authentication\.k8s\.io\/v1alpha1"/,
  );
});

Deno.test("parseKubeconfig() reads what kubeconfigFor() renders (property)", () => {
  const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
  fc.assert(
    fc.property(
      fc.record({
        server: fc.constantFrom(
          "http://127.0.0.1:8080",
          "https://10.0.0.1:6443",
          "https://[::1]:6443",
        ),
        token: fc.option(fc.string({ minLength: 1 }).filter((s) => s.trim() === s), {
          nil: undefined,
        }),
        caData: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        namespace: fc.option(word, { nil: undefined }),
        name: word,
      }),
      (o) => {
        const k = unwrap(parseKubeconfig(kubeconfigFor(o), "/k"));
        assert.equal(k.currentContext, o.name);
        assert.equal(k.clusters[0].value.server, o.server);
        assert.equal(k.clusters[0].value.certificateAuthorityData, o.caData);
        assert.equal(k.users[0].value.token?.reveal(), o.token);
        assert.deepEqual(k.contexts[0].value, {
          cluster: o.name,
          user: o.name,
          ...(o.namespace ? { namespace: o.namespace } : {}),
        });
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("parseKubeconfig() never echoes a secret in an error (property)", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^[A-Za-z0-9]{16,32}$/),
      fc.constantFrom(
        (t: string) => `users: [{name: u, user: {token: ${t}, username: [x]}}]`,
        (t: string) => `users: [{name: u, user: {token: "${t}"}}]\nclusters: 5`,
        (t: string) => `users: [{name: u, user: {password: ${t}, client-key-data: "${t}!"}}]`,
        (t: string) => `users: [{name: u, user: {token: ${t}}}\n  bad: [`,
        (t: string) => `users:\n- name: u\n  user:\n    token: ${t}\n   x: 1`,
      ),
      (token, render) => {
        const e = unwrapLeft(parseKubeconfig(render(token), src));
        assertNoSecret(e.message + JSON.stringify(e) + Deno.inspect(e, { depth: 10 }), [token]);
      },
    ),
    { numRuns: 100 },
  );
});
