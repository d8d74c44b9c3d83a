import assert from "node:assert/strict";
import { connect, E, startManager } from "../../../mod.ts";
import { startApiServer, workloadControllers } from "../../../lib/apiserver/mod.ts";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";

const MANIFEST = JSON.stringify({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "default" },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "nginx", image: "nginx:1" }] },
    },
  },
});

Deno.test({
  name: "kubectl apply, rollout status and set image work against the workload controllers",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const server = await startApiServer({
      simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const client = await connect({ kubeconfigYaml: server.kubeconfig });
    if (E.isLeft(client)) throw new Error(client.left.message);
    const manager = await startManager({
      client: client.right,
      controllers: workloadControllers(),
    });
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      await manager.ready;
      const run = async (...args: string[]) => {
        const r = await kubectl.run(args, { stdin: MANIFEST });
        assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      };
      await run("apply", "-f", "-");
      const first = await run("rollout", "status", "deployment/web", "--timeout=15s");
      assert.match(first, /successfully rolled out/);
      await run("set", "image", "deployment/web", "nginx=nginx:2");
      const second = await run("rollout", "status", "deployment/web", "--timeout=15s");
      assert.match(second, /successfully rolled out/);
      // Complete means the old ReplicaSet is scaled to 0 and the new one holds every replica.
      const sizes = await run(
        "get",
        "replicasets",
        "-o",
        'jsonpath={range .items[*]}{.spec.replicas}{" "}{.status.replicas}{"\\n"}{end}',
      );
      assert.deepEqual(sizes.trim().split("\n").sort(), ["0 0", "3 3"]);
      // The imperative form sends a protobuf body.
      await run("create", "deployment", "api", "--image=nginx:1", "--replicas=2", "--port=80");
      const third = await run("rollout", "status", "deployment/api", "--timeout=15s");
      assert.match(third, /successfully rolled out/);
    } finally {
      await kubectl.dispose();
      await manager.stop();
      client.right.close();
      await server.close();
    }
  },
});
