/**
 * Informer pipeline benchmark: 20,000 realistic pods (~2.4 KB of JSON each, with
 * managedFields, owner references and status) listed, then 40,000 MODIFIED events, through
 * `listWatch` -> `reflect` -> a store (no index, the controller-owner index, 3 indexes), against a plain
 * `fetch + JSON.parse + Map` baseline fed the same bytes from the same local server; also with
 * `stripManagedFields` and with the opt-in `shareManagedFields` (for the record).
 *
 * Run: `deno run -A --v8-flags=--expose-gc tests/bench/informer_bench.ts [PODS EVENTS ROUNDS]`
 * (prints a table; the size is `100000 200000 3`; `--only=plain,pipeline` runs the
 * baseline and those rows only). Each run is a fresh process (every variant once per round,
 * the order rotated each round, each after a warm-up on a small fixture; the fixture is built
 * once and read from a temporary folder), so no run pays for the garbage or the heap sizing
 * another left behind;
 * `--same-process` runs them all in this one instead (the ratio then moves with the order of the
 * runs). Besides the ratio of the medians (the verdict), `paired` is the median of each round's
 * ratio to that round's baseline: less moved by the host's speed drifting between rounds;
 * `paired 95%` is a bootstrap interval for it (with 20 rounds, e.g. `20000 40000 20 --only=plain`,
 * it says whether a ratio is within a few percent of the target or only looked it in one run).
 * Under `deno bench` it registers a small-size variant instead.
 */
import * as rx from "npm:rxjs@7.8.2";
import {
  byControllerOwnerUid,
  byLabel,
  byNamespace,
  createClient,
  createStore,
  type KubeObject,
  listWatch,
  reflect,
  stripManagedFields,
} from "../../mod.ts";
import { fixture, readFixture, serve, writeFixture } from "./_informer_fixture.ts";
import { bootstrapMedian, median, rotated } from "./_stats.ts";

export { fixture, serve };

function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return Deno.memoryUsage().heapUsed;
}

/** The baseline: fetch the list, JSON.parse it into a Map, then parse watch lines into it. */
export async function baseline(url: string, events: number): Promise<unknown> {
  const map = new Map<string, KubeObject>();
  const list = JSON.parse(await (await fetch(`${url}/api/v1/pods`)).text()) as {
    items: KubeObject[];
  };
  for (const p of list.items) map.set(`${p.metadata!.namespace}/${p.metadata!.name}`, p);
  const res = await fetch(`${url}/api/v1/pods?watch=true`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let carry = "";
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = carry + decoder.decode(value, { stream: true });
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      const e = JSON.parse(text.slice(start, nl)) as { object: KubeObject };
      map.set(`${e.object.metadata!.namespace}/${e.object.metadata!.name}`, e.object);
      seen++;
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (seen !== events) throw new Error(`baseline saw ${seen} events`);
  return map;
}

/**
 * Our pipeline: listWatch -> reflect -> store with 3 indexes (`plain`: the store alone, no
 * indexes — what the baseline's Map does; `owner`: the controller-owner index alone, what a
 * controller's cache of the objects it owns keeps).
 */
export async function pipeline(
  url: string,
  events: number,
  variant: "default" | "plain" | "owner" | "strip" | "share" = "default",
): Promise<unknown> {
  const client = createClient({
    server: url,
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  }, { rateLimit: { qps: 1e6, burst: 1e6 } });
  const { reader, writer } = createStore<KubeObject>({
    indexers: variant === "plain"
      ? {}
      : variant === "owner"
      ? { owner: byControllerOwnerUid }
      : { namespace: byNamespace, app: byLabel("app"), owner: byControllerOwnerUid },
    ...(variant === "strip" ? { transform: stripManagedFields } : {}),
    ...(variant === "share" ? { shareManagedFields: true } : {}),
  });
  let seen = 0;
  await rx.firstValueFrom(
    listWatch(client, { apiVersion: "v1", kind: "Pod" }).pipe(
      reflect(writer),
      rx.filter((d) => d.type === "Updated" && ++seen === events),
    ),
  );
  client.close();
  return reader;
}

interface Sample {
  readonly ms: number;
  readonly heap: number;
}

async function measure(run: () => Promise<unknown>): Promise<Sample> {
  // Let the previous run's aborted requests settle so its memory is gone before we start.
  await new Promise((r) => setTimeout(r, 200));
  const before = heapUsed();
  const t0 = performance.now();
  const kept = await run();
  const ms = performance.now() - t0;
  const heap = heapUsed() - before;
  if (kept === undefined) throw new Error("unreachable");
  return { ms, heap };
}

type Variant = "baseline" | "plain" | "owner" | "pipeline" | "stripped" | "shared";
const VARIANTS: readonly Variant[] = [
  "baseline",
  "plain",
  "owner",
  "pipeline",
  "stripped",
  "shared",
];

/** One variant's run over a served fixture. */
function runOf(variant: Variant, url: string, events: number): () => Promise<unknown> {
  switch (variant) {
    case "baseline":
      return () => baseline(url, events);
    case "plain":
      return () => pipeline(url, events, "plain");
    case "owner":
      return () => pipeline(url, events, "owner");
    case "pipeline":
      return () => pipeline(url, events);
    case "stripped":
      return () => pipeline(url, events, "strip");
    case "shared":
      return () => pipeline(url, events, "share");
  }
}

/**
 * One sample in this process (`--one=VARIANT`): a warm-up run on a small fixture (so neither
 * side is timed while its code is still cold), then the measured run; prints `{ms, heap}`.
 */
async function sampleHere(variant: Variant, dir: string, events: number): Promise<void> {
  const warm = serve(fixture(500, 1_000));
  await runOf(variant, warm.url, 1_000)();
  await warm.close();
  const srv = serve(await readFixture(dir));
  const s = await measure(runOf(variant, srv.url, events));
  await srv.close();
  console.log(JSON.stringify(s));
}

/** One sample in a fresh process, so no run inherits another's heap (garbage, sizing). */
async function sampleApart(variant: Variant, dir: string, events: number): Promise<Sample> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc,--max-old-space-size=8192",
      new URL(import.meta.url).pathname,
      `--one=${variant}`,
      `--fixture=${dir}`,
      "0",
      String(events),
    ],
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) ?? "";
  if (!out.success) throw new Error(`the ${variant} sample failed: ${text}`);
  return JSON.parse(text) as Sample;
}

