/**
 * A local cluster for kubectl: `startCluster()` — the embedded API server with simulated nodes
 * (the same flags as `deno task apiserver`), ServiceAccounts and RBAC, plus the controllers of
 * `controllers/workloads/` and `controllers/storage/` built with kubefold: Deployments,
 * ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, ReplicationControllers, Services'
 * endpoints, PodDisruptionBudgets, and volumes provisioned for claims by the default
 * `standard` StorageClass.
 *
 *   deno task cluster --kubeconfig /tmp/kf.yaml   # serve until Ctrl-C
 *   KUBECONFIG=/tmp/kf.yaml kubectl apply -f deploy.yaml && kubectl rollout status deploy/web
 *   deno run -A examples/cluster.ts --demo-only   # run the tour below, then exit (0: all passed)
 *
 * The tour runs on a virtual clock 600 times faster than wall time, so its CronJob fires
 * within a second of real time.
 *
 * @module
 */
import { connect, E, type KubeObject } from "../mod.ts";
import { repairDataDir } from "../lib/apiserver/mod.ts";
import { scaledClock, startCluster } from "../lib/cluster/mod.ts";
import { cliFlagsHelp, parseCliArgs } from "../lib/apiserver/cli.ts";

const usage = `usage: deno task cluster [--demo-only] [--port N] [--host ADDR] [--kubeconfig PATH]
                           [--data-dir DIR [--repair-wal OFFSET|snapshot]]
                           [--tls [--token TOKEN]] [--nodes N]

Runs the embedded API server with the workload controllers, for kubectl.
  --demo-only        tour a rollout, a Service, a StatefulSet, Jobs and a CronJob on a
                     virtual clock, then exit (0: every step passed)
${cliFlagsHelp}`;
const demoOnly = Deno.args.includes("--demo-only");
const parsed = parseCliArgs(Deno.args.filter((a) => a !== "--demo-only"));
if (!parsed.ok) {
  console.error(`cluster: ${parsed.error}\n\n${usage}`);
  Deno.exit(2);
}
if (parsed.args.help) {
  console.log(usage);
  Deno.exit(0);
}
const { args } = parsed;
if (args.repairWal && args.dataDir) {
  const repaired = repairDataDir(args.dataDir, args.repairWal);
  if (repaired._tag === "Left") {
    console.error(`cluster: ${repaired.left.message}`);
    Deno.exit(1);
  }
  console.error(`cluster: ${repaired.right}`);
}
const t0 = performance.now();
const elapsed = () => `[${((performance.now() - t0) / 1000).toFixed(2)}s]`;
const clock = demoOnly
  ? scaledClock({ startMs: Date.parse("2025-01-01T00:00:00Z"), speed: 600 })
  : undefined;
const cluster = await startCluster({
  port: args.port,
  hostname: args.host,
  dataDir: args.dataDir,
  token: args.token,
  tls: args.tls,
  simulation: { nodes: args.nodes ?? 3, ...(args.runImages ? { runImages: args.runImages } : {}) },
  ...(clock ? { clock } : {}),
}).catch((e) => {
  console.error(`cluster: ${e instanceof Error ? e.message : String(e)}`); // e.g. a taken port
  Deno.exit(1);
});
const connected = await connect({ kubeconfigYaml: cluster.kubeconfig });
if (E.isLeft(connected)) {
  console.error(`cluster: ${connected.left.message}`);
  await cluster.close();
  Deno.exit(1);
}
const client = connected.right; // the demo's own reads and writes (its own rate limit)
if (args.kubeconfig) {
  await Deno.writeTextFile(args.kubeconfig, cluster.kubeconfig, { mode: 0o600 });
}
console.log(
  `${elapsed()} cluster ready at ${cluster.server.url}: ${args.nodes ?? 3} nodes, workloads on`,
);
if (args.kubeconfig) console.log(`export KUBECONFIG=${args.kubeconfig}`);

