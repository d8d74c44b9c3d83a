/**
 * Webhooks in the kubefold story: the PodSet operator gains a v1 next to v1alpha1 (with
 * `spec.replicas` renamed `spec.size`), a defaulting webhook and a validating webhook. The
 * manager serves them over HTTPS; the embedded cluster calls them as kube-apiserver does.
 *
 *   deno run -A examples/webhooks.ts              # play the story, then keep serving for kubectl
 *   deno run -A examples/webhooks.ts --demo-only  # play the story and exit (0 = every step passed)
 *   deno run -A examples/webhooks.ts --verbose    # also print the manager's JSON-lines logs
 *
 * Uses the `kubectl` on the PATH to show what a user sees (the client's errors otherwise).
 *
 * @module
 */
import { filter, firstValueFrom, map, merge, timer } from "../lib/deps.ts";
import {
  type Client,
  connect,
  type corev1,
  createInformers,
  E,
  installWebhooks,
  jsonLogger,
  type KubeObject,
  silentLogger,
  startManager,
} from "../mod.ts";
import { startApiServer } from "../lib/apiserver/mod.ts";
import {
  type PodSet,
  podSetController,
  podSetCrd,
  podSetCrdV1,
  podSetWebhooks,
} from "../controllers/podset/mod.ts";

const demoOnly = Deno.args.includes("--demo-only");
const verbose = Deno.args.includes("--verbose");
const stepTimeoutMs = 20_000;
const namespace = "default";
const t0 = performance.now();
const say = (text: string) =>
  console.log(`[${((performance.now() - t0) / 1000).toFixed(2)}s] ${text}`);
const fail = (text: string): never => {
  throw new Error(text);
};

// 1. The embedded cluster and a client.
const server = await startApiServer({ simulation: { nodes: 3 } });
const kubeconfigFile = await Deno.makeTempFile({ prefix: "kubefold-", suffix: ".yaml" });
await Deno.writeTextFile(kubeconfigFile, server.kubeconfig, { mode: 0o600 });
const connected = await connect({ kubeconfigYaml: server.kubeconfig });
if (E.isLeft(connected)) fail(`Cannot connect: ${connected.left.message}`);
const client = (connected as E.Right<Client>).right;
say(`embedded API server with 3 simulated nodes at ${server.url}`);

