/**
 * What the embedded server cannot do, it says: kubectl's logs, exec, attach and port-forward
 * get a Status naming what is not available and why instead of a bare 404, and a
 * request whose body the server never reads (an unknown route, a 401) still gets its Status
 * over HTTP/2.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";
import { curlAvailable, curlHttp2 } from "./_curl.ts";

const pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web", namespace: "default" },
  spec: { containers: [{ name: "main", image: "nginx:1.27" }] },
};

Deno.test({
  name: "kubectl logs, exec and attach print a Status naming what is not available and why",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const server = await startApiServer({ simulation: { nodes: 1 } });
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      const created = await kubectl.run(["apply", "-f", "-"], { stdin: JSON.stringify(pod) });
      assert.equal(created.code, 0, created.stderr);
      const cases: [string[], RegExp][] = [
        [
          ["logs", "web"],
          /^Error from server \(ServiceUnavailable\): container logs of pod "default\/web" are not available: kubefold's simulated kubelet runs no containers/,
        ],
        [
          ["exec", "web", "--", "ls"],
          /^error: exec in pod "default\/web" is not available: kubefold's simulated kubelet runs no containers/,
        ],
        [
          ["attach", "web"],
          /error: attach to pod "default\/web" is not available: kubefold's simulated kubelet runs no containers/,
        ],
      ];
      for (const [args, message] of cases) {
        const out = await kubectl.run(args);
        assert.notEqual(out.code, 0, `kubectl ${args.join(" ")}`);
        assert.match(out.stderr, message, `kubectl ${args.join(" ")}`);
      }
      const missing = await kubectl.run(["logs", "nope"]);
      assert.match(missing.stderr, /pods "nope" not found/, "a missing pod is still a 404");
      // port-forward: kubectl asks over a WebSocket first and gets the Status; its SPDY
      // fallback then meets Deno's HTTP server, which answers an upgrade request that carries
      // a Content-Length with a bare 400 before any handler runs, so kubectl shows the
      // Status only in its -v=4 log.
      const forward = await kubectl.run(["port-forward", "pod/web", "0:80", "-v=4"]);
      assert.notEqual(forward.code, 0);
      assert.match(
        forward.stderr,
        /port-forward to pod "default\/web" is not available: kubefold's simulated kubelet runs no containers/,
      );
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});

Deno.test("the unavailable endpoints answer 503 Status objects over plain HTTP too", async () => {
  const server = await startApiServer();
  try {
    await (await fetch(`${server.url}/api/v1/namespaces/default/pods`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(pod),
    })).body?.cancel();
    for (const sub of ["log", "exec", "attach", "portforward"]) {
      const res = await fetch(`${server.url}/api/v1/namespaces/default/pods/web/${sub}`, {
        method: sub === "log" ? "GET" : "POST",
      });
      const status = await res.json();
      assert.equal(res.status, 503, sub);
      assert.equal(status.kind, "Status");
      assert.equal(status.reason, "ServiceUnavailable");
      assert.match(status.message, /(is|are) not available: kubefold's simulated kubelet/);
      assert.deepEqual(status.details, { name: "web", kind: "pods" });
    }
    const other = await fetch(`${server.url}/api/v1/namespaces/default/pods/web/nonsense`);
    assert.equal(other.status, 404, "other unknown subresources stay 404");
    await other.body?.cancel();
  } finally {
    await server.close();
  }
});

Deno.test({
  name:
    "a POST with a body the server never reads (unknown route, 401) answers its Status over HTTP/2 (curl)",
  ignore: !curlAvailable(),
  fn: async () => {
    const server = await startApiServer({ tls: true });
    const dir = await Deno.makeTempDir();
    try {
      const token = /token: (\S+)/.exec(server.kubeconfig)![1];
      await Deno.writeTextFile(`${dir}/ca.crt`, server.caCert!);
      await Deno.writeTextFile(`${dir}/body`, "x".repeat(300_000));
      const curl = (path: string, auth: boolean) =>
        curlHttp2(`${dir}/ca.crt`, "%{http_code} %{http_version}", `${server.url}${path}`, [
          "-X",
          "POST",
          ...(auth ? ["-H", `Authorization: Bearer ${token}`] : []),
          "--data-binary",
          `@${dir}/body`,
        ]);
      const answers: string[] = [];
      for (let i = 0; i < 10; i++) {
        answers.push(await curl("/apis/nothing.example.com/v1/things", true));
        answers.push(await curl("/api/v1/namespaces/default/configmaps", false));
      }
      const expected = Array.from({ length: 10 }, () => ["404 2", "401 2"]).flat();
      assert.deepEqual(answers, expected);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
