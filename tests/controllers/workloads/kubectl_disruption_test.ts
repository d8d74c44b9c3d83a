/**
 * PodDisruptionBudgets on the embedded cluster through the real kubectl: the disruption
 * controller keeps their status, `kubectl drain` evicts through the `pods/eviction`
 * subresource, which refuses what the budget does not allow.
 */
import assert from "node:assert/strict";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";
import { startCluster } from "../../../lib/cluster/mod.ts";

const manifests = (minAvailable: number) =>
  [
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "default" },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            containers: [{ name: "web", image: "nginx:1" }],
            // One pod per node, so a drain of one node evicts one pod.
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [{
                  labelSelector: { matchLabels: { app: "web" } },
                  topologyKey: "kubernetes.io/hostname",
                }],
              },
            },
          },
        },
      },
    },
    {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: "web", namespace: "default" },
      spec: { minAvailable, selector: { matchLabels: { app: "web" } } },
    },
  ].map((o) => JSON.stringify(o)).join("\n");

Deno.test({
  name:
    "kubectl drain evicts through the PodDisruptionBudget: refused while it allows nothing, done once it does",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const cluster = await startCluster({
      simulation: { nodes: 3, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    const run = (args: string[], stdin?: string) => kubectl.run(args, { stdin, timeoutMs: 30_000 });
    const ok = async (args: string[], stdin?: string) => {
      const r = await run(args, stdin);
      assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    try {
      await ok(["apply", "-f", "-"], manifests(3));
      await ok(["rollout", "status", "deploy/web", "--timeout=20s"]);
      await ok(["wait", "--for=jsonpath={.status.currentHealthy}=3", "pdb/web", "--timeout=20s"]);
      assert.match(await ok(["get", "pdb", "web"]), /web\s+3\s+N\/A\s+0\s/);
      const node =
        (await ok(["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].spec.nodeName}"]))
          .trim();

      const refused = await run(["drain", node, "--pod-selector=app=web", "--timeout=2s"]);
      assert.notEqual(refused.code, 0);
      assert.match(
        refused.stderr + refused.stdout,
        /Cannot evict pod as it would violate the pod's disruption budget/,
      );
      assert.match(
        await ok(["get", "node", node]),
        /SchedulingDisabled/,
        "drain cordoned the node",
      );

      await ok(["apply", "-f", "-"], manifests(2));
      await ok([
        "wait",
        "--for=jsonpath={.status.disruptionsAllowed}=1",
        "pdb/web",
        "--timeout=20s",
      ]);
      const drained = await ok(["drain", node, "--pod-selector=app=web", "--timeout=20s"]);
      assert.match(drained, /evicted/);
      assert.match(drained, /drained/);
      const onNode = await ok([
        "get",
        "pods",
        "-l",
        "app=web",
        "--field-selector",
        `spec.nodeName=${node}`,
        "-o",
        "name",
      ]);
      assert.equal(onNode.trim(), "");
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
