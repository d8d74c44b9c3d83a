import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { createAuthenticator } from "../../lib/apiserver/authn/authenticate.ts";
import { createTokenSigner } from "../../lib/apiserver/authn/token_signer.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { parseKubeconfig } from "../../lib/client/config/parse_kubeconfig.ts";
import { kubectlAvailable } from "./_kubectl.ts";

const req = (authorization?: string) =>
  new Request("http://127.0.0.1/api", authorization ? { headers: { authorization } } : {});

/** An authenticator over a fresh server context (its storage holds the ServiceAccounts). */
async function withAuthenticator(
  adminToken: string | undefined,
  fn: (authn: ReturnType<typeof createAuthenticator>) => Promise<void> | void,
) {
  const server = await startApiServer();
  try {
    await fn(createAuthenticator(server.context, { adminToken, signer: createTokenSigner() }));
  } finally {
    await server.close();
  }
}

Deno.test("the authenticator takes every request as the admin when no token is set", () =>
  withAuthenticator(undefined, async (authn) => {
    for (const r of [req(), req("Bearer x"), req("Basic abc")]) {
      const a = await authn.request(r);
      assert.equal(a.type === "user" && a.user.name, "kubernetes-admin");
      assert.ok(a.type === "user" && a.user.groups.includes("system:masters"));
    }
  }));

Deno.test("the authenticator accepts exactly the configured bearer token as the admin", () =>
  withAuthenticator("s3cret", async (authn) => {
    assert.equal((await authn.request(req("Bearer s3cret"))).type, "user");
    assert.equal((await authn.request(req("bearer  s3cret "))).type, "user");
    for (
      const h of [undefined, "Bearer", "Bearer s3cre", "Bearer s3cret2", "Basic s3cret", "s3cret"]
    ) {
      assert.equal((await authn.request(req(h))).type, "unauthorized", String(h));
    }
  }));

Deno.test("the authenticator accepts a token iff it equals the configured one", async () => {
  const token = fc.string({ unit: fc.constantFrom("a", "b", "7", "-", "é"), maxLength: 8 })
    .filter((t) => t.trim() === t && t !== "");
  const server = await startApiServer();
  try {
    await fc.assert(
      fc.asyncProperty(token, token, async (given, expected) => {
        const authn = createAuthenticator(server.context, {
          adminToken: expected,
          signer: createTokenSigner(),
        });
        const ok = (await authn.request(req(`Bearer ${given}`))).type === "user";
        assert.equal(ok, given === expected);
      }),
      { numRuns: 300 },
    );
  } finally {
    await server.close();
  }
});

Deno.test("a server with a token answers 401 to any request without it, on every path", async () => {
  const server = await startApiServer({ token: "s3cret" });
  try {
    for (const path of ["/version", "/healthz", "/api", "/api/v1/namespaces", "/nope"]) {
      const res = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 401, path);
      assert.equal((await res.json()).reason, "Unauthorized");
      const ok = await fetch(`${server.url}${path}`, {
        headers: { authorization: "Bearer s3cret" },
      });
      await ok.body?.cancel();
      assert.notEqual(ok.status, 401, path);
    }
    const kc = parseKubeconfig(server.kubeconfig, "kubeconfig");
    assert.equal(kc._tag === "Right" && kc.right.users[0].value.token?.reveal(), "s3cret");
  } finally {
    await server.close();
  }
});

Deno.test("a TLS server is reachable over https with its CA and the kubeconfig carries both", async () => {
  const server = await startApiServer({ tls: true, token: "t" });
  const client = Deno.createHttpClient({ caCerts: [server.caCert!] });
  try {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/v1/namespaces`, {
      client,
      headers: { authorization: "Bearer t" },
    });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).items.length, 4);
    await assert.rejects(fetch(`${server.url}/version`), "untrusted without the CA");
    const kc = parseKubeconfig(server.kubeconfig, "kubeconfig");
    assert.equal(kc._tag, "Right");
    assert.ok(server.kubeconfig.includes("certificate-authority-data:"));
    assert.ok(server.kubeconfig.includes(`server: ${server.url}`));
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test({
  name: "kubectl lists namespaces over TLS with the token, and is refused without it",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const server = await startApiServer({ tls: true, token: "s3cret" });
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${dir}/kc`, server.kubeconfig);
      await Deno.writeTextFile(
        `${dir}/kc-bad`,
        server.kubeconfig.replace("token: s3cret", "token: wrong"),
      );
      const run = async (kc: string) => {
        const out = await new Deno.Command("kubectl", {
          args: ["get", "ns", "-o", "name"],
          env: { KUBECONFIG: kc, KUBECACHEDIR: `${dir}/cache`, HOME: dir },
        }).output();
        return {
          code: out.code,
          text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
        };
      };
      const ok = await run(`${dir}/kc`);
      assert.equal(ok.code, 0, ok.text);
      assert.match(ok.text, /namespace\/kube-system/);
      const bad = await run(`${dir}/kc-bad`);
      assert.notEqual(bad.code, 0);
      assert.match(bad.text, /Unauthorized|must be logged in/);
    } finally {
      await server.close();
    }
  },
});
