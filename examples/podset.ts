/**
 * The whole kubefold story: an embedded API server with simulated nodes, the PodSet CRD, a
 * manager running the PodSet controller, and a scripted scenario with readable progress.
 *
 *   deno run -A examples/podset.ts                  # play the story, then keep serving for kubectl
 *   deno run -A examples/podset.ts --demo-only      # play the story and exit (0 = every step passed)
 *   deno run -A examples/podset.ts --kubeconfig ~/.kube/config [--context NAME]   # a real cluster
 *   deno run -A examples/podset.ts --verbose        # also print the controller's JSON-lines logs
 *
 * @module
 */
import { filter, firstValueFrom, map, merge, timer } from "../lib/deps.ts";
import {
  type Client,
  connect,
  createInformers,
  E,
  jsonLogger,
  type KubeObject,
  type Logger,
  silentLogger,
  startManager,
} from "../mod.ts";
import { startApiServer } from "../lib/apiserver/mod.ts";
import { type PodSet, podSetController, podSetCrd } from "../controllers/podset/mod.ts";

const args = Deno.args;
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const demoOnly = args.includes("--demo-only");
const verbose = args.includes("--verbose");
const kubeconfigPath = flag("--kubeconfig");
const context = flag("--context");
const namespace = flag("--namespace") ?? "default";
const stepTimeoutMs = Number(flag("--step-timeout-ms") ?? 20_000);

const t0 = performance.now();
const say = (text: string) =>
  console.log(`[${((performance.now() - t0) / 1000).toFixed(2)}s] ${text}`);
const fail = (text: string): never => {
  throw new Error(text);
};

// 1. A cluster: the embedded API server (default) or a real one (explicit flags only).
let client: Client;
let close = async () => {};
let kubeconfigFile: string | undefined;
if (kubeconfigPath) {
  const c = await connect({ kubeconfig: kubeconfigPath, ...(context ? { context } : {}) });
  if (E.isLeft(c)) fail(`Cannot load ${kubeconfigPath}: ${c.left.message}`);
  client = (c as E.Right<Client>).right;
  say(`using the cluster of ${kubeconfigPath}${context ? ` (context ${context})` : ""}`);
} else {
  const server = await startApiServer({ simulation: { nodes: 3 } });
  kubeconfigFile = await Deno.makeTempFile({ prefix: "kubefold-", suffix: ".yaml" });
  await Deno.writeTextFile(kubeconfigFile, server.kubeconfig, { mode: 0o600 });
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) fail(`Cannot use the embedded server's kubeconfig: ${c.left.message}`);
  client = (c as E.Right<Client>).right;
  close = () => server.close();
  say(`embedded API server with 3 simulated nodes at ${server.url}`);
}
const logger: Logger = verbose ? jsonLogger() : silentLogger;

// 2. The CRD, generated from the TypeScript definition.
const crd = await client.apply(podSetCrd as unknown as KubeObject, {
  fieldManager: "kubefold-example",
  force: true,
});
if (E.isLeft(crd)) fail(`Cannot install the PodSet CRD: ${crd.left.message}`);
say("installed CRD podsets.app.example.com");

// 3. The manager with the PodSet controller.
const manager = await startManager({
  client,
  controllers: [podSetController],
  logger,
  healthPort: 0,
});
await manager.ready;
say(`manager ready (health and metrics at ${manager.healthUrl}/metrics)`);

// Observation: our own informers, to wait for the cluster to reach each step's state.
const watch = createInformers(client);
const podsInf = watch.informer({ apiVersion: "v1", kind: "Pod" }, { namespace });
const psInf = watch.informer<PodSet & KubeObject>({
  apiVersion: "app.example.com/v1alpha1",
  kind: "PodSet",
}, {
  namespace,
});
const changes$ = merge(podsInf.deltas$, psInf.deltas$);
const keepAlive = changes$.subscribe();
type Pod = KubeObject & { status?: { phase?: string }; spec?: { nodeName?: string } };
const ownedPods = (uid: string) =>
  (podsInf.store.list() as readonly Pod[]).filter((p) =>
    !p.metadata?.deletionTimestamp &&
    p.metadata?.ownerReferences?.some((r) => r.uid === uid && r.controller)
  );
const running = (uid: string) => ownedPods(uid).filter((p) => p.status?.phase === "Running");

async function until(what: string, check: () => boolean): Promise<void> {
  const started = performance.now();
  if (!check()) {
    const ok = await firstValueFrom(
      merge(
        changes$.pipe(map(() => check()), filter((x) => x)),
        timer(stepTimeoutMs).pipe(map(() => false)),
      ),
    );
    if (!ok) fail(`timed out after ${stepTimeoutMs} ms waiting until ${what}`);
  }
  say(`  ✓ ${what} (${Math.round(performance.now() - started)} ms)`);
}

