/**
 * Scenario 7, the peer: the same PodSet controller written on `@kubernetes/client-node` as a
 * TypeScript user writes it (`peer/client_node_podset.ts`: two informers, a Set-deduplicated
 * queue, N workers) against kubefold's PodSet controller on its **default settings**
 * (`peer/kubefold_podset.ts`: `connect()` and `startManager()`, nothing tuned).
 *
 * Each controller runs in its own process, the API server on a worker thread of this one (its
 * CPU is charged to neither). Per run: start the controller and wait for its `ready`; create N
 * PodSets of R replicas and time until every status reports ready; then delete one pod at a
 * time and time, at the server, from the delete's commit to the replacement's create commit.
 * Figures of the controller process from `/proc`: CPU (user + system) while converging, peak
 * RSS. Writes are the server's counts while converging: status writes (the column compared),
 * pod creates and deletes (the minimum is N x R: no extra pod), and events (kubefold records a
 * `SuccessfulCreate` per pod, as kube-controller-manager does; the peer records none).
 * Target: kubefold's defaults beat the peer on every column (ratio kubefold / peer < 1).
 *
 * @module
 */
import { pool, quantile, type Row } from "./_harness.ts";
import { type ClusterCounts, startClusterThread } from "./_cluster_thread.ts";
import { podSet } from "./_harness.ts";

/** Options of {@link peerScenario}. */
export interface PeerOptions {
  /** PodSet counts to run at, e.g. `[200, 1000]`. */
  readonly sizes: readonly number[];
  readonly replicas: number;
  /** Deletes (reaction latency samples) per run. */
  readonly deletes: number;
  /** Runs of each side (alternating); medians are reported. */
  readonly rounds: number;
  /** The peer's workers (N). */
  readonly peerWorkers: number;
}

interface Run {
  readonly readyMs: number;
  readonly cpuS: number;
  readonly peakRssMiB: number;
  /** Status writes (patch/update of the status subresource) while converging. */
  readonly statusWrites: number;
  /** Pod creates and deletes while converging. */
  readonly podWrites: number;
  /** Event writes while converging (kubefold records one per pod create; the peer none). */
  readonly eventWrites: number;
  readonly extraPods: number;
  /** Reaction latency samples (ms). */
  readonly latencies: readonly number[];
}

const here = new URL("../peer/", import.meta.url);
const lock = new URL("../../deno.lock", import.meta.url).pathname;
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
  const args = program === "peer" ? [kubeconfig, String(options.peerWorkers)] : [kubeconfig];
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
    const at = (q: number) => quantile(latencies, q).toFixed(1);
    console.error(
      `  ${program} at ${podSets}: reaction p50 / p90 / p99 / max ${at(0.5)} / ${at(0.9)} / ${
        at(0.99)
      } / ${at(1)} ms`,
    );
    return {
      readyMs,
      cpuS: cpu1.cpuS - cpu0.cpuS,
      peakRssMiB: end.peakRssMiB,
      statusWrites: writesOf(before, after, (_, sub, r) => r === "podsets" && sub === "status"),
      podWrites: writesOf(before, after, (_, sub, r) => r === "pods" && sub === undefined),
      eventWrites: writesOf(before, after, (_, __, r) => r === "events"),
      extraPods: after.podsAdded - before.podsAdded - podSets * options.replicas,
      latencies,
    };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    driver.close();
    await cluster.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const med = (runs: readonly Run[], f: (r: Run) => number) => quantile(runs.map(f), 0.5);
/** A quantile of the reaction latency samples of all runs together. */
const pooled = (runs: readonly Run[], q: number) => quantile(runs.flatMap((r) => r.latencies), q);

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Runs scenario 7 and returns its rows. */
export async function peerScenario(options: PeerOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of options.sizes) {
    const peer: Run[] = [], ours: Run[] = [];
    for (let r = 0; r < options.rounds; r++) {
      peer.push(await runOnce("peer", n, options));
      ours.push(await runOnce("kubefold", n, options));
    }
    const scenario =
      `7 peer (${n}x${options.replicas}, ${options.deletes} deletes, median of ${options.rounds})`;
    const fromRuns = (f: (r: Run) => number) => (runs: readonly Run[]) => med(runs, f);
    const samples = options.deletes * options.rounds;
    const columns: [string, (runs: readonly Run[]) => number, (x: number) => string][] = [
      ["time to all ready", fromRuns((r) => r.readyMs), (x) => `${x.toFixed(0)} ms`],
      ["controller CPU while converging", fromRuns((r) => r.cpuS), (x) => `${x.toFixed(2)} s`],
      ["controller peak RSS", fromRuns((r) => r.peakRssMiB), (x) => `${x.toFixed(0)} MiB`],
      ["status writes while converging", fromRuns((r) => r.statusWrites), (x) => x.toFixed(0)],
      [`reaction latency p50 (${samples} samples)`, (runs) => pooled(runs, 0.5), ms],
      [`reaction latency p99 (${samples} samples)`, (runs) => pooled(runs, 0.99), ms],
    ];
    for (const [metric, f, fmt] of columns) {
      const a = f(ours), b = f(peer);
      rows.push({
        scenario,
        metric: `${metric}: kubefold defaults vs client-node (${options.peerWorkers} workers)`,
        value: `${fmt(a)} vs ${fmt(b)}`,
        ratio: a / b,
        target: "< 1x",
        pass: a < b,
      });
    }
    const minimum = n * options.replicas;
    rows.push({
      scenario,
      metric: "pod creates + deletes while converging (minimum N x R), extra pods",
      value: `${med(ours, (r) => r.podWrites)}, ${med(ours, (r) => r.extraPods)} vs ${
        med(peer, (r) => r.podWrites)
      }, ${med(peer, (r) => r.extraPods)}`,
      target: `= ${minimum}, 0`,
      pass: med(ours, (r) => r.podWrites) === minimum && med(ours, (r) => r.extraPods) === 0,
    });
    rows.push({
      scenario,
      metric: "events recorded while converging (kubefold: SuccessfulCreate per pod)",
      value: `${med(ours, (r) => r.eventWrites)} vs ${med(peer, (r) => r.eventWrites)}`,
      target: "-",
    });
  }
  return rows;
}
