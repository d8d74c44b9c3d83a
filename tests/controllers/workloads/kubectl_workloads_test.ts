import assert from "node:assert/strict";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";
import { startCluster } from "../../../lib/cluster/mod.ts";

const yaml = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join("\n");
const container = (image: string) => ({
  name: "main",
  image,
  ports: [{ name: "http", containerPort: 8080 }],
});

const statefulSet = (image: string) => ({
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name: "db", namespace: "default" },
  spec: {
    replicas: 2,
    serviceName: "db",
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
    selector: { matchLabels: { app: "db" } },
    template: { metadata: { labels: { app: "db" } }, spec: { containers: [container(image)] } },
    volumeClaimTemplates: [{
      metadata: { name: "data" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    }],
  },
});

const daemonSet = {
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name: "agent", namespace: "default" },
  spec: {
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1 } },
    selector: { matchLabels: { app: "agent" } },
    template: {
      metadata: { labels: { app: "agent" } },
      spec: { containers: [container("agent:1")] },
    },
  },
};

const webRc = {
  apiVersion: "v1",
  kind: "ReplicationController",
  metadata: { name: "web", namespace: "default" },
  spec: {
    replicas: 2,
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [container("nginx:1")] },
    },
  },
};

const webSvc = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", namespace: "default" },
  spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http" }] },
};

/** A Service with an unnamed port (kubectl describe reads slice port names unchecked). */
const plainSvc = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "plain", namespace: "default" },
  spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }] },
};

Deno.test({
  name:
    "kubectl rollout status sts/ds, create job + wait, describe svc endpoints and scale rc work on the cluster",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const cluster = await startCluster({
      simulation: { nodes: 3, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    try {
      const run = async (args: string[], stdin?: string) => {
        const r = await kubectl.run(args, { stdin, timeoutMs: 30_000 });
        assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      };
      await run(
        ["apply", "-f", "-"],
        yaml(statefulSet("pg:1"), daemonSet, webRc, webSvc, plainSvc),
      );

      const sts = await run(["rollout", "status", "sts/db", "--timeout=20s"]);
      assert.match(
        sts,
        /partitioned roll out complete: 2 new pods have been updated|rolling update complete 2 pods at revision db-/,
      );
      await run(["apply", "-f", "-"], yaml(statefulSet("pg:2")));
      const update = await run(["rollout", "status", "sts/db", "--timeout=20s"]);
      assert.match(
        update,
        /rolling update complete 2 pods at revision db-|partitioned roll out complete/,
      );
      const images = await run([
        "get",
        "pods",
        "-l",
        "app=db",
        "-o",
        "jsonpath={.items[*].spec.containers[0].image}",
      ]);
      assert.deepEqual(images.split(" "), ["pg:2", "pg:2"]);
      assert.match(await run(["get", "pvc"]), /data-db-0[\s\S]*data-db-1/);

      const ds = await run(["rollout", "status", "ds/agent", "--timeout=20s"]);
      assert.match(ds, /daemon set "agent" successfully rolled out/);
      const dsRow = await run(["get", "ds", "agent"]);
      assert.match(dsRow, /agent\s+3\s+3\s+3\s+3\s+3\s+<none>/);

      await run(["create", "job", "pi", "--image=perl:5.40", "--", "perl", "-e", "print 1"]);
      await run(["wait", "--for=condition=complete", "job/pi", "--timeout=20s"]);
      assert.match(await run(["get", "jobs"]), /pi\s+Complete\s+1\/1/);

      await run(["wait", "--for=jsonpath={.status.readyReplicas}=2", "rc/web", "--timeout=20s"]);
      const ips =
        (await run(["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].status.podIP}"]))
          .split(" ").sort();
      await run([
        "wait",
        "--for=jsonpath={.subsets[0].addresses[1].ip}",
        "endpoints/web",
        "--timeout=20s",
      ]);
      const described = await run(["describe", "svc", "web"]);
      const line = /Endpoints:\s+(.*)/.exec(described)?.[1] ?? "";
      assert.deepEqual(line.split(",").sort(), ips.map((ip) => `${ip}:8080`));
      assert.match(await run(["get", "endpointslices"]), /web-\w+\s+IPv4\s+8080/);
      const plain = await run(["describe", "svc", "plain"]);
      const plainLine = /Endpoints:\s+(.*)/.exec(plain)?.[1] ?? "";
      assert.deepEqual(plainLine.split(",").sort(), ips.map((ip) => `${ip}:8080`));
      await run(["scale", "rc", "web", "--replicas=3"]);
      await run(["wait", "--for=jsonpath={.status.readyReplicas}=3", "rc/web", "--timeout=20s"]);
      assert.match(await run(["get", "rc", "web"]), /web\s+3\s+3\s+3/);
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