const demo = (replicas: number) => ({
  apiVersion: "app.example.com/v1alpha1",
  kind: "PodSet",
  metadata: { name: "demo", namespace },
  spec: {
    replicas,
    selector: { matchLabels: { app: "demo" } },
    template: {
      metadata: { labels: { app: "demo" } },
      spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
    },
  },
});
const status = () => (psInf.store.get(`${namespace}/demo`) as PodSet | undefined)?.status;

let failed = false;
try {
  await watch.informer({ apiVersion: "v1", kind: "Pod" }, { namespace }).hasSynced();
  say("step 1: create PodSet demo with 3 replicas");
  const created = await client.create(demo(3) as KubeObject);
  if (E.isLeft(created)) fail(`Cannot create PodSet demo: ${created.left.message}`);
  const uid = (created as E.Right<KubeObject>).right.metadata!.uid!;
  await until("3 pods Running", () => running(uid).length === 3 && ownedPods(uid).length === 3);
  await until("status reports 3/3 ready", () => status()?.readyReplicas === 3);

  say("step 2: scale demo to 5 (PATCH .../scale)");
  const scaled = await client.patch(
    { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" },
    "demo",
    {
      namespace,
      subresource: "scale",
      patch: { type: "merge", body: { spec: { replicas: 5 } } },
    },
  );
  if (E.isLeft(scaled)) fail(`Cannot scale: ${scaled.left.message}`);
  await until("5 pods Running", () => running(uid).length === 5 && ownedPods(uid).length === 5);

  const victim = running(uid)[0].metadata!.name!;
  say(`step 3: delete pod ${victim}`);
  const del = await client.delete({ apiVersion: "v1", kind: "Pod" }, victim, { namespace });
  if (E.isLeft(del)) fail(`Cannot delete ${victim}: ${del.left.message}`);
  await until(
    `${victim} replaced: 5 pods Running`,
    () => running(uid).length === 5 && !running(uid).some((p) => p.metadata?.name === victim),
  );

  say("step 4: scale demo to 1");
  const down = await client.patch(
    { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" },
    "demo",
    {
      namespace,
      patch: { type: "merge", body: { spec: { replicas: 1 } } },
    },
  );
  if (E.isLeft(down)) fail(`Cannot scale down: ${down.left.message}`);
  await until("1 pod left", () => ownedPods(uid).length === 1 && running(uid).length === 1);
  await until(
    "status reports 1/1 ready",
    () => status()?.replicas === 1 && status()?.readyReplicas === 1,
  );

  say("step 5: delete PodSet demo");
  const gone = await client.delete(
    { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" },
    "demo",
    { namespace },
  );
  if (E.isLeft(gone)) fail(`Cannot delete PodSet demo: ${gone.left.message}`);
  await until(
    "its pods are garbage-collected",
    () =>
      (podsInf.store.list() as readonly Pod[]).every((p) =>
        !p.metadata?.ownerReferences?.some((r) => r.uid === uid)
      ),
  );
} catch (e) {
  failed = true;
  say(`✗ ${(e as Error).message}`);
}

const reconciles =
  /controller_runtime_reconcile_total\{controller="podset",result="success"\} (\d+)/
    .exec(manager.metricsText())?.[1] ?? "0";
if (demoOnly || failed) {
  keepAlive.unsubscribe();
  await manager.stop();
  client.close();
  await close();
  if (kubeconfigFile) await Deno.remove(kubeconfigFile).catch(() => {});
  console.log(
    failed
      ? "podset demo: FAILED"
      : `podset demo: all 5 steps passed in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      }s (${reconciles} reconciles with writes)`,
  );
  Deno.exit(failed ? 1 : 0);
}
// Listen for Ctrl-C / SIGTERM before saying so.
const { promise, resolve } = Promise.withResolvers<void>();
Deno.addSignalListener("SIGINT", () => resolve());
Deno.addSignalListener("SIGTERM", () => resolve());
say("story done; the controller keeps running.");
if (kubeconfigFile) {
  console.log(
    `\nTry it with kubectl:\n  export KUBECONFIG=${kubeconfigFile}\n  kubectl apply -f - <<'YAML'`,
  );
  console.log(JSON.stringify(demo(2), null, 2));
  console.log("YAML\n  kubectl get podsets,pods -o wide\n\nCtrl-C to stop.");
}
await promise;
keepAlive.unsubscribe();
await manager.stop();
client.close();
await close();
if (kubeconfigFile) await Deno.remove(kubeconfigFile).catch(() => {});
Deno.exit(0);
