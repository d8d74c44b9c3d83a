import assert from "node:assert/strict";
import { E, silentLogger } from "../../mod.ts";
import {
  defineOperator,
  parseBindAddress,
  parseManagerFlags,
  runOperator,
} from "../../lib/operator/mod.ts";
import { podSetController, podSetCrd } from "../../controllers/podset/mod.ts";

Deno.test("parseManagerFlags(): the cluster is explicit (kubeconfig, in-cluster, or embedded), bind addresses parsed, errors named", () => {
  const embedded = parseManagerFlags([]);
  assert.ok(E.isRight(embedded));
  assert.deepEqual(embedded.right.cluster, { type: "embedded", nodes: 3 });
  assert.deepEqual(embedded.right.health, { hostname: "127.0.0.1", port: 0 });
  const pod = parseManagerFlags([
    "--in-cluster",
    "--leader-elect",
    "--health-probe-bind-address=127.245.1.2:8081",
    "--metrics-bind-address=:8080",
  ]);
  assert.ok(E.isRight(pod));
  assert.equal(pod.right.cluster.type, "inCluster");
  assert.equal(pod.right.leaderElect, true);
  assert.deepEqual(pod.right.health, { hostname: "127.245.1.2", port: 8081 });
  assert.deepEqual(pod.right.metrics, { hostname: "0.0.0.0", port: 8080 });
  assert.deepEqual(pod.right.webhook, {
    bind: { hostname: "0.0.0.0", port: 9443 },
    certDir: "/tmp/k8s-webhook-server/serving-certs",
  }, "in a pod: controller-runtime's port and the mounted Secret");
  assert.deepEqual(embedded.right.webhook, { bind: { hostname: "127.0.0.1", port: 0 } });
  const local = parseManagerFlags([
    "--webhook-bind-address=0.0.0.0:9443",
    "--webhook-cert-dir=/certs",
    "--webhook-host=192.168.1.20",
  ]);
  assert.ok(E.isRight(local));
  assert.deepEqual(local.right.webhook, {
    bind: { hostname: "0.0.0.0", port: 9443 },
    certDir: "/certs",
    host: "192.168.1.20",
  });
  assert.ok(E.isLeft(parseManagerFlags(["--webhook-bind-address=9443"])));
  const kc = parseManagerFlags(["--kubeconfig", "/tmp/k", "--context", "c"]);
  assert.ok(E.isRight(kc));
  assert.deepEqual(kc.right.cluster, { type: "kubeconfig", path: "/tmp/k", context: "c" });
  assert.deepEqual(parseManagerFlags(["--kubeconfig", "k", "--in-cluster"]), {
    _tag: "Left",
    left: "Cannot use both --kubeconfig and --in-cluster: choose one cluster",
  });
  assert.match((parseManagerFlags(["--nodes=-1"]) as { left: string }).left, /--nodes -1/);
  assert.match(
    (parseManagerFlags(["--bogus"]) as { left: string }).left,
    /Unknown option '--bogus'/,
  );
  assert.ok(E.isLeft(parseBindAddress("8081")));
  assert.deepEqual(parseBindAddress("[::1]:9"), {
    _tag: "Right",
    right: { hostname: "::1", port: 9 },
  });
});

Deno.test("runOperator() with no cluster flag starts an embedded cluster with the operator's CRDs, runs the manager, stops on abort with 0", async () => {
  const abort = new AbortController();
  const op = defineOperator({
    name: "podset-operator",
    image: "example.com/podset-operator:0.1.0",
    crds: [podSetCrd],
    controllers: [podSetController],
  });
  let info: { healthUrl?: string; kubeconfig?: string } = {};
  const code = runOperator(op, {
    args: ["--nodes", "1"],
    logger: silentLogger,
    signal: abort.signal,
    onReady: (i) => {
      info = i;
      abort.abort();
    },
  });
  assert.equal(await code, 0);
  assert.match(info.healthUrl ?? "", /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(await Deno.readTextFile(info.kubeconfig!), /server: http:\/\/127\.0\.0\.1/);
  await Deno.remove(info.kubeconfig!);
  assert.equal(await runOperator(op, { args: ["--help"], logger: silentLogger }), 2);
});
