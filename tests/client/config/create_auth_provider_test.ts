import assert from "node:assert/strict";
import { createAuthProvider } from "../../../lib/client/config/create_auth_provider.ts";
import { assertNoSecret, tempFiles, unwrap, unwrapLeft } from "./_helpers.ts";
import { type Auth, type ExecConfig, type RunCommand, Secret } from "../../../mod.ts";

const v1 = "client.authentication.k8s.io/v1";

Deno.test("createAuthProvider() sends bearer, basic and no credentials", async () => {
  const bearer = createAuthProvider({ type: "token", token: new Secret("abc") });
  assert.deepEqual(unwrap(await bearer.headers()), { Authorization: "Bearer abc" });
  const basic = createAuthProvider({
    type: "basic",
    username: "admin",
    password: new Secret("pw"),
  });
  assert.deepEqual(unwrap(await basic.headers()), { Authorization: `Basic ${btoa("admin:pw")}` });
  assert.deepEqual(unwrap(await createAuthProvider({ type: "none" }).headers()), {});
  assert.equal(JSON.stringify(bearer).includes("abc"), false);
});

Deno.test("createAuthProvider() re-reads a token file after it changes, at most every interval", async () => {
  const dir = await tempFiles({ token: "first" });
  let now = 0;
  const p = createAuthProvider(
    { type: "tokenFile", path: `${dir}/token` },
    { now: () => now, tokenFileCheckMs: 1000 },
  );
  assert.equal(unwrap(await p.headers()).Authorization, "Bearer first");
  await Deno.writeTextFile(`${dir}/token`, "second-token\n");
  now = 999;
  assert.equal(unwrap(await p.headers()).Authorization, "Bearer first");
  now = 1000;
  assert.equal(unwrap(await p.headers()).Authorization, "Bearer second-token");
  // invalidate() (after a 401) checks again at once.
  await Deno.writeTextFile(`${dir}/token`, "third");
  p.invalidate();
  assert.equal(unwrap(await p.headers()).Authorization, "Bearer third");
  // A vanished file keeps the last good token.
  await Deno.remove(`${dir}/token`);
  now = 5000;
  assert.equal(unwrap(await p.headers()).Authorization, "Bearer third");
});

Deno.test("createAuthProvider() reports an unreadable token file by path", async () => {
  const dir = await tempFiles();
  const e = unwrapLeft(await createAuthProvider({ type: "tokenFile", path: `${dir}/t` }).headers());
  assert.equal(e.message, `tokenFile: cannot read "${dir}/t": file not found`);
});

/** Writes a plugin script that counts its runs in a file and prints an ExecCredential. */
async function plugin(
  status: string,
  exit = 0,
  stderr = "",
): Promise<{ exec: ExecConfig; count: () => number; dir: string }> {
  const dir = await tempFiles({ count: "" });
  const script = `#!/bin/sh
echo run >> "${dir}/count"
printf '%s' "$KUBERNETES_EXEC_INFO" > "${dir}/info"
printf '%s' "$PLUGIN_FLAVOR $1" > "${dir}/seen"
echo '${stderr}' >&2
cat <<'JSON'
{"apiVersion":"${v1}","kind":"ExecCredential","status":${status}}
JSON
exit ${exit}
`;
  await Deno.writeTextFile(`${dir}/plugin.sh`, script, { mode: 0o755 });
  const exec: ExecConfig = {
    apiVersion: v1,
    command: `${dir}/plugin.sh`,
    args: ["--arg"],
    env: [{ name: "PLUGIN_FLAVOR", value: "mint" }],
    interactiveMode: "Never",
    provideClusterInfo: true,
  };
  const count = () => Deno.readTextFileSync(`${dir}/count`).split("\n").filter((l) => l).length;
  return { exec, count, dir };
}

