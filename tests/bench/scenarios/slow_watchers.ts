/**
 * Scenario 6, slow watchers and hostile bodies (the reliability attacks): the server runs in
 * a process of its own, so its resident memory is measured alone.
 *
 * - writes: W ConfigMap creates (1 KiB of data each, 16 at a time) with one healthy watcher
 *   reading every event, first with no other watcher (the baseline), then with N watchers
 *   that never read (raw connections that send the request and stop); figures: peak RSS of
 *   the server, write throughput, the healthy watcher's lag (write answered -> event read).
 * - bodies: the longest event-loop stall while the server answers a 3 MB deeply nested
 *   YAML body, a 3 MB deeply nested JSON body, and a 3 MB flat YAML body, against the stall
 *   while it answers the same flat object as JSON (the baseline).
 *
 * @module
 */
import type { Row } from "./_harness.ts";

const serverScript = new URL("slow_watchers_server.ts", import.meta.url).pathname;
const cms = "/api/v1/namespaces/default/configmaps";

interface Report {
  readonly rss: number;
  readonly heap: number;
  readonly stallMs: number;
  readonly slowClosed: number;
  readonly watchers: number;
}

/** A server process whose reports are collected as they come. */
async function startServer() {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", serverScript],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const reports: Report[] = [];
  let url = "";
  let buffered = "";
  const { promise: ready, resolve } = Promise.withResolvers<void>();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += value;
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const l of lines) {
        const o = JSON.parse(l);
        if (o.url) (url = o.url, resolve());
        else reports.push(o);
      }
    }
  })();
  await ready;
  return {
    url,
    reports,
    /** The reports from now on (call `.take()` to get them). */
    mark() {
      const from = reports.length;
      return { take: () => reports.slice(from) };
    },
    async stop() {
      child.kill("SIGKILL");
      await child.status;
      await reading.catch(() => {});
    },
  };
}

async function silentWatch(port: number): Promise<Deno.TcpConn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode(`GET ${cms}?watch=true HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`),
  );
  return conn;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

interface WriteRun {
  readonly peakRss: number;
  readonly baseRss: number;
  readonly writesPerSecond: number;
  /** Over the second half of the writes (after the silent watchers were closed). */
  readonly laterWritesPerSecond: number;
  readonly lagP50: number;
  readonly lagP99: number;
  readonly slowClosed: number;
}

