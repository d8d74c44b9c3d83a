/**
 * End-to-end controller benchmarks: the manager and the embedded API server in one process
 * (scenario 4 in two), simulated kubelet and start delays 0, clients at 100,000 QPS / burst
 * 100,000 (the default 20 / 30 would measure the rate limiter). Every figure is printed with
 * the baseline measured in the same run and PASS/FAIL against its target:
 *
 * 1. reaction latency: delete a pod, until the replacement's create is acknowledged;
 * 2. API economy: requests by verb for create / scale / delete pods / full resync;
 * 3. convergence throughput: N PodSets x R until every status is ready;
 * 4. memory: manager heap per cached pod, with and without stripManagedFields;
 * 5. five pod-reading controllers share one pod LIST and one WATCH;
 * 6. 500 watchers that never read vs none (server RSS, write throughput), and the event-loop
 *    stall of 3 MB hostile bodies (nested YAML and JSON, flat YAML) vs a 3 MB JSON write;
 * 7. the peer: the PodSet controller on `@kubernetes/client-node` vs kubefold's defaults, each
 *    in its own process, at 200 and 1,000 PodSets (`--rounds=N` repeats, median reported;
 *    reaction latency over the samples of all rounds; `--deletes=N` samples per run, default
 *    100, 30 with `--quick`);
 * 8. the concurrency sweep behind the default concurrency (1 to 32 keys at once).
 *
 *   deno task bench:e2e                 # full sizes (1,000 PodSets x 3, 100,000 pods)
 *   deno task bench:e2e --quick         # small sizes, for a smoke run
 *   deno task bench:e2e --only=1,3      # some scenarios
 *   deno task bench:e2e --only=7 --quick --deletes=150  # the peer at 200 PodSets, 150 deletes
 *
 * Exits 1 when a row FAILs. Under `deno bench` this file registers nothing.
 *
 * @module
 */
import type { Row, Sizes } from "./scenarios/_harness.ts";
import { DEFAULT_CONCURRENCY } from "../../mod.ts";
import { reactionLatencyScenario } from "./scenarios/reaction_latency.ts";
import { apiEconomyScenario } from "./scenarios/api_economy.ts";
import { convergenceScenario } from "./scenarios/convergence.ts";
import { memoryScenario } from "./scenarios/memory.ts";
import { sharedWatchScenario } from "./scenarios/shared_watch.ts";
import { slowWatchersScenario } from "./scenarios/slow_watchers.ts";
import { peerScenario } from "./scenarios/peer.ts";
import { concurrencyScenario } from "./scenarios/concurrency.ts";

/** The peer's workers: kubefold's default concurrency, so the two differ in code only. */
const PEER_WORKERS = DEFAULT_CONCURRENCY;

const FULL: Sizes = {
  podSets: 1000,
  replicas: 3,
  deletes: 100,
  memoryPods: 100_000,
  concurrency: 16,
};
const QUICK: Sizes = {
  podSets: 200,
  replicas: 3,
  deletes: 20,
  memoryPods: 10_000,
  concurrency: 16,
};

function machine(): string {
  let cpu = "unknown CPU";
  try {
    cpu = /model name\s*:\s*(.+)/.exec(Deno.readTextFileSync("/proc/cpuinfo"))?.[1] ?? cpu;
  } catch { /* not Linux */ }
  return `${cpu}, ${navigator.hardwareConcurrency} cores, ${Deno.build.os}/${Deno.build.arch}, Deno ${Deno.version.deno}`;
}

function table(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    r.scenario,
    r.metric,
    r.ratio === undefined ? "-" : `${r.ratio.toFixed(2)}x`,
    r.value,
    r.target,
    r.pass === undefined ? "-" : r.pass ? "PASS" : "FAIL",
  ]);
  const head = ["scenario", "metric", "ratio", "absolute", "target", "result"];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...cells.map(line)]
    .join("\n");
}

async function main(): Promise<number> {
  const quick = Deno.args.includes("--quick");
  const only = Deno.args.find((a) => a.startsWith("--only="))?.slice(7).split(",");
  const sizes = quick ? QUICK : FULL;
  const want = (n: string) => !only || only.includes(n);
  console.log(`kubefold controller benchmarks${quick ? " (--quick)" : ""}: ${machine()}`);
  const rows: Row[] = [];
  const run = async (n: string, what: string, f: () => Promise<Row[]>) => {
    if (!want(n)) return;
    const t0 = performance.now();
    console.error(`running ${n}: ${what} ...`);
    rows.push(...await f());
    console.error(`  done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await run("1", "reaction latency", () => reactionLatencyScenario(sizes, quick ? 50 : 200));
  await run("2", "API economy", () => apiEconomyScenario(sizes, quick ? 1_000 : 3_000));
  await run("3", "convergence throughput", () => convergenceScenario(sizes));
  await run("4", "memory at scale", () => memoryScenario(sizes));
  await run("5", "many controllers, one watch", () => sharedWatchScenario(sizes));
  await run(
    "6",
    "slow watchers and hostile bodies",
    () =>
      slowWatchersScenario(
        quick ? { writes: 4_000, silent: 100 } : { writes: 20_000, silent: 500 },
      ),
  );
  const rounds = Number(Deno.args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 1);
  await run("7", "the peer (client-node) vs kubefold defaults", () =>
    peerScenario({
      sizes: quick ? [200] : [200, 1000],
      replicas: sizes.replicas,
      deletes: Number(
        Deno.args.find((a) => a.startsWith("--deletes="))?.slice(10) ?? (quick ? 30 : 100),
      ),
      rounds,
      peerWorkers: PEER_WORKERS,
    }));
  await run("8", "concurrency sweep", () => concurrencyScenario(sizes, rounds, PEER_WORKERS));
  console.log(table(rows));
  const failed = rows.filter((r) => r.pass === false).length;
  console.log(failed ? `${failed} row(s) FAIL` : "all targets PASS");
  return failed ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main());
