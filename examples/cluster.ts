/**
 * A local cluster for kubectl: the embedded API server with simulated nodes (the same flags as
 * `deno task apiserver`) plus the Deployment and ReplicaSet controllers of
 * `controllers/workloads/`, built with kubefold, so Deployments roll out to Running pods.
 *
 *   deno task cluster --kubeconfig /tmp/kf.yaml   # serve until Ctrl-C
 *   KUBECONFIG=/tmp/kf.yaml kubectl apply -f deploy.yaml && kubectl rollout status deploy/web
 *   deno run -A examples/cluster.ts --demo-only   # roll a Deployment out and back, then exit
 *
 * @module
 */
import { E, startApiServer, startManager } from "../mod.ts";
import { parseCliArgs } from "../lib/apiserver/cli.ts";
import { clientFromKubeconfig } from "../lib/client/connect.ts";
import type { KubeObject } from "../lib/core/object.ts";
import { workloadControllers } from "../controllers/workloads/mod.ts";

const demoOnly = Deno.args.includes("--demo-only");
const parsed = parseCliArgs(Deno.args.filter((a) => a !== "--demo-only"));
if (!parsed.ok) {
  console.error(`cluster: ${parsed.error} (see deno task apiserver --help)`);
  Deno.exit(2);
}
const { args } = parsed;
const t0 = performance.now();
const elapsed = () => `[${((performance.now() - t0) / 1000).toFixed(2)}s]`;
const server = await startApiServer({
  port: args.port,
  hostname: args.host,
  dataDir: args.dataDir,
  token: args.token,
  tls: args.tls,
  simulation: {
    nodes: args.nodes ?? 3,
    ...(demoOnly ? { podStartDelayMs: 20, kubeletDelayMs: 0 } : {}),
  },
});
const connect = async () => {
  const c = await clientFromKubeconfig(server.kubeconfig);
  if (E.isLeft(c)) throw new Error(c.left.message);
  return c.right;
};
const managerClient = await connect();
const manager = await startManager({ client: managerClient, controllers: workloadControllers() });
const client = await connect(); // the demo's own reads and writes (its own rate limit)
await manager.ready;
if (args.kubeconfig) {
  await Deno.writeTextFile(args.kubeconfig, server.kubeconfig, { mode: 0o600 });
}
console.log(`${elapsed()} cluster ready at ${server.url}: ${args.nodes ?? 3} nodes, workloads on`);
if (args.kubeconfig) console.log(`export KUBECONFIG=${args.kubeconfig}`);

const deployments = { apiVersion: "apps/v1", kind: "Deployment" };
const deployment = (image: string): KubeObject => ({
  ...deployments,
  metadata: { name: "web", namespace: "default" },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "web", image }] },
    },
  },
});

/** Polls the server until the Deployment's rollout of `image` is complete (like `kubectl rollout status`). */
async function rolledOut(image: string): Promise<void> {
  for (;;) {
    const d = await client.get<KubeObject>(deployments, "web", { namespace: "default" });
    const pods = await client.list({ apiVersion: "v1", kind: "Pod" }, {
      namespace: "default",
      labelSelector: "app=web",
    });
    if (E.isRight(d) && E.isRight(pods)) {
      const st = d.right.status as Record<string, number> | undefined;
      const images = pods.right.items.map((p) =>
        (p.spec as { containers: { image: string }[] }).containers[0].image
      );
      const done = st?.observedGeneration === d.right.metadata?.generation &&
        st?.updatedReplicas === 3 && st?.availableReplicas === 3 && st?.replicas === 3 &&
        images.length === 3 && images.every((i) => i === image);
      if (done) return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function demo(): Promise<boolean> {
  console.log(`${elapsed()} create Deployment web (3 x nginx:1.27)`);
  const created = await client.create(deployment("nginx:1.27"));
  if (E.isLeft(created)) return console.log(`  x ${created.left.message}`), false;
  await rolledOut("nginx:1.27");
  console.log(`${elapsed()}   ✓ rolled out: 3 pods Running nginx:1.27`);
  console.log(`${elapsed()} set image nginx:1.28 (a rolling update)`);
  const patched = await client.patch(deployments, "web", {
    namespace: "default",
    patch: {
      type: "strategic",
      body: {
        spec: { template: { spec: { containers: [{ name: "web", image: "nginx:1.28" }] } } },
      },
    },
  });
  if (E.isLeft(patched)) return console.log(`  x ${patched.left.message}`), false;
  await rolledOut("nginx:1.28");
  const rs = await client.list({ apiVersion: "apps/v1", kind: "ReplicaSet" }, {
    namespace: "default",
  });
  const sizes = E.isRight(rs)
    ? rs.right.items.map((r) => `${r.metadata?.name}=${(r.spec as { replicas: number }).replicas}`)
    : [];
  console.log(
    `${elapsed()}   ✓ rolled out: 3 pods Running nginx:1.28; ReplicaSets ${sizes.join(", ")}`,
  );
  return true;
}

let code = 0;
if (demoOnly) {
  const ok = await demo();
  console.log(ok ? "cluster demo: rollout and update passed" : "cluster demo: FAILED");
  code = ok ? 0 : 1;
} else {
  console.log("Ctrl-C to stop");
  const { promise, resolve } = Promise.withResolvers<void>();
  for (const s of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(s, () => resolve());
  await promise;
}
await manager.stop();
managerClient.close();
client.close();
await server.close();
Deno.exit(code);