async function writeRun(writes: number, silent: number): Promise<WriteRun> {
  const server = await startServer();
  const port = Number(new URL(server.url).port);
  await new Promise((r) => setTimeout(r, 300));
  const baseRss = server.reports.at(-1)?.rss ?? 0;
  const conns = await Promise.all(Array.from({ length: silent }, () => silentWatch(port)));
  const answered = new Map<string, number>();
  const lags: number[] = [];
  const watch = await fetch(`${server.url}${cms}?watch=true&resourceVersion=1`);
  const lines = watch.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = 0;
  const healthy = (async () => {
    let text = "";
    for (;;) {
      const { done, value } = await lines.read();
      if (done) return;
      text += value;
      const parts = text.split("\n");
      text = parts.pop()!;
      for (const p of parts) {
        const name = /"name":"(cm-\d+)"/.exec(p)?.[1];
        const at = name ? answered.get(name) : undefined;
        if (at !== undefined) lags.push(performance.now() - at);
        seen++;
      }
    }
  })();
  const mark = server.mark();
  const data = { v: "x".repeat(1024) };
  let next = 0;
  let done = 0;
  let halfAt = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < writes) {
      const name = `cm-${next++}`;
      const res = await fetch(`${server.url}${cms}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data }),
      });
      await res.body?.cancel();
      if (res.status !== 201) throw new Error(`write ${name}: ${res.status}`);
      answered.set(name, performance.now());
      if (++done === writes / 2) halfAt = performance.now();
    }
  }));
  const end = performance.now();
  const seconds = (end - t0) / 1000;
  for (let i = 0; i < 500 && seen < writes; i++) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 250));
  const during = mark.take();
  await lines.cancel();
  await healthy.catch(() => {});
  for (const c of conns) c.close();
  await server.stop();
  return {
    peakRss: Math.max(...during.map((r) => r.rss)),
    baseRss,
    writesPerSecond: writes / seconds,
    laterWritesPerSecond: writes / 2 / ((end - halfAt) / 1000),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    slowClosed: during.at(-1)?.slowClosed ?? 0,
  };
}

/** The longest event-loop stall the server reports while it answers one request. */
async function stallOf(body: string, type: string): Promise<{ stallMs: number; status: number }> {
  const server = await startServer();
  try {
    await new Promise((r) => setTimeout(r, 300));
    const mark = server.mark();
    const res = await fetch(`${server.url}${cms}`, {
      method: "POST",
      headers: { "content-type": type },
      body,
    });
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, 250));
    return { stallMs: Math.max(...mark.take().map((r) => r.stallMs)), status: res.status };
  } finally {
    await server.stop();
  }
}

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

/** Runs scenario 6 and returns its rows. */
export async function slowWatchersScenario(
  sizes: { readonly writes: number; readonly silent: number },
): Promise<Row[]> {
  const base = await writeRun(sizes.writes, 0);
  const slow = await writeRun(sizes.writes, sizes.silent);
  const s6 = `6 slow watchers (${sizes.writes} writes, ${sizes.silent} silent)`;
  const rssRatio = slow.peakRss / base.peakRss;
  const tputRatio = slow.writesPerSecond / base.writesPerSecond;
  const laterRatio = slow.laterWritesPerSecond / base.laterWritesPerSecond;
  const nested = "[".repeat(1_500_000) + "]".repeat(1_500_000);
  const deepYaml = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\ndata: ${nested}\n`;
  const deepJson =
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"},"data":${nested}}`;
  const entries = Array.from({ length: 60_000 }, (_, i) => [`key${i}`, `value ${i}`]);
  const flatYaml = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n${
    entries.map(([k, v]) => `  ${k}: "${v}"`).join("\n")
  }\n`;
  const flatJson = JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "f" },
    data: Object.fromEntries(entries),
  });
  const json = await stallOf(flatJson, "application/json");
  const deep = await stallOf(deepYaml, "application/yaml");
  const deepJ = await stallOf(deepJson, "application/json");
  const flat = await stallOf(flatYaml, "application/yaml");
  const b = "6 bodies (3 MB each)";
  return [
    {
      scenario: s6,
      metric: "server peak RSS, silent watchers vs none",
      ratio: rssRatio,
      value: `${mib(slow.peakRss)} vs ${mib(base.peakRss)} (idle ${
        mib(base.baseRss)
      }); ${slow.slowClosed} silent watches closed`,
      target: "<= 2x",
      pass: rssRatio <= 2,
    },
    {
      scenario: s6,
      metric: "write throughput, silent watchers vs none (whole run)",
      ratio: tputRatio,
      value: `${slow.writesPerSecond.toFixed(0)}/s vs ${base.writesPerSecond.toFixed(0)}/s`,
      target: "-",
    },
    {
      scenario: s6,
      metric: "same, second half (the silent watchers closed)",
      ratio: laterRatio,
      value: `${slow.laterWritesPerSecond.toFixed(0)}/s vs ${
        base.laterWritesPerSecond.toFixed(0)
      }/s`,
      target: ">= 0.8x",
      pass: laterRatio >= 0.8,
    },
    {
      scenario: s6,
      metric: "healthy watcher's lag p50 / p99",
      ratio: slow.lagP50 / base.lagP50,
      value: `${slow.lagP50.toFixed(1)} / ${slow.lagP99.toFixed(1)} ms vs ${
        base.lagP50.toFixed(1)
      } / ${base.lagP99.toFixed(1)} ms`,
      target: "-",
    },
    {
      scenario: b,
      metric: "event-loop stall: nested YAML (400) vs flat JSON write",
      ratio: deep.stallMs / json.stallMs,
      value: `${deep.stallMs} ms (${deep.status}) vs ${json.stallMs} ms (${json.status})`,
      target: "<= 1x",
      pass: deep.status === 400 && deep.stallMs <= json.stallMs,
    },
    {
      scenario: b,
      metric: "event-loop stall: nested JSON (400) vs flat JSON write",
      ratio: deepJ.stallMs / json.stallMs,
      value: `${deepJ.stallMs} ms (${deepJ.status})`,
      target: "<= 1x",
      pass: deepJ.status === 400 && deepJ.stallMs <= json.stallMs,
    },
    {
      scenario: b,
      metric: "event-loop stall: flat YAML write vs the same as JSON",
      ratio: flat.stallMs / json.stallMs,
      value: `${flat.stallMs} ms (${flat.status})`,
      target: "<= 1.5x",
      pass: flat.status === 201 && flat.stallMs <= 1.5 * json.stallMs,
    },
  ];
}
