/**
 * The whole kubefold story: an embedded API server with simulated nodes, the PodSet CRD, a
 * manager running the PodSet controller, and a scripted scenario with readable progress.
 *
 *   deno run -A examples/podset.ts                  # play the story, then keep serving for kubectl
 *   deno run -A examples/podset.ts --demo-only      # play the story and exit (0 = every step passed)
 *   deno run -A examples/podset.ts --kubeconfig ~/.kube/config [--context NAME]   # a real cluster
 *   deno run -A examples/podset.ts --verbose        # also print the controller's JSON-lines logs
 *   deno run -A examples/podset.ts --help           # all flags
 *
 * @module
 */
import { filter, firstValueFrom, map, merge, timer, YAML } from "../lib/deps.ts";
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
import { parseFlags } from "./_flags.ts";

const usage = `usage: deno run -A examples/podset.ts [--demo-only] [--verbose] [--namespace NS]
                                    [--kubeconfig PATH [--context NAME]]

The PodSet story: create, scale, self-heal, scale down, garbage-collect, on kubefold's
embedded API server (3 simulated nodes) unless --kubeconfig names a real cluster.
  --demo-only           exit after the story: 0 when every step passed, 1 otherwise
                        (default: keep the controller running for kubectl until Ctrl-C)
  --verbose             also print the controller's JSON-lines logs
  --namespace NS        namespace of the story's PodSet (default: default)
  --kubeconfig PATH     run against the cluster of this kubeconfig (never picked up from
                        the environment); the PodSet CRD is installed there
  --context NAME        the kubeconfig context to use (default: its current-context)
  --step-timeout-ms N   how long each step may take (default: 20000)`;
const flags = parseFlags("podset", Deno.args, {
  "--demo-only": "boolean",
  "--verbose": "boolean",
  "--namespace": "string",
  "--kubeconfig": "string",
  "--context": "string",
  "--step-timeout-ms": "string",
}, usage);
const demoOnly = flags["--demo-only"] === true;
const verbose = flags["--verbose"] === true;
const kubeconfigPath = flags["--kubeconfig"] as string | undefined;
const context = flags["--context"] as string | undefined;
const namespace = (flags["--namespace"] as string | undefined) ?? "default";
const stepTimeoutMs = Number(flags["--step-timeout-ms"] ?? 20_000);
if (!(stepTimeoutMs > 0)) {
  console.error(`podset: --step-timeout-ms: expected a positive number of ms\n\n${usage}`);
  Deno.exit(2);
}

const t0 = performance.now();
const say = (text: string) =>
  console.log(`[${((performance.now() - t0) / 1000).toFixed(2)}s] ${text}`);
const fail = (text: string): never => {
  throw new Error(text);
};
/** Before the story: print the error (no stack trace), release what started, exit 1. */
let close = async () => {};
const setupFailed = async (e: unknown): Promise<never> => {
  console.error(`podset: ${e instanceof Error ? e.message : String(e)}`);
  await close().catch(() => {});
  Deno.exit(1);
};

// 1. A cluster: the embedded API server (default) or a real one (explicit flags only).
let client!: Client;
let kubeconfigFile: string | undefined;
if (kubeconfigPath) {
  const c = await connect({ kubeconfig: kubeconfigPath, ...(context ? { context } : {}) });
  if (E.isLeft(c)) await setupFailed(c.left.message);
  client = (c as E.Right<Client>).right;
  say(`using the cluster of ${kubeconfigPath}${context ? ` (context ${context})` : ""}`);
} else {
  const server = await startApiServer({ simulation: { nodes: 3 } }).catch(setupFailed);
  close = () => server.close();
  kubeconfigFile = await Deno.makeTempFile({ prefix: "kubefold-", suffix: ".yaml" });
  await Deno.writeTextFile(kubeconfigFile, server.kubeconfig, { mode: 0o600 });
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) await setupFailed(`cannot use the embedded server: ${c.left.message}`);
  client = (c as E.Right<Client>).right;
  say(`embedded API server with 3 simulated nodes at ${server.url}`);
}
const logger: Logger = verbose ? jsonLogger() : silentLogger;

// 2. The CRD, generated from the TypeScript definition.
const crd = await client.apply(podSetCrd as unknown as KubeObject, {
  fieldManager: "kubefold-example",
  force: true,
});
if (E.isLeft(crd)) await setupFailed(`cannot install the PodSet CRD: ${crd.left.message}`);
say("installed CRD podsets.app.example.com");

// 3. The manager with the PodSet controller.
const manager = await startManager({
  client,
  controllers: [podSetController],
  logger,
  healthPort: 0,
}).catch(setupFailed);
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
  // A PodSet without a namespace, so `-n NAME` puts it in any namespace the controller watches.
  const { namespace: _, ...metadata } = demo(2).metadata;
  const yaml = YAML.stringify({ ...demo(2), metadata }).trimEnd();
  console.log(
    [
      "",
      "Try it with kubectl (for another namespace: kubectl create namespace NAME, then add",
      "-n NAME to the last two commands):",
      `  export KUBECONFIG=${kubeconfigFile}`,
      "  kubectl apply -f - <<'YAML'",
      yaml,
      "YAML",
      "  kubectl get podsets,pods -o wide",
      "",
      "Ctrl-C to stop.",
    ].join("\n"),
  );
}
await promise;
keepAlive.unsubscribe();
await manager.stop();
client.close();
await close();
if (kubeconfigFile) await Deno.remove(kubeconfigFile).catch(() => {});
Deno.exit(0);
