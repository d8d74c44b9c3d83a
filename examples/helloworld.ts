/**
 * The kubebuilder guide's story with kubefold, step by step: init a project, create the
 * HelloWorld API, add a v2 of it with a conversion webhook (v2 renames spec.replicas to
 * spec.size; the conversion is filled in and its round-trip test run), generate manifests
 * (CRDs, least-privilege RBAC), install the CRD into the embedded cluster, run the manager
 * locally, apply the sample, see its pods and read it as v2, build the manager, deploy it (2
 * replicas that really run as processes, leader election), scale through v2, read its logs,
 * undeploy and uninstall.
 *
 *   deno run -A examples/helloworld.ts              # play the story, then keep the cluster for kubectl
 *   deno run -A examples/helloworld.ts --demo-only  # play the story and exit (0 = every step passed)
 *   deno run -A examples/helloworld.ts --verbose    # also print the commands' output
 *
 * The project is written to a temporary folder and imports kubefold from where this file was
 * loaded (the checkout, or the URL it was run from).
 *
 * @module
 */
import { startCluster } from "../lib/cluster/mod.ts";
import { renameConversion, renameReplicasToSize } from "./_rename_replicas_to_size.ts";

const args = Deno.args;
const demoOnly = args.includes("--demo-only");
const verbose = args.includes("--verbose");
const stepTimeoutMs = 30_000;
const t0 = performance.now();
const say = (text: string) =>
  console.log(`[${((performance.now() - t0) / 1000).toFixed(2)}s] ${text}`);
const indent = (text: string) => text.trimEnd().split("\n").map((l) => `      ${l}`).join("\n");
const fail = (text: string): never => {
  throw new Error(text);
};

const kubefoldUrl = new URL("../", import.meta.url).href;
const cli = new URL("../lib/cli/main.ts", import.meta.url).href;
const work = await Deno.makeTempDir({ prefix: "kubefold-helloworld-" });
const dir = `${work}/hello-operator`;
const kubeconfig = `${work}/kubeconfig.yaml`;
const NS = "hello-operator-system";
const GROUP = "myapp.example.com";

async function run(
  cmd: string[],
  options: { cwd?: string; quiet?: boolean } = {},
): Promise<string> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: options.cwd ?? dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  if (verbose && !options.quiet) console.log(indent(`$ ${cmd.join(" ")}\n${stdout}${stderr}`));
  if (out.code !== 0) fail(`${cmd.join(" ")} failed (${out.code}):\n${stdout}${stderr}`);
  return stdout;
}
const kubefold = (...a: string[]) => run([Deno.execPath(), "task", "kubefold", ...a]);
const kubectl = (...a: string[]) =>
  run(["kubectl", "--kubeconfig", kubeconfig, ...a], { quiet: true });

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > stepTimeoutMs) fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  say(`  ✓ ${what} (${Math.round(performance.now() - started)} ms)`);
}
const pods = async (ns: string, selector?: string) =>
  JSON.parse(
    await kubectl("get", "pods", "-n", ns, ...(selector ? ["-l", selector] : []), "-o", "json"),
  )
    .items as {
      metadata: { name: string };
      status: { phase?: string; conditions?: { type: string; status: string }[] };
    }[];
const isReady = (p: Awaited<ReturnType<typeof pods>>[number]) =>
  p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;

const sampleAs = async (version: string, jsonpath: string) =>
  (await kubectl(
    "get",
    `helloworlds.${version}.${GROUP}`,
    "helloworld-sample",
    "-o",
    `jsonpath=${jsonpath}`,
  )).trim();

/** Step 3: v2 of HelloWorld, a conversion webhook (v1 the hub), and a field renamed in v2. */
async function addV2WithConversion(): Promise<void> {
  const api = ["--group", "myapp", "--kind", "HelloWorld"];
  await kubefold("create", "api", ...api, "--version", "v2", "--resource", "--controller=false");
  say("  ✓ types_v2.ts (a copy of v1's schema to change), served next to v1 (the storage version)");
  await kubefold("create", "webhook", ...api, "--version", "v1", "--conversion", "--spoke", "v2");
  say("  ✓ conversion.ts (v2 up to the hub v1 and back down) and its round-trip property test");
  await renameReplicasToSize(dir);
  say("  ✓ the author renames v2's spec.replicas to spec.size and fills in the conversion:");
  console.log(indent(renameConversion));
  await run([Deno.execPath(), "test", "-A", "tests/helloworld/conversion_test.ts"]);
  say(
    "  ✓ deno test tests/helloworld/conversion_test.ts: v1 -> v2 -> v1 and v2 -> v1 -> v2 keep every field",
  );
}

