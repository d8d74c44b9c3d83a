/**
 * Informer pipeline benchmark: 20,000 realistic pods (~2.4 KB of JSON each, with
 * managedFields, owner references and status) listed, then 40,000 MODIFIED events, through
 * `listWatch` -> `reflect` -> an indexed store (3 indexes), against a plain
 * `fetch + JSON.parse + Map` baseline fed the same bytes from the same local server; also with
 * `stripManagedFields` and with the opt-in `shareManagedFields` (for the record).
 *
 * Run: `deno run -A --v8-flags=--expose-gc tests/bench/informer_bench.ts [PODS EVENTS ROUNDS]`
 * (prints a table; the size is `100000 200000 3`). Each run is a fresh process (every
 * variant once per round, the order rotated each round, each after a warm-up on a small
 * fixture), so no run pays for the garbage or the heap sizing another left behind;
 * `--same-process` runs them all in this one instead (the ratio then moves with the order of the
 * runs). Besides the ratio of the medians (the verdict), `paired` is the median of each round's
 * ratio to that round's baseline: less moved by the host's speed drifting between rounds.
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

const encoder = new TextEncoder();

/** A pod shaped like one a Deployment's ReplicaSet made and a kubelet runs. */
function pod(i: number, rv: number): KubeObject {
  const ns = `team-${i % 20}`;
  const app = `app-${i % 200}`;
  const rs = `${app}-7f9c6d${(i % 97).toString(16).padStart(2, "0")}`;
  const name = `${rs}-${(i * 7919).toString(36).padStart(5, "x")}`;
  const uid = (n: number) =>
    `${n.toString(16).padStart(8, "0")}-1c2d-4e5f-8a9b-${(n * 31).toString(16).padStart(12, "0")}`;
  const time = "2025-01-02T03:04:05Z";
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,

      namespace: ns,
      uid: uid(i),
      resourceVersion: String(rv),
      creationTimestamp: time,
      labels: { app, "pod-template-hash": "7f9c6d", tier: i % 3 === 0 ? "frontend" : "backend" },
      annotations: { "prometheus.io/scrape": "true" },
      ownerReferences: [{
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: rs,
        uid: uid(100_000 + (i % 500)),
        controller: true,
        blockOwnerDeletion: true,
      }],
      managedFields: [
        {
          manager: "kube-controller-manager",
          operation: "Update",
          apiVersion: "v1",
          time,
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": {
              "f:labels": { ".": {}, "f:app": {}, "f:pod-template-hash": {}, "f:tier": {} },
              "f:ownerReferences": { ".": {}, [`k:{"uid":"${uid(100_000 + (i % 500))}"}`]: {} },
            },
            "f:spec": {
              "f:containers": {
                'k:{"name":"main"}': {
                  ".": {},
                  "f:image": {},
                  "f:name": {},
                  "f:ports": {
                    ".": {},
                    'k:{"containerPort":8080,"protocol":"TCP"}': {
                      ".": {},
                      "f:containerPort": {},
                      "f:protocol": {},
                    },
                  },
                  "f:resources": {
                    ".": {},
                    "f:requests": { ".": {}, "f:cpu": {}, "f:memory": {} },
                  },
                },
              },
              "f:dnsPolicy": {},
              "f:restartPolicy": {},
              "f:terminationGracePeriodSeconds": {},
            },
          },
        },
        {
          manager: "kubelet",
          operation: "Update",
          apiVersion: "v1",
          time,
          fieldsType: "FieldsV1",
          subresource: "status",
          fieldsV1: {
            "f:status": {
              "f:conditions": {
                'k:{"type":"Ready"}': {
                  ".": {},
                  "f:lastTransitionTime": {},
                  "f:status": {},
                  "f:type": {},
                },
              },
              "f:containerStatuses": {},
              "f:hostIP": {},
              "f:phase": {},
              "f:podIP": {},
              "f:startTime": {},
            },
          },
        },
      ],
    },
    spec: {
      containers: [{
        name: "main",
        image: `registry.example.com/${app}:v1.4.2`,
        ports: [{ containerPort: 8080, protocol: "TCP" }],
        resources: { requests: { cpu: "100m", memory: "128Mi" } },
      }],
      restartPolicy: "Always",
      terminationGracePeriodSeconds: 30,
      dnsPolicy: "ClusterFirst",
      serviceAccountName: "default",
      nodeName: `node-${i % 50}`,
      schedulerName: "default-scheduler",
    },
    status: {
      phase: "Running",
      conditions: ["Ready", "PodScheduled"].map((type) => ({
        type,
        status: "True",
        lastProbeTime: null,
        lastTransitionTime: time,
      })),
      hostIP: `10.1.${i % 50}.1`,
      podIP: `10.2.${(i >> 8) & 255}.${i & 255}`,
      startTime: time,
      containerStatuses: [{
        name: "main",
        ready: true,
        restartCount: rv % 3,
        image: `registry.example.com/${app}:v1.4.2`,
        imageID: `sha256:${"ab".repeat(16)}`,
        started: true,
        state: { running: { startedAt: time } },
      }],
    },
  };
}