type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
const ns = { namespace: "default" };
const get = async (apiVersion: string, kind: string, name: string) => {
  const r = await client.get<Obj>({ apiVersion, kind }, name, ns);
  return E.isRight(r) ? r.right : undefined;
};
const list = async (apiVersion: string, kind: string, labelSelector?: string) => {
  const r = await client.list<Obj>({ apiVersion, kind }, { ...ns, labelSelector });
  return E.isRight(r) ? [...r.right.items] : [];
};
const create = async (obj: Obj) => {
  const r = await client.create<Obj>({ ...obj, metadata: { ...ns, ...obj.metadata } });
  if (E.isLeft(r)) throw new Error(`create ${obj.kind} ${obj.metadata?.name}: ${r.left.message}`);
};
const patch = async (apiVersion: string, kind: string, name: string, body: unknown) => {
  const r = await client.patch({ apiVersion, kind }, name, {
    ...ns,
    patch: { type: "strategic", body },
  });
  if (E.isLeft(r)) throw new Error(`patch ${kind} ${name}: ${r.left.message}`);
};
/** Polls until `check` returns a description (a person reads it), or fails after 20 s. */
async function waitFor(what: string, check: () => Promise<string | undefined>): Promise<string> {
  const deadline = performance.now() + 20_000;
  for (;;) {
    const done = await check();
    if (done !== undefined) return done;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const step = (text: string) => console.log(`${elapsed()} ${text}`);
const ok = (text: string) => console.log(`${elapsed()}   ✓ ${text}`);
const podsOf = async (selector: string) =>
  (await list("v1", "Pod", selector)).filter((p) =>
    p.status?.phase === "Running" && !p.metadata?.deletionTimestamp
  );
const container = (image: string) => ({ name: "main", image, ports: [{ containerPort: 80 }] });

async function deployment(): Promise<void> {
  const web = (image: string): Obj => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web" },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [container(image)] } },
    },
  });
  const rolledOut = (image: string) =>
    waitFor(`web on ${image}`, async () => {
      const d = await get("apps/v1", "Deployment", "web");
      const pods = await podsOf("app=web");
      const st = d?.status as Record<string, number> | undefined;
      const images = pods.map((p) =>
        (p.spec as { containers: { image: string }[] }).containers[0].image
      );
      return st?.observedGeneration === d?.metadata?.generation && st?.updatedReplicas === 3 &&
          st?.availableReplicas === 3 && st?.replicas === 3 && images.length === 3 &&
          images.every((i) => i === image)
        ? `3 pods Running ${image}`
        : undefined;
    });
  step("create Deployment web (3 x nginx:1.27)");
  await create(web("nginx:1.27"));
  ok(`rolled out: ${await rolledOut("nginx:1.27")}`);
  step("set image nginx:1.28 (a rolling update)");
  await patch("apps/v1", "Deployment", "web", {
    spec: { template: { spec: { containers: [{ name: "main", image: "nginx:1.28" }] } } },
  });
  const done = await rolledOut("nginx:1.28");
  const sizes = (await list("apps/v1", "ReplicaSet")).map((r) =>
    `${r.metadata?.name}=${r.spec?.replicas}`
  );
  ok(`rolled out: ${done}; ReplicaSets ${sizes.join(", ")}`);
}

async function service(): Promise<void> {
  step("create Service web (port 80 -> the Deployment's pods)");
  await create({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web" },
    spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 80 }] },
  });
  const eps = await waitFor("endpoints of web", async () => {
    const slices = await list(
      "discovery.k8s.io/v1",
      "EndpointSlice",
      "kubernetes.io/service-name=web",
    );
    const ready = slices.flatMap((s) =>
      (s.endpoints ?? []) as { addresses: string[]; conditions?: { ready?: boolean } }[]
    )
      .filter((e) => e.conditions?.ready).map((e) => `${e.addresses[0]}:80`);
    return ready.length === 3 ? ready.sort().join(", ") : undefined;
  });
  ok(`Service web has endpoints ${eps}`);
}