async function report(
  pods: number,
  events: number,
  rounds: number,
  sameProcess: boolean,
  variants: readonly Variant[],
): Promise<boolean> {
  const runs: Record<Variant, Sample[]> = {
    baseline: [],
    plain: [],
    owner: [],
    pipeline: [],
    stripped: [],
    shared: [],
  };
  const f = fixture(pods, events);
  const srv = sameProcess ? serve(f) : undefined;
  const dir = sameProcess ? undefined : await Deno.makeTempDir({ prefix: "informer-bench-" });
  if (dir !== undefined) await writeFixture(dir, f);
  try {
    for (let r = 0; r < rounds; r++) {
      // The order rotates each round, so no variant always runs first or last (in a drift of
      // the host's speed, or after the same neighbour).
      for (const v of rotated(variants, r)) {
        runs[v].push(
          srv ? await measure(runOf(v, srv.url, events)) : await sampleApart(v, dir!, events),
        );
      }
    }
  } finally {
    await srv?.close();
    if (dir !== undefined) await Deno.remove(dir, { recursive: true });
  }
  if (Deno.env.get("BENCH_DEBUG")) console.log(JSON.stringify(runs));
  const base = {
    ms: median(runs.baseline.map((s) => s.ms)),
    heap: median(runs.baseline.map((s) => s.heap)),
  };
  // Paired: each round's run against that round's baseline, then the median of those ratios —
  // the host's speed drifts by +-20% over minutes, and a round's runs are minutes apart at most.
  const ratios = (xs: readonly Sample[]) => xs.map((x, i) => x.ms / runs.baseline[i].ms);
  const paired = (xs: readonly Sample[]) => median(ratios(xs)).toFixed(2).padStart(6);
  const interval = (xs: readonly Sample[]) => {
    const [lo, hi] = bootstrapMedian(ratios(xs));
    return `${lo.toFixed(2)}-${hi.toFixed(2)}`.padStart(9);
  };
  const row = (name: string, xs: readonly Sample[], timeMax: number, heapMax: number) => {
    const ms = median(xs.map((x) => x.ms)), heap = median(xs.map((x) => x.heap));
    const tr = ms / base.ms, hr = heap / base.heap;
    const pass = tr <= timeMax && hr <= heapMax;
    const max = (m: number) => m === Infinity ? "       " : `(<=${m})`;
    console.log(
      `| ${name.padEnd(30)} | ${ms.toFixed(0).padStart(7)} | ${
        (heap / 2 ** 20).toFixed(1).padStart(8)
      } | ${tr.toFixed(2).padStart(5)} ${max(timeMax)} | ${paired(xs)} | ${interval(xs)} | ${
        hr.toFixed(2).padStart(5)
      } ${max(heapMax)} | ${timeMax === Infinity ? "-   " : pass ? "PASS" : "FAIL"} |`,
    );
    return pass;
  };
  console.log(
    `${pods} pods (avg ${f.avgPodBytes.toFixed(0)} B JSON), ${events} MODIFIED events; list ${
      (f.list.length / 2 ** 20).toFixed(1)
    } MiB, watch ${(f.watch.length / 2 ** 20).toFixed(1)} MiB; median of ${rounds}; ${
      sameProcess ? "all runs in this process" : "each run in a fresh process after a warm-up"
    }; gc exposed: ${"gc" in globalThis}`,
  );
  console.log(
    "| run                            |   ms    | heap MiB | time ratio   | paired | paired 95% | heap ratio   | result |",
  );
  console.log(
    "|--------------------------------|---------|----------|--------------|--------|------------|--------------|--------|",
  );
  console.log(
    `| ${"fetch + JSON.parse + Map".padEnd(30)} | ${base.ms.toFixed(0).padStart(7)} | ${
      (base.heap / 2 ** 20).toFixed(1).padStart(8)
    } |         1.00 |   1.00 |          - |         1.00 | -      |`,
  );
  const rows: [Variant, string, number, number][] = [
    // Like for like: the informer's store with no indexes against the baseline's bare Map.
    ["plain", "listWatch+store, no indexes", 1.05, 1.2],
    // What a controller's cache of owned objects keeps.
    ["owner", "... + controller-owner index", 1.05, 1.2],
    ["pipeline", "... + 3 indexes", 1.05, 1.2],
    ["stripped", "3 indexes + stripManagedFields", 1.05, 0.7],
    // Opt-in: less heap when trees repeat, for the cost of serializing every tree.
    ["shared", "3 indexes + shareManagedFields", Infinity, Infinity],
  ];
  let ok = true;
  for (const [v, name, timeMax, heapMax] of rows) {
    if (runs[v].length > 0) ok = row(name, runs[v], timeMax, heapMax) && ok;
  }
  return ok;
}

