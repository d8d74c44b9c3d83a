import assert from "node:assert/strict";
import { connect, E, startManager } from "../../../mod.ts";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { startCluster, workloadControllers } from "../../../lib/cluster/mod.ts";
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

Deno.test({
  name:
    "kubectl rollout undo brings back the old revision's ReplicaSet (no new one) and describe names it as the new ReplicaSet",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const cluster = await startCluster({
      simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    try {
      const run = async (...args: string[]) => {
        const r = await kubectl.run(args, { stdin: MANIFEST, timeoutMs: 30_000 });
        assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      };
      await run("apply", "-f", "-");
      await run("rollout", "status", "deployment/web", "--timeout=15s");
      const first = (await run("get", "rs", "-o", "name")).trim();
      await run("set", "image", "deployment/web", "nginx=nginx:2");
      await run("rollout", "status", "deployment/web", "--timeout=15s");
      // kubectl sends the old template back with `creationTimestamp: null`.
      await run("rollout", "undo", "deployment/web");
      await run("rollout", "status", "deployment/web", "--timeout=15s");
      const sets = (await run(
        "get",
        "rs",
        "-o",
        'jsonpath={range .items[*]}{.metadata.name}{" "}{.spec.replicas}{" "}{.metadata.annotations.deployment\\.kubernetes\\.io/revision}{"\\n"}{end}',
      )).trim().split("\n").sort();
      assert.equal(sets.length, 2, `no third ReplicaSet: ${sets.join("; ")}`);
      const firstName = first.replace("replicaset.apps/", "");
      assert.ok(sets.includes(`${firstName} 3 3`), `the first ReplicaSet is revision 3: ${sets}`);
      const described = await run("describe", "deployment", "web");
      assert.match(
        described,
        new RegExp(`NewReplicaSet:\\s+${firstName} \\(3/3 replicas created\\)`),
      );
      const history = await run("rollout", "history", "deployment/web");
      assert.match(history, /^2\s+<none>\n3\s+<none>$/m);
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});

Deno.test({
  name:
    "kubectl rollout status sts/x and ds/x work for manifests that leave the update strategy to the server's defaults",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const cluster = await startCluster({
      simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    const template = (app: string) => ({
      metadata: { labels: { app } },
      spec: { containers: [{ name: "main", image: `${app}:1` }] },
    });
    const manifests = [
      {
        apiVersion: "apps/v1",
        kind: "StatefulSet",
        metadata: { name: "db", namespace: "default" },
        spec: {
          replicas: 2,
          serviceName: "db",
          selector: { matchLabels: { app: "db" } },
          template: template("db"),
        },
      },
      {
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        metadata: { name: "agent", namespace: "default" },
        spec: { selector: { matchLabels: { app: "agent" } }, template: template("agent") },
      },
    ].map((m) => JSON.stringify(m)).join("\n");
    try {
      const run = async (...args: string[]) => {
        const r = await kubectl.run(args, { stdin: manifests, timeoutMs: 30_000 });
        assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      };
      await run("apply", "-f", "-");
      assert.match(
        await run("rollout", "status", "sts/db", "--timeout=15s"),
        /partitioned roll out complete: 2 new pods have been updated/,
      );
      assert.match(
        await run("rollout", "status", "ds/agent", "--timeout=15s"),
        /daemon set "agent" successfully rolled out/,
      );
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