async function statefulSet(): Promise<void> {
  step("create StatefulSet db (3 replicas, a 1Gi volume claim each)");
  await create({
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db" },
    spec: {
      replicas: 3,
      serviceName: "db",
      selector: { matchLabels: { app: "db" } },
      template: {
        metadata: { labels: { app: "db" } },
        spec: { containers: [container("postgres:17")] },
      },
      volumeClaimTemplates: [{
        metadata: { name: "data" },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      }],
    },
  });
  const ready = (n: number) => async () => {
    const s = await get("apps/v1", "StatefulSet", "db");
    const pods = await podsOf("app=db");
    return s?.status?.readyReplicas === n && pods.length === n
      ? pods.map((p) => p.metadata?.name).sort().join(", ")
      : undefined;
  };
  const pods = await waitFor("3 ready db pods", ready(3));
  const claims = (await list("v1", "PersistentVolumeClaim")).sort((a, b) =>
    String(a.metadata?.name).localeCompare(String(b.metadata?.name))
  );
  ok(
    `pods ${pods} Running, started in order; claims ${
      claims.map((c) => c.metadata?.name).join(", ")
    }`,
  );
  const bound = claims.filter((c) => c.status?.phase === "Bound" && c.spec?.volumeName);
  const nodes = new Set(
    bound.map((c) => c.metadata?.annotations?.["volume.kubernetes.io/selected-node"]),
  );
  ok(
    `${bound.length} claims Bound to volumes the standard class provisioned on ${nodes.size} nodes (WaitForFirstConsumer)`,
  );
  step("scale db to 1 (the highest ordinals go first; claims stay)");
  await patch("apps/v1", "StatefulSet", "db", { spec: { replicas: 1 } });
  const left = await waitFor("1 ready db pod", ready(1));
  const kept = (await list("v1", "PersistentVolumeClaim")).length;
  ok(`pods ${left}; ${kept} claims kept`);
}

async function jobs(): Promise<void> {
  step("create Job pi (3 completions, 2 at a time) and Job flaky (fails once, then succeeds)");
  const job = (name: string, spec: Record<string, unknown>, annotations = {}): Obj => ({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name },
    spec: {
      ...spec,
      template: {
        metadata: { annotations },
        spec: { restartPolicy: "OnFailure", containers: [{ name: "main", image: "perl:5.40" }] },
      },
    },
  });
  await create(job("pi", { completions: 3, parallelism: 2 }));
  await create(job("flaky", {}, { "simulation.kubefold.dev/exit-code": "1,0" }));
  for (const name of ["pi", "flaky"]) {
    const text = await waitFor(`Job ${name} Complete`, async () => {
      const j = await get("batch/v1", "Job", name);
      const conds = (j?.status?.conditions ?? []) as { type: string; status: string }[];
      return conds.some((c) => c.type === "Complete" && c.status === "True")
        ? `Job ${name} Complete: ${j?.status?.succeeded}/${j?.spec?.completions} succeeded`
        : undefined;
    });
    const restarts = (await list("v1", "Pod", `batch.kubernetes.io/job-name=${name}`))
      .flatMap((p) => (p.status?.containerStatuses ?? []) as { restartCount: number }[])
      .reduce((n, c) => n + c.restartCount, 0);
    ok(`${text}${restarts ? ` (after ${restarts} container restart)` : ""}`);
  }
}

async function cronJob(): Promise<void> {
  step("create CronJob tick (*/5 * * * *), virtual clock at 600x");
  await create({
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "tick" },
    spec: {
      schedule: "*/5 * * * *",
      jobTemplate: {
        spec: {
          template: {
            spec: { restartPolicy: "Never", containers: [{ name: "main", image: "busybox" }] },
          },
        },
      },
    },
  });
  const fired = await waitFor("CronJob tick to run", async () => {
    const cj = await get("batch/v1", "CronJob", "tick");
    const at = cj?.status?.lastSuccessfulTime;
    return at
      ? `fired at ${cj?.status?.lastScheduleTime} (virtual), its Job Complete at ${at}`
      : undefined;
  });
  ok(`CronJob tick ${fired}`);
}

let code = 0;
if (demoOnly) {
  try {
    for (const part of [deployment, service, statefulSet, jobs, cronJob]) await part();
    console.log("cluster demo: rollout, update, service, statefulset, jobs and cronjob passed");
  } catch (e) {
    console.log(`${elapsed()}   ✗ ${e instanceof Error ? e.message : String(e)}`);
    console.log("cluster demo: FAILED");
    code = 1;
  }
} else {
  console.log("Ctrl-C to stop");
  const { promise, resolve } = Promise.withResolvers<void>();
  for (const s of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(s, () => resolve());
  await promise;
}
client.close();
await cluster.close();
Deno.exit(code);
