import { pool, quantile, podSet } from "./scenarios/_harness.ts";
import { type ClusterCounts, startClusterThread } from "./scenarios/_cluster_thread.ts";
type PeerOptions = { replicas: number; deletes: number; peerWorkers: number };
type Run = Record<string, number>;
const [prog, nArg, ...EXTRA] = Deno.args;
const here = new URL("./peer/", import.meta.url);
const lock = new URL("../deno.lock", import.meta.url).pathname;
const clockTicks = 100; // USER_HZ on Linux

/** CPU seconds (user + system) and peak RSS (MiB) of a process, from /proc. */
async function usage(pid: number): Promise<{ cpuS: number; peakRssMiB: number }> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const cpuS = (Number(fields[11]) + Number(fields[12])) / clockTicks;
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return { cpuS, peakRssMiB: hwm / 1024 };
}

const writeVerbs = new Set(["create", "delete", "patch", "update", "deletecollection"]);
/** Writes counted at the server between two counts, of the keys `pick` selects. */
function writesOf(
  before: ClusterCounts,
  after: ClusterCounts,
  pick: (verb: string, subresource: string | undefined, resource: string) => boolean,
): number {
  let n = 0;
  for (const [k, v] of Object.entries(after.counts)) {
    // Keys are "<verb>[/<subresource>] <resource>", e.g. "patch/status podsets".
    const [verbPart, resource] = k.split(" ");
    const [verb, sub] = verbPart.split("/");
    if (writeVerbs.has(verb) && pick(verb, sub, resource)) n += v - (before.counts[k] ?? 0);
  }
  return n;
}

/** One run of one controller program at one size. */
async function runOnce(
  program: "peer" | "kubefold",
  podSets: number,
  options: PeerOptions,
): Promise<Run> {
  const cluster = await startClusterThread();
  const driver = await cluster.client();
  const dir = await Deno.makeTempDir({ prefix: "kubefold-peer-" });
  const kubeconfig = `${dir}/kubeconfig.yaml`;
  await Deno.writeTextFile(kubeconfig, cluster.kubeconfig);
  const script = program === "peer" ? "client_node_podset.ts" : "kubefold_podset.ts";
  const args = program === "peer" ? [kubeconfig, String(options.peerWorkers)] : [kubeconfig, ...EXTRA];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--lock=${lock}`, new URL(script, here).pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let out = ""; !out.includes("ready");) {
    const { done, value } = await lines.read();
    if (done) throw new Error(`${script} exited before it was ready`);
    out += value;
  }
  void (async () => {
    while (!(await lines.read()).done) { /* drain */ }
  })();
  try {
    const before = await cluster.counts();
    const cpu0 = await usage(child.pid);
    const t0 = performance.now();
    const ready = cluster.untilReady(podSets);
    await pool(podSets, 16, async (i) => {
      const r = await driver.create(podSet(i, options.replicas));
      if (r._tag === "Left") throw new Error(`Cannot create a PodSet: ${r.left.message}`);
    });
    await ready;
    const readyMs = performance.now() - t0;
    const cpu1 = await usage(child.pid);
    const after = await cluster.counts();
    const latencies: number[] = [];
    for (let k = 0; k < options.deletes; k++) {
      latencies.push(await cluster.replace(`ps-${(k * 7) % podSets}`, podSets));
    }
    const end = await usage(child.pid);
    return {
      readyMs,
      cpuS: cpu1.cpuS - cpu0.cpuS,
      peakRssMiB: end.peakRssMiB,
      statusWrites: writesOf(before, after, (_, sub, r) => r === "podsets" && sub === "status"),
      podWrites: writesOf(before, after, (_, sub, r) => r === "pods" && sub === undefined),
      eventWrites: writesOf(before, after, (_, __, r) => r === "events"),
      extraPods: after.podsAdded - before.podsAdded - podSets * options.replicas,
      reactionP50: quantile(latencies, 0.5),
      reactionP99: quantile(latencies, 0.99),
    };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    driver.close();
    await cluster.close();
    await Deno.remove(dir, { recursive: true });
  }
}


const r = await runOnce(prog as "peer" | "kubefold", Number(nArg), { replicas: 3, deletes: 10, peerWorkers: 4 });
console.log(prog, EXTRA.join(" "), JSON.stringify(r));
