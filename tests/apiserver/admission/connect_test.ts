import assert from "node:assert/strict";
import { allowed, denied } from "../../../mod.ts";
import { withWebhooks } from "./_fixture.ts";

const pods = { group: "", version: "v1", kind: "Pod", plural: "pods" };

Deno.test("CONNECT: kubectl exec is admitted with PodExecOptions and a denial is shown", async () => {
  const noExec = {
    type: "validating" as const,
    for: pods,
    operations: ["CONNECT" as const],
    resources: ["pods/exec", "pods/attach", "pods/portforward"],
    validate: (req: { object?: unknown }) =>
      (req.object as { command?: string[] })?.command?.includes("rm")
        ? denied("no rm in production")
        : allowed(),
  };
  await withWebhooks([noExec], async (f) => {
    await f.install([noExec]);
    const pod = await f.kubectl.run(["run", "web", "--image=nginx"]);
    assert.equal(pod.code, 0, pod.stderr);
    // kubectl tries WebSockets first and logs that answer at -v=4; its SPDY fallback then gets
    // a bodiless 400 from Deno's HTTP server (it refuses an Upgrade request with a
    // Content-Length: 0, which Go's SPDY dialer sends).
    const r = await f.kubectl.run(["exec", "web", "-v=4", "--", "rm", "-rf", "/"]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /unable to upgrade streaming request: admission webhook "vpod.kubefold.dev" denied the request: no rm in production/,
    );
    const [req] = f.requests;
    assert.equal(req.operation, "CONNECT");
    assert.equal(req.subResource, "exec");
    assert.equal(req.name, "web");
    assert.deepEqual(req.kind, { group: "", version: "v1", kind: "PodExecOptions" });
    assert.deepEqual((req.object as { command: string[] }).command, ["rm", "-rf", "/"]);
    // Admitted, it reaches the embedded cluster, which runs no containers: kubectl prints the
    // Status saying so (from the WebSocket's error channel).
    const ls = await f.kubectl.run(["exec", "web", "-v=4", "--", "ls"]);
    assert.notEqual(ls.code, 0);
    assert.match(ls.stderr, /exec in pod "default\/web" is not available: .* runs no containers/);
  });
});

Deno.test("subresources: status updates and bindings go through the webhooks of their rules", async () => {
  const sub = {
    type: "validating" as const,
    for: pods,
    resources: ["pods/status", "pods/binding"],
    operations: ["CREATE" as const, "UPDATE" as const],
    validate: () => allowed(),
  };
  await withWebhooks([sub], async (f) => {
    await f.install([sub]);
    assert.equal((await f.kubectl.run(["run", "p", "--image=nginx"])).code, 0);
    assert.equal(f.requests.length, 0, "the pod itself does not match pods/status");
    const status = await f.kubectl.run([
      "patch",
      "pod",
      "p",
      "--subresource=status",
      "--type=merge",
      "-p",
      '{"status":{"message":"hi"}}',
    ]);
    assert.equal(status.code, 0, status.stderr);
    // A scheduler's binding (kubectl has no command for it).
    const res = await fetch(`${f.server.url}/api/v1/namespaces/default/pods/p/binding`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: "p" },
        target: { kind: "Node", name: "node-1" },
      }),
    });
    await res.body?.cancel();
    assert.deepEqual(f.requests.map((r) => `${r.operation} ${r.subResource} ${r.kind.kind}`), [
      "UPDATE status Pod",
      "CREATE binding Binding",
    ]);
  });
});