let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
let local: Deno.ChildProcess | undefined;
let failed = false;
try {
  say(`step 1: kubefold init ${dir} --domain example.com`);
  await run([
    Deno.execPath(),
    "run",
    "-A",
    cli,
    "init",
    dir,
    "--domain",
    "example.com",
    "--kubefold-url",
    kubefoldUrl,
  ], { cwd: work });
  say(`  ✓ a project importing kubefold from ${kubefoldUrl}`);

  say("step 2: kubefold create api --group myapp --version v1 --kind HelloWorld");
  await kubefold("create", "api", "--group", "myapp", "--version", "v1", "--kind", "HelloWorld");
  say(
    "  ✓ types + CRD, a pure reconciler, the controller spec, a property test and a virtual-time test",
  );

  say(
    "step 3: kubefold create api --version v2 (--controller=false) and create webhook --conversion",
  );
  await addV2WithConversion();

  say(
    "step 4: kubefold manifests (config/: CRD, least-privilege RBAC derived from the controller)",
  );
  await kubefold("manifests");
  const crd = await Deno.readTextFile(`${dir}/config/crd/bases/${GROUP}_helloworlds.yaml`);
  if (!/strategy: Webhook/.test(crd)) fail("the CRD has no conversion webhook");
  say("  ✓ the CRD serves v1 (stored) and v2, converted by the webhook; the manager's RBAC:");
  console.log(
    indent(
      (await Deno.readTextFile(`${dir}/config/rbac/role.yaml`)).split("\n").slice(1).join("\n"),
    ),
  );

  say(
    "step 5: an embedded cluster (TLS, 2 nodes; images example.com/hello-operator:* run as bin/hello-operator)",
  );
  cluster = await startCluster({
    tls: true,
    token: crypto.randomUUID(),
    simulation: { nodes: 2, runImages: `example.com/hello-operator:*=${dir}/bin/hello-operator` },
  });
  await Deno.writeTextFile(kubeconfig, cluster.kubeconfig, { mode: 0o600 });
  say(`  ✓ ${cluster.server.url} (KUBECONFIG=${kubeconfig})`);

  say("step 6: kubefold install (the CRD)");
  await kubefold("install", "--kubeconfig", kubeconfig);
  await until(
    "kubectl get crd helloworlds.myapp.example.com",
    async () => (await kubectl("get", "crd")).includes("helloworlds.myapp.example.com"),
  );

  say("step 7: kubefold run --kubeconfig (the manager on this machine) and apply the sample");
  local = new Deno.Command(Deno.execPath(), {
    args: ["task", "run", "--kubeconfig", kubeconfig],
    cwd: dir,
    stdout: "null",
    stderr: verbose ? "inherit" : "null",
  }).spawn();
  await kubectl("apply", "-f", `${dir}/config/samples/myapp_v1_helloworld.yaml`);
  await until(
    "helloworld-sample has 2 Running pods",
    async () =>
      (await pods("default", "app=helloworld-sample")).filter((p) => p.status.phase === "Running")
        .length === 2,
  );
  console.log(indent(await kubectl("get", "helloworlds,pods", "-n", "default")));
  await until(
    "kubectl reads helloworld-sample as v2: spec.size 2 (the local manager converts)",
    async () => (await sampleAs("v2", "{.apiVersion} {.spec.size}")) === `${GROUP}/v2 2`,
  );
  local.kill("SIGTERM");
  await local.status;
  local = undefined;
  say("  ✓ local manager stopped");

  say("step 8: kubefold build (the manager as one executable: bin/hello-operator)");
  await kubefold("build", ...(Deno.env.get("DENORT_BIN") ? [] : ["--bundle"]));
  say("  ✓ built (deno compile needs Deno's runtime download: --bundle where there is none)");

  say("step 9: kubefold deploy (Namespace, CRD, ServiceAccount, RBAC, Deployment of 2 replicas)");
  await kubefold("deploy", "--kubeconfig", kubeconfig);
  await until(
    "2 manager pods Running and Ready (real processes)",
    async () => (await pods(NS, "control-plane=controller-manager")).filter(isReady).length === 2,
  );
  const leader = (await kubectl(
    "get",
    "lease",
    "hello-operator-leader",
    "-n",
    NS,
    "-o",
    "jsonpath={.spec.holderIdentity}",
  )).trim();
  say(`  ✓ ${leader} holds the lease`);

  say(
    "step 10: kubectl patch helloworlds.v2 helloworld-sample (spec.size: 3); kubectl logs of the leader",
  );
  await kubectl(
    "patch",
    `helloworlds.v2.${GROUP}`,
    "helloworld-sample",
    "--type=merge",
    "-p",
    '{"spec":{"size":3}}',
  );
  await until(
    "kubectl reads it as v1: spec.replicas 3 (the deployed operator converts)",
    async () => (await sampleAs("v1", "{.spec.replicas}")) === "3",
  );
  await until(
    "the deployed operator runs 3 pods",
    async () =>
      (await pods("default", "app=helloworld-sample")).filter((p) => p.status.phase === "Running")
        .length === 3,
  );
  const logs = (await kubectl("logs", "-n", NS, leader, "--tail=4")).trim();
  console.log(indent(logs));

  say("step 11: kubefold undeploy && kubefold uninstall");
  await kubefold("undeploy", "--kubeconfig", kubeconfig);
  await kubefold("uninstall", "--kubeconfig", kubeconfig);
  await until(
    "nothing is left (no pods, no namespace, no CRD)",
    async () =>
      (await pods("default")).length === 0 && !(await kubectl("get", "ns")).includes(NS) &&
      !(await kubectl("get", "crd")).includes("helloworlds"),
  );
} catch (e) {
  failed = true;
  say(`✗ ${(e as Error).message}`);
}
local?.kill("SIGTERM");
await local?.status;
if (!demoOnly && !failed && cluster) {
  say("story done; the cluster keeps running (Ctrl-C to stop).");
  console.log(
    `  export KUBECONFIG=${kubeconfig}\n  cd ${dir} && deno task kubefold deploy --kubeconfig $KUBECONFIG`,
  );
  const { promise, resolve } = Promise.withResolvers<void>();
  Deno.addSignalListener("SIGINT", () => resolve());
  Deno.addSignalListener("SIGTERM", () => resolve());
  await promise;
}
await cluster?.close();
await Deno.remove(work, { recursive: true }).catch(() => {});
console.log(
  failed
    ? "helloworld demo: FAILED"
    : `helloworld demo: all 11 steps passed in ${((performance.now() - t0) / 1000).toFixed(1)}s`,
);
Deno.exit(failed ? 1 : 0);
