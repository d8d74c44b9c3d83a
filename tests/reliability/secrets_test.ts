import assert from "node:assert/strict";
import {
  connect,
  controller,
  E,
  jsonLogger,
  type KubeObject,
  type Logger,
  startManager,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

const token = "tok-3f9a7c1e5b2d4a6f8e0c";
const secretValue = "hunter2-very-secret-value";
const keyMaterial = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDsecretkeymaterial";
const forbidden = [token, secretValue, btoa(secretValue), keyMaterial];

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, logger: jsonLogger({ write: (l) => lines.push(l), level: "debug" }) };
}

function assertClean(what: string, texts: readonly string[]) {
  for (const text of texts) {
    for (const secret of forbidden) {
      assert.ok(!text.includes(secret), `${what} leaks ${secret.slice(0, 6)}...: ${text}`);
    }
  }
}

/** Every string reachable in an error value (message, causes, nested fields). */
function strings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object" || seen.has(value)) return [];
  seen.add(value);
  const out: string[] = value instanceof Error
    ? [value.message, String(value.stack), ...strings(value.cause, seen)]
    : [];
  for (const v of Object.values(value)) out.push(...strings(v, seen));
  return out;
}

Deno.test("tokens and Secret data never appear in the logs of a manager reconciling Secrets", async () => {
  const server = await startApiServer({ token });
  const { logger, lines } = capture();
  const c = await connect({ kubeconfigYaml: server.kubeconfig, logger });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  const secretKind = { apiVersion: "v1", kind: "Secret" };
  let reconciled = 0;
  const manager = await startManager({
    client,
    logger,
    controllers: [controller({
      name: "secret-labeler",
      for: secretKind,
      reconcile: (s) => {
        reconciled++;
        return E.right({
          ops: s.metadata?.labels?.seen ? [] : [{
            type: "patch",
            ref: {
              ...secretKind,
              name: s.metadata!.name!,
              namespace: s.metadata!.namespace!,
            },
            patchType: "merge",
            patch: { metadata: { labels: { seen: "yes" } } },
          }],
        });
      },
    })],
  });
  try {
    await manager.ready;
    const made = await client.create({
      ...secretKind,
      metadata: { name: "db", namespace: "default" },
      stringData: { password: secretValue },
    } as KubeObject);
    assert.ok(E.isRight(made), E.isLeft(made) ? made.left.message : "");
    for (let i = 0; i < 200 && reconciled < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(reconciled >= 2, "the controller reconciled the Secret");
    // A failing write whose body holds the secret: the error must not echo it.
    const dup = await client.create({
      ...secretKind,
      metadata: { name: "db", namespace: "default" },
      data: { password: btoa(secretValue) },
    } as KubeObject);
    assert.ok(E.isLeft(dup));
    assertClean("a failed create", strings(dup.left));
    // Wrong token: 401, and neither token appears.
    const wrong = await connect({
      kubeconfigYaml: server.kubeconfig.replace(token, "wrong-token"),
      logger,
    });
    if (E.isLeft(wrong)) throw new Error(wrong.left.message);
    const denied = await wrong.right.get(secretKind, "db", { namespace: "default" });
    assert.ok(E.isLeft(denied));
    assert.match(denied.left.message, /Unauthorized/);
    assertClean("a 401", strings(denied.left));
    assert.ok(!denied.left.message.includes("wrong-token"));
    wrong.right.close();
  } finally {
    await manager.stop();
    client.close();
    await server.close();
  }
  assert.ok(lines.length > 0, "debug logs were captured");
  assertClean("the logs", lines);
  assertClean("the metrics", [manager.metricsText()]);
});

Deno.test("a failing exec plugin and an unusable client key never put credentials in errors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const plugin = `${dir}/plugin.sh`;
    await Deno.writeTextFile(
      plugin,
      `#!/bin/sh\necho '{"kind":"ExecCredential","status":{"token":"${token}"}'\necho "login expired" >&2\nexit 3\n`,
    );
    await Deno.chmod(plugin, 0o755);
    const execConfig = `clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`;
    const { logger, lines } = capture();
    const c = await connect({ kubeconfigYaml: execConfig, logger, maxRetries: 0 });
    if (E.isLeft(c)) {
      assertClean("the exec config error", strings(c.left));
    } else {
      const r = await c.right.get({ apiVersion: "v1", kind: "Namespace" }, "default");
      assert.ok(E.isLeft(r));
      assert.match(r.left.message, /plugin\.sh.*exit code 3.*login expired/);
      assertClean("the exec failure", strings(r.left));
      c.right.close();
    }
    assertClean("the exec logs", lines);

    const pem = `-----BEGIN PRIVATE KEY-----\n${keyMaterial}\n-----END PRIVATE KEY-----\n`;
    const certConfig = `clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {client-certificate-data: ${btoa("not a cert")}, client-key-data: ${
      btoa(pem)
    }}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`;
    const k = await connect({ kubeconfigYaml: certConfig, logger, maxRetries: 0 });
    if (E.isLeft(k)) assertClean("the client key error", strings(k.left));
    else {
      const r = await k.right.get({ apiVersion: "v1", kind: "Namespace" }, "default");
      assert.ok(E.isLeft(r));
      assertClean("the client key failure", strings(r.left));
      k.right.close();
    }
    assertClean("the client key logs", lines);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TLS verification is on unless the kubeconfig turns it off", async () => {
  const server = await startApiServer({ tls: true });
  const noCa = server.kubeconfig.replace(/\n\s*certificate-authority-data: .*/, "");
  assert.ok(!noCa.includes("certificate-authority-data"));
  const kind = { apiVersion: "v1", kind: "Namespace" };
  const tryGet = async (yaml: string) => {
    const c = await connect({ kubeconfigYaml: yaml, maxRetries: 0 });
    if (E.isLeft(c)) throw new Error(c.left.message);
    const r = await c.right.get(kind, "default");
    c.right.close();
    return r;
  };
  try {
    const trusted = await tryGet(server.kubeconfig);
    assert.ok(E.isRight(trusted), E.isLeft(trusted) ? trusted.left.message : "");
    const untrusted = await tryGet(noCa);
    assert.ok(E.isLeft(untrusted), "a self-signed server is refused without its CA");
    // The reason is in the cause chain (the message itself only says "fetch failed").
    assert.match(strings(untrusted.left).join("\n"), /invalid peer certificate|UnknownIssuer/);
    const skip = noCa.replace(
      /(\n\s*)server: (.*)/,
      "$1server: $2$1insecure-skip-tls-verify: true",
    );
    // Refused by name at connect() (Deno cannot skip verification for one client), or works.
    const c = await connect({ kubeconfigYaml: skip, maxRetries: 0 });
    const skipped = E.isLeft(c) ? c : await c.right.get(kind, "default");
    if (E.isRight(c)) c.right.close();
    assert.ok(
      E.isRight(skipped) || /insecure/i.test(skipped.left.message),
      "insecure-skip-tls-verify either works or is refused by name",
    );
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "an exec plugin's stderr is quoted in errors with token-like words redacted",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const plugin = `${dir}/plugin.sh`;
    await Deno.writeTextFile(plugin, `#!/bin/sh\necho "bad token ${token}" >&2\nexit 1\n`);
    await Deno.chmod(plugin, 0o755);
    const c = await connect({
      kubeconfigYaml: `clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
      maxRetries: 0,
    });
    if (E.isLeft(c)) throw new Error(c.left.message);
    const r = await c.right.get({ apiVersion: "v1", kind: "Namespace" }, "default");
    c.right.close();
    await Deno.remove(dir, { recursive: true });
    assert.ok(E.isLeft(r));
    assertClean("the exec failure", strings(r.left));
  },
});