interface Fixture {
  readonly list: Uint8Array;
  readonly watch: Uint8Array;
  readonly avgPodBytes: number;
}

export function fixture(pods: number, events: number): Fixture {
  const items = Array.from({ length: pods }, (_, i) => JSON.stringify(pod(i, 1000 + i)));
  const avgPodBytes = items.reduce((n, s) => n + s.length, 0) / pods;
  const list = encoder.encode(
    `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${1000 + pods}"},"items":[${
      items.join(",")
    }]}`,
  );
  const lines: string[] = [];
  for (let e = 0; e < events; e++) {
    lines.push(
      `{"type":"MODIFIED","object":${JSON.stringify(pod(e % pods, 1000 + pods + 1 + e))}}\n`,
    );
  }
  return { list, watch: encoder.encode(lines.join("")), avgPodBytes };
}

/** A local server answering discovery, the LIST (ignoring `limit`) and the watch stream. */
export function serve(f: Fixture) {
  const chunk = 64 * 1024;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/v1") {
      return Response.json({ resources: [{ name: "pods", kind: "Pod", namespaced: true }] });
    }
    const body = url.searchParams.get("watch") !== "true" ? f.list : f.watch;
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.length) return controller.close();
        controller.enqueue(body.subarray(at, at + chunk));
        at += chunk;
      },
    });
    return new Response(stream, { headers: { "content-type": "application/json" } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

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
 * indexes — what the baseline's Map does).
 */
export async function pipeline(
  url: string,
  events: number,
  variant: "default" | "plain" | "strip" | "share" = "default",
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

/** `xs` rotated left by `r`: round r of the benchmark starts with the r-th variant. */
const rotated = <T>(xs: readonly T[], r: number): T[] => xs.map((_, i) => xs[(i + r) % xs.length]);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Variant = "baseline" | "plain" | "pipeline" | "stripped" | "shared";
const VARIANTS: readonly Variant[] = ["baseline", "plain", "pipeline", "stripped", "shared"];

/** One variant's run over a served fixture. */
function runOf(variant: Variant, url: string, events: number): () => Promise<unknown> {
  switch (variant) {
    case "baseline":
      return () => baseline(url, events);
    case "plain":
      return () => pipeline(url, events, "plain");
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
async function sampleHere(variant: Variant, pods: number, events: number): Promise<void> {
  const warm = serve(fixture(500, 1_000));
  await runOf(variant, warm.url, 1_000)();
  await warm.close();
  const srv = serve(fixture(pods, events));
  const s = await measure(runOf(variant, srv.url, events));
  await srv.close();
  console.log(JSON.stringify(s));
}

/** One sample in a fresh process, so no run inherits another's heap (garbage, sizing). */
async function sampleApart(variant: Variant, pods: number, events: number): Promise<Sample> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc,--max-old-space-size=8192",
      new URL(import.meta.url).pathname,
      `--one=${variant}`,
      String(pods),
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
): Promise<boolean> {
  const runs: Record<Variant, Sample[]> = {
    baseline: [],
    plain: [],
    pipeline: [],
    stripped: [],
    shared: [],
  };
  const served = sameProcess ? fixture(pods, events) : undefined;
  const srv = served ? serve(served) : undefined;
  for (let r = 0; r < rounds; r++) {
    // The order rotates each round, so no variant always runs first or last (in a drift of the
    // host's speed, or after the same neighbour).
    for (const v of rotated(VARIANTS, r)) {
      runs[v].push(
        srv ? await measure(runOf(v, srv.url, events)) : await sampleApart(v, pods, events),
      );
    }
  }
  await srv?.close();
  // Apart, each child made its own fixture: this one, built after them, gives the header's sizes.
  const f = served ?? fixture(pods, events);
  if (Deno.env.get("BENCH_DEBUG")) console.log(JSON.stringify(runs));
  const base = {
    ms: median(runs.baseline.map((s) => s.ms)),
    heap: median(runs.baseline.map((s) => s.heap)),
  };
  // Paired: each round's run against that round's baseline, then the median of those ratios —
  // the host's speed drifts by +-20% over minutes, and a round's runs are minutes apart at most.
  const paired = (xs: readonly Sample[]) =>
    median(xs.map((x, i) => x.ms / runs.baseline[i].ms)).toFixed(2).padStart(6);
  const row = (name: string, xs: readonly Sample[], timeMax: number, heapMax: number) => {
    const ms = median(xs.map((x) => x.ms)), heap = median(xs.map((x) => x.heap));
    const tr = ms / base.ms, hr = heap / base.heap;
    const pass = tr <= timeMax && hr <= heapMax;
    const max = (m: number) => m === Infinity ? "       " : `(<=${m})`;
    console.log(
      `| ${name.padEnd(30)} | ${ms.toFixed(0).padStart(7)} | ${
        (heap / 2 ** 20).toFixed(1).padStart(8)
      } | ${tr.toFixed(2).padStart(5)} ${max(timeMax)} | ${paired(xs)} | ${
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
    "| run                            |   ms    | heap MiB | time ratio   | paired | heap ratio   | result |",
  );
  console.log(
    "|--------------------------------|---------|----------|--------------|--------|--------------|--------|",
  );
  console.log(
    `| ${"fetch + JSON.parse + Map".padEnd(30)} | ${base.ms.toFixed(0).padStart(7)} | ${
      (base.heap / 2 ** 20).toFixed(1).padStart(8)
    } |         1.00 |   1.00 |         1.00 | -      |`,
  );
  const p = runs.pipeline, s = runs.stripped, sh = runs.shared, pl = runs.plain;
  // Like for like: the informer's store with no indexes against the baseline's bare Map.
  const ok0 = row("listWatch+store, no indexes", pl, 1.05, 1.2);
  const ok1 = row("listWatch+store, 3 indexes", p, 1.05, 1.2);
  const ok2 = row("... + stripManagedFields", s, 1.05, 0.7);
  // Opt-in: less heap when trees repeat, for the cost of serializing every tree.
  row("... + shareManagedFields: true", sh, Infinity, Infinity);
  return ok0 && ok1 && ok2;
}

if (import.meta.main) {
  const one = Deno.args.find((a) => a.startsWith("--one="))?.slice("--one=".length);
  const sameProcess = Deno.args.includes("--same-process");
  const [pods, events, rounds] = Deno.args.filter((a) => !a.startsWith("--")).map(Number);
  if (one !== undefined) {
    const variant = VARIANTS.find((v) => v === one);
    if (variant === undefined) throw new Error(`--one: expected one of ${VARIANTS.join(", ")}`);
    await sampleHere(variant, pods, events);
  } else {
    const ok = await report(pods || 20_000, events || 40_000, rounds || 3, sameProcess);
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