Deno.test("createAuthProvider() runs an exec plugin once and caches its token until expiry", async () => {
  const expiry = Date.parse("2030-01-01T00:00:00Z");
  const { exec, count, dir } = await plugin(
    `{"token":"exec-token-1","expirationTimestamp":"2030-01-01T00:00:00Z"}`,
  );
  let now = expiry - 60_000;
  const auth: Auth = {
    type: "exec",
    exec,
    cluster: { server: "https://h:6443", caData: "CA", insecureSkipTlsVerify: false },
  };
  const p = createAuthProvider(auth, { now: () => now });
  const [a, b] = await Promise.all([p.headers(), p.headers()]);
  assert.equal(unwrap(a).Authorization, "Bearer exec-token-1");
  assert.equal(unwrap(b).Authorization, "Bearer exec-token-1");
  assert.equal(count(), 1);
  now = expiry - 1;
  await p.headers();
  assert.equal(count(), 1);
  now = expiry;
  assert.equal(unwrap(await p.headers()).Authorization, "Bearer exec-token-1");
  assert.equal(count(), 2);
  p.invalidate();
  await p.headers();
  assert.equal(count(), 3);
  assert.equal(Deno.readTextFileSync(`${dir}/seen`), "mint --arg");
  assert.deepEqual(JSON.parse(Deno.readTextFileSync(`${dir}/info`)), {
    apiVersion: v1,
    kind: "ExecCredential",
    spec: {
      interactive: false,
      cluster: { server: "https://h:6443", "certificate-authority-data": btoa("CA") },
    },
  });
});

Deno.test("createAuthProvider() hands out an exec plugin's client certificate", async () => {
  const { exec } = await plugin(`{"clientCertificateData":"CERT","clientKeyData":"KEY-SECRET"}`);
  const p = createAuthProvider({ type: "exec", exec });
  const c = unwrap(await p.credentials());
  assert.deepEqual(c.headers, {});
  assert.equal(c.clientCertificate?.certData, "CERT");
  assert.equal(c.clientCertificate?.keyData.reveal(), "KEY-SECRET");
  assertNoSecret(JSON.stringify(c) + Deno.inspect(c), ["KEY-SECRET"]);
});

Deno.test("createAuthProvider() names a failing plugin with its stderr but never its token", async () => {
  const { exec, count } = await plugin(`{"token":"leaky-token-xyz"}`, 3, "login expired, run sso");
  const p = createAuthProvider({ type: "exec", exec });
  const e = unwrapLeft(await p.headers());
  assert.equal(e.type, "Exec");
  assert.equal(
    e.message,
    `exec plugin "${exec.command}": exit code 3: login expired, run sso`,
  );
  assertNoSecret(e.message + JSON.stringify(e), ["leaky-token-xyz"]);
  await p.headers();
  assert.equal(count(), 2, "a failure is not cached");
});

Deno.test("createAuthProvider() rejects malformed plugin output without echoing it", async () => {
  const cases: [string, RegExp][] = [
    ["not json secret-xyz", /stdout is not a JSON ExecCredential/],
    [JSON.stringify({ kind: "ExecCredential", apiVersion: v1 }), /status: Required value/],
    [
      JSON.stringify({
        kind: "ExecCredential",
        apiVersion: "x/v1",
        status: { token: "secret-xyz" },
      }),
      /apiVersion: Invalid value: "x\/v1"/,
    ],
    [
      JSON.stringify({
        kind: "ExecCredential",
        apiVersion: v1,
        status: { token: "secret-xyz", expirationTimestamp: "soon" },
      }),
      /expirationTimestamp: Invalid value/,
    ],
    [
      JSON.stringify({
        kind: "ExecCredential",
        apiVersion: v1,
        status: { clientKeyData: "secret-xyz" },
      }),
      /status: Required value/,
    ],
  ];
  for (const [stdout, expected] of cases) {
    const run: RunCommand = () => Promise.resolve({ code: 0, stdout, stderr: "" });
    const exec: ExecConfig = {
      apiVersion: v1,
      command: "fake",
      args: [],
      env: [],
      interactiveMode: "IfAvailable",
      provideClusterInfo: false,
    };
    const e = unwrapLeft(
      await createAuthProvider({ type: "exec", exec }, { runCommand: run }).headers(),
    );
    assert.match(e.message, expected);
    assert.ok(e.message.startsWith('exec plugin "fake": '));
    assertNoSecret(e.message, ["secret-xyz"]);
  }
});

Deno.test("createAuthProvider() reports a missing plugin with its install hint", async () => {
  const exec: ExecConfig = {
    apiVersion: v1,
    command: "/nonexistent/kubefold-login",
    args: [],
    env: [],
    interactiveMode: "Never",
    provideClusterInfo: false,
    installHint: "install kubefold-login from example.com",
  };
  const e = unwrapLeft(await createAuthProvider({ type: "exec", exec }).headers());
  assert.equal(
    e.message,
    'exec plugin "/nonexistent/kubefold-login": cannot run: command not found\n' +
      "install kubefold-login from example.com",
  );
  const always = unwrapLeft(
    await createAuthProvider({ type: "exec", exec: { ...exec, interactiveMode: "Always" } })
      .headers(),
  );
  assert.match(always.message, /interactiveMode is Always/);
});
