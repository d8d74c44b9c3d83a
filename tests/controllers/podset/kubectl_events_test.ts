/**
 * The events a user expects, seen with the real kubectl: `kubectl events --for podset/demo`
 * lists the PodSet controller's SuccessfulCreate events.
 */
import assert from "node:assert/strict";
import { connect, E, startManager } from "../../../mod.ts";
import { filter, firstValueFrom } from "../../../lib/deps.ts";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { podSetController, podSetCrd } from "../../../controllers/podset/mod.ts";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";

Deno.test({
  name: "kubectl events --for podset/demo shows the controller's SuccessfulCreate events",
  ignore: !kubectlAvailable(),
}, async () => {
  const server = await startApiServer();
  const made = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(made)) throw new Error(made.left.message);
  const client = made.right;
  const kubectl = await createKubectl(server.kubeconfig);
  try {
    await client.create(podSetCrd);
    const manager = await startManager({ client, controllers: [podSetController] });
    const created = firstValueFrom(manager.records$.pipe(filter((r) => r.ops >= 3)));
    await client.create({
      apiVersion: "app.example.com/v1alpha1",
      kind: "PodSet",
      metadata: { namespace: "default", name: "demo" },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "demo" } },
        template: {
          metadata: { labels: { app: "demo" } },
          spec: { containers: [{ name: "web", image: "nginx" }] },
        },
      },
    });
    await created; // the applier records its events before the reconcile's record
    const out = await kubectl.run(["events", "--for", "podset/demo", "-n", "default"]);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split("\n").filter((l) => l.includes("SuccessfulCreate"));
    assert.equal(lines.length, 3, out.stdout);
    assert.match(lines[0], /Normal\s+SuccessfulCreate\s+PodSet\/demo\s+Created Pod: demo-/);
    await manager.stop();
  } finally {
    await kubectl.dispose();
    client.close();
    await server.close();
  }
});
