import assert from "node:assert/strict";
import { connect, E, type KubeObject } from "../../../mod.ts";
import { scaledClock, startCluster } from "../../../lib/cluster/mod.ts";
import { sampleDbController, sampleDbCrd } from "../../../controllers/sampledb/mod.ts";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";

const db = (name: string, version: string) =>
  JSON.stringify({
    apiVersion: "db.example.com/v1alpha1",
    kind: "SampleDB",
    metadata: { name, namespace: "default" },
    spec: { version, storage: { size: "2Gi" }, backup: { schedule: "0 3 * * *" } },
  });

Deno.test({
  name:
    "kubectl get sampledb -o wide shows phase, version, ready replicas, last backup, age and the wide columns",
  ignore: !kubectlAvailable(),
  async fn() {
    const cluster = await startCluster({
      clock: scaledClock({ startMs: Date.parse("2025-01-01T00:00:00Z"), speed: 600 }),
      simulation: { nodes: 1, podStartDelayMs: 0, kubeletDelayMs: 0 },
      crds: [sampleDbCrd as unknown as KubeObject],
      controllers: [sampleDbController()],
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    const c = await connect({ kubeconfigYaml: cluster.kubeconfig });
    if (E.isLeft(c)) throw new Error(c.left.message);
    try {
      const bad = await kubectl.run(["apply", "-f", "-"], { stdin: db("bad", "latest") });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /spec\.version: Invalid value: "latest"/);
      const ok = await kubectl.run(["apply", "-f", "-"], { stdin: db("orders", "16.4") });
      assert.equal(ok.code, 0, ok.stderr);
      const deadline = Date.now() + 15_000;
      let out = "";
      while (Date.now() < deadline) {
        out = (await kubectl.run(["get", "sampledb", "-o", "wide"])).stdout;
        if (/orders\s+Ready/.test(out)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const [header, row] = out.trim().split("\n");
      assert.deepEqual(header.split(/\s{2,}/), [
        "NAME",
        "PHASE",
        "VERSION",
        "READY",
        "LAST BACKUP",
        "AGE",
        "WANTED",
        "REPLICAS",
        "STORAGE",
        "SCHEDULE",
      ]);
      // LAST BACKUP is empty until the first backup at 03:00 (virtual); AGE is virtual too.
      assert.match(row, /^orders\s+Ready\s+16\.4\s+1\s+\S+\s+16\.4\s+1\s+2Gi\s+0 3 \* \* \*$/);
      const short = await kubectl.run([
        "get",
        "sdb",
        "orders",
        "-o",
        'jsonpath={.status.conditions[?(@.type=="Initialized")].status}',
      ]);
      assert.equal(short.stdout, "True");
      const all = await kubectl.run(["get", "all"]);
      assert.match(all.stdout, /sampledb\.db\.example\.com\/orders/);
    } finally {
      c.right.close();
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
