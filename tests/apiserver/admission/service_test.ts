import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import {
  allowed,
  connect,
  denied,
  E,
  type KubeObject,
  serveWebhooks,
  webhookConfigurations,
} from "../../../mod.ts";
import { createKubectl } from "../_kubectl.ts";

const configMaps = { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" };
const hook = {
  type: "validating" as const,
  for: configMaps,
  validate: (req: { object?: KubeObject | null }) =>
    (req.object as { data?: Record<string, string> })?.data?.bad ? denied("bad") : allowed(),
};

Deno.test("webhooks behind a Service are called by the Service's DNS name, the certificate checked against it", async () => {
  const server = await startApiServer();
  const hosts = ["hooks.system.svc", "hooks.system.svc.cluster.local"];
  const webhooks = await serveWebhooks([hook], { port: 0, hostname: "127.0.0.1", hosts });
  const client = (await connect({ kubeconfigYaml: server.kubeconfig }) as E.Right<never>)
    .right as import("../../../mod.ts").Client;
  const kubectl = await createKubectl(server.kubeconfig);
  try {
    const apply = async (o: KubeObject) =>
      assert.ok(E.isRight(await client.apply(o, { fieldManager: "t", force: true })));
    await apply({ apiVersion: "v1", kind: "Namespace", metadata: { name: "system" } });
    // A selector-less Service whose Endpoints are the webhook server on this machine.
    await apply({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "hooks", namespace: "system" },
      spec: { ports: [{ name: "https", port: 443, targetPort: webhooks.port }] },
    });
    for (
      const doc of webhookConfigurations([hook], {
        endpoint: { service: { name: "hooks", namespace: "system" } },
        caCert: webhooks.caCert,
      })
    ) await apply(doc);
    const noEndpoints = await kubectl.run(["create", "configmap", "a", "--from-literal=k=v"]);
    assert.match(
      noEndpoints.stderr,
      /failed to call webhook: Post "https:\/\/hooks\.system\.svc:443\/validate-v1-configmap\?timeout=10s": endpoints for service\/hooks in "system" have no addresses/,
    );
    await apply({
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "hooks", namespace: "system" },
      subsets: [{
        addresses: [{ ip: "127.0.0.1" }],
        ports: [{ name: "https", port: webhooks.port }],
      }],
    });
    assert.equal((await kubectl.run(["create", "configmap", "a", "--from-literal=k=v"])).code, 0);
    const bad = await kubectl.run(["create", "configmap", "b", "--from-literal=bad=v"]);
    assert.match(bad.stderr, /admission webhook "vconfigmap.kubefold.dev" denied the request: bad/);
    // The webhook server stops: the call fails with the address it dialled.
    await webhooks.close();
    const down = await kubectl.run(["create", "configmap", "c", "--from-literal=k=v"]);
    assert.match(
      down.stderr,
      new RegExp(`dial tcp 127.0.0.1:${webhooks.port}: connect: connection refused`),
    );
  } finally {
    await kubectl.dispose();
    client.close();
    await webhooks.close();
    await server.close();
  }
});