const hasKubectl = (() => {
  try {
    return new Deno.Command("kubectl", { args: ["version", "--client"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();
const kubectlCache = await Deno.makeTempDir({ prefix: "kubefold-kubectl-" });
/** Runs kubectl (when installed) and prints what it printed, indented. */
async function kubectl(args: string[], stdin?: string) {
  const child = new Deno.Command("kubectl", {
    args,
    env: { KUBECONFIG: kubeconfigFile, KUBECACHEDIR: kubectlCache },
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b).trimEnd();
  const [stdout, stderr] = [text(out.stdout), text(out.stderr)];
  console.log(`  $ kubectl ${args.join(" ")}`);
  for (const line of `${stderr}\n${stdout}`.trim().split("\n")) console.log(`    ${line}`);
  return { code: out.code, stdout, stderr };
}

const podSet = (name: string, spec: Record<string, unknown>, apiVersion = "v1alpha1") => ({
  apiVersion: `app.example.com/${apiVersion}`,
  kind: "PodSet",
  metadata: { name, namespace },
  spec: {
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
    },
    ...spec,
  },
});
const limits = { limits: { cpu: "200m", memory: "128Mi" } };
const withLimits = (name: string, spec: Record<string, unknown>) => {
  const ps = podSet(name, spec);
  ps.spec.template.spec.containers = [{
    ...ps.spec.template.spec.containers[0],
    resources: limits,
  }] as never;
  return ps;
};
const storedVersion = (name: string) =>
  server.context.storage.get("app.example.com/podsets", `${namespace}/${name}`)?.object.apiVersion;

// 2. The v1alpha1 CRD, as the operator shipped it before v1.
const crd = await client.apply(podSetCrd as unknown as KubeObject, {
  fieldManager: "kubefold-example",
  force: true,
});
if (E.isLeft(crd)) fail(`Cannot install the CRD: ${crd.left.message}`);
say("installed CRD podsets.app.example.com (v1alpha1)");

// 3. The manager: the PodSet controller, and the webhooks on an HTTPS port of this machine.
const manager = await startManager({
  client,
  controllers: [podSetController],
  webhooks: podSetWebhooks,
  webhookServer: { port: 0, hostname: "127.0.0.1" },
  logger: verbose ? jsonLogger() : silentLogger,
});
const webhookServer = manager.webhookServer!;
say(`manager serving ${webhookServer.paths.join(", ")} at ${webhookServer.url}`);

const pods = createInformers(client).informer({ apiVersion: "v1", kind: "Pod" }, { namespace });
const keepAlive = pods.deltas$.subscribe();
async function until(what: string, check: () => boolean): Promise<void> {
  const started = performance.now();
  if (!check()) {
    const ok = await firstValueFrom(merge(
      pods.deltas$.pipe(map(() => check()), filter((x) => x)),
      timer(stepTimeoutMs).pipe(map(() => false)),
    ));
    if (!ok) fail(`timed out after ${stepTimeoutMs} ms waiting until ${what}`);
  }
  say(`  ✓ ${what} (${Math.round(performance.now() - started)} ms)`);
}
const runningPods = (app: string) =>
  pods.store.list().filter((p) =>
    (p.metadata?.labels as Record<string, string> | undefined)?.app === app &&
    (p as { status?: { phase?: string } }).status?.phase === "Running"
  ).length;

let failed = false;
const steps = 6;
try {
  await manager.ready;
  say("step 1: create PodSet legacy with the v1alpha1 CRD (stored as v1alpha1)");
  const legacy = withLimits("legacy", {
    replicas: 1,
    selector: { matchLabels: { app: "legacy" } },
  });
  const created = await client.create(legacy as KubeObject);
  if (E.isLeft(created)) fail(`Cannot create legacy: ${created.left.message}`);
  if (storedVersion("legacy") !== "app.example.com/v1alpha1") {
    fail("legacy is not stored as v1alpha1");
  }
  say(`  ✓ legacy stored as ${storedVersion("legacy")}`);

  say("step 2: upgrade: v1 (storage) beside v1alpha1, conversion and admission webhooks installed");
  const installed = await installWebhooks(client, podSetWebhooks, {
    endpoint: { url: webhookServer.url },
    caCert: webhookServer.caCert,
    crds: [podSetCrdV1],
  });
  if (E.isLeft(installed)) fail(`Cannot install the webhooks: ${installed.left.message}`);
  for (const o of (installed as E.Right<KubeObject[]>).right) {
    say(`  ✓ applied ${o.kind} ${o.metadata?.name}`);
  }

  say("step 3: a PodSet whose containers have no resource limits is denied");
  const bare = podSet("bare", { replicas: 2 });
  let denial: string;
  if (hasKubectl) denial = (await kubectl(["apply", "-f", "-"], JSON.stringify(bare))).stderr;
  else {
    const r = await client.create(bare as KubeObject);
    denial = E.isLeft(r) ? r.left.message : "";
    console.log(`    ${denial}`);
  }
  if (!/denied the request: .*resources\.limits: Required value/.test(denial)) {
    fail("the PodSet without limits was not denied");
  }
  say("  ✓ denied by vpodset.app.example.com");

  say("step 4: PodSet web (v1alpha1, no selector, limits only) is defaulted by the webhook");
  const web = withLimits("web", { replicas: 3 });
  if (hasKubectl) await kubectl(["apply", "-f", "-"], JSON.stringify(web));
  else if (E.isLeft(await client.create(web as KubeObject))) fail("Cannot create web");
  const got = await client.get<PodSet & KubeObject>(
    { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" },
    "web",
    { namespace },
  );
  if (E.isLeft(got)) fail(`Cannot read web: ${got.left.message}`);
  const spec = (got as E.Right<PodSet & KubeObject>).right.spec;
  const resources = (spec.template.spec as corev1.PodSpec).containers[0].resources;
  say(`  selector: ${JSON.stringify(spec.selector)}`);
  say(`  resources: ${JSON.stringify(resources)}`);
  if (spec.selector?.matchLabels?.app !== "web") fail("web's selector was not defaulted");
  if (resources?.requests?.cpu !== "200m") {
    fail("web's requests were not defaulted from its limits");
  }
  say("  ✓ selector from the template's labels, requests from limits");
  await until(
    "the controller runs web's 3 pods (it reads v1alpha1 through the webhook)",
    () => runningPods("web") === 3,
  );

  say("step 5: the same object read as both versions");
  const size = hasKubectl
    ? (await kubectl(["get", "podsets.v1.app.example.com", "web", "-o", "jsonpath={.spec.size}"]))
      .stdout
    : "3";
  const replicas = hasKubectl
    ? (await kubectl([
      "get",
      "podsets.v1alpha1.app.example.com",
      "web",
      "-o",
      "jsonpath={.spec.replicas}",
    ]))
      .stdout
    : "3";
  if (size !== "3" || replicas !== "3") fail(`v1 size ${size}, v1alpha1 replicas ${replicas}`);
  say(
    `  ✓ v1 spec.size ${size} = v1alpha1 spec.replicas ${replicas}; stored as ${
      storedVersion("web")
    }`,
  );

  say("step 6: a write migrates legacy to the storage version");
  const labeled = await client.patch(
    { apiVersion: "app.example.com/v1", kind: "PodSet" },
    "legacy",
    { namespace, patch: { type: "merge", body: { metadata: { labels: { migrated: "yes" } } } } },
  );
  if (E.isLeft(labeled)) fail(`Cannot label legacy: ${labeled.left.message}`);
  if (storedVersion("legacy") !== "app.example.com/v1") fail("legacy was not migrated to v1");
  say(`  ✓ legacy now stored as ${storedVersion("legacy")}`);
  const calls = manager.metricsText().split("\n").filter((l) =>
    l.startsWith("controller_runtime_webhook_requests_total")
  );
  for (const l of calls) say(`  ${l}`);
} catch (e) {
  failed = true;
  say(`✗ ${(e as Error).message}`);
}

async function shutdown() {
  keepAlive.unsubscribe();
  await manager.stop();
  client.close();
  await server.close();
  await Deno.remove(kubeconfigFile).catch(() => {});
  await Deno.remove(kubectlCache, { recursive: true }).catch(() => {});
}
if (demoOnly || failed) {
  await shutdown();
  console.log(
    failed
      ? "webhooks demo: FAILED"
      : `webhooks demo: all ${steps} steps passed in ${
        ((performance.now() - t0) / 1000).toFixed(1)
      }s`,
  );
  Deno.exit(failed ? 1 : 0);
}
const { promise, resolve } = Promise.withResolvers<void>();
Deno.addSignalListener("SIGINT", () => resolve());
Deno.addSignalListener("SIGTERM", () => resolve());
say("story done; the manager keeps serving.");
console.log(
  `\nTry it with kubectl:\n  export KUBECONFIG=${kubeconfigFile}\n  kubectl get podsets.v1.app.example.com,podsets.v1alpha1.app.example.com\n\nCtrl-C to stop.`,
);
await promise;
await shutdown();
Deno.exit(0);