if (import.meta.main) {
  const flag = (name: string) =>
    Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const one = flag("one");
  const only = flag("only")?.split(",");
  const sameProcess = Deno.args.includes("--same-process");
  const [pods, events, rounds] = Deno.args.filter((a) => !a.startsWith("--")).map(Number);
  if (one !== undefined) {
    const variant = VARIANTS.find((v) => v === one);
    if (variant === undefined) throw new Error(`--one: expected one of ${VARIANTS.join(", ")}`);
    const dir = flag("fixture");
    if (dir === undefined) throw new Error("--one needs --fixture=DIR");
    await sampleHere(variant, dir, events);
  } else {
    const unknown = only?.filter((v) => !VARIANTS.some((known) => known === v)) ?? [];
    if (unknown.length > 0) {
      throw new Error(`--only: unknown ${unknown.join(", ")} (known: ${VARIANTS.join(", ")})`);
    }
    const variants = VARIANTS.filter((v) => v === "baseline" || (only?.includes(v) ?? true));
    const ok = await report(pods || 20_000, events || 40_000, rounds || 3, sameProcess, variants);
    if (!ok) Deno.exitCode = 1;
  }
} else {
  const f = fixture(2_000, 4_000);
  Deno.bench("informer pipeline: 2,000 pods + 4,000 MODIFIED, baseline fetch+JSON.parse+Map", {
    group: "informer",
    baseline: true,
  }, async () => {
    const srv = serve(f);
    await baseline(srv.url, 4_000);
    await srv.close();
  });
  Deno.bench("informer pipeline: 2,000 pods + 4,000 MODIFIED, listWatch -> store (3 indexes)", {
    group: "informer",
  }, async () => {
    const srv = serve(f);
    await pipeline(srv.url, 4_000);
    await srv.close();
  });
}
