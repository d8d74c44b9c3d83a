import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { filter, firstValueFrom, rx } from "../../lib/deps.ts";
import { connect, E, listWatch } from "../../mod.ts";
import { parseFaults, startApiServer } from "../../lib/apiserver/mod.ts";
import {
  createFaultInjector,
  seededRandom,
  validateFaults,
} from "../../lib/apiserver/faults/mod.ts";
import { parseCliArgs } from "../../lib/apiserver/cli.ts";

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const cm = (name: string) => ({ ...cmKind, metadata: { name, namespace: "default" } });
const cms = "/api/v1/namespaces/default/configmaps";

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function status(url: string, init?: RequestInit): Promise<number> {
  const res = await fetch(url, init);
  await res.body?.cancel();
  return res.status;
}

Deno.test("seededRandom() replays the same sequence in [0, 1) for the same seed", () => {
  fc.assert(
    fc.property(fc.integer(), fc.integer({ min: 1, max: 50 }), (seed, n) => {
      const a = seededRandom(seed), b = seededRandom(seed);
      for (let i = 0; i < n; i++) {
        const x = a();
        assert.equal(x, b());
        assert.ok(x >= 0 && x < 1);
      }
    }),
    { numRuns: 200 },
  );
  const r = seededRandom(1);
  const mean = Array.from({ length: 10_000 }, r).reduce((s, x) => s + x, 0) / 10_000;
  assert.ok(Math.abs(mean - 0.5) < 0.02, `mean ${mean}`);
});

Deno.test("parseFaults() reads JSON and key=value forms and names the bad key", () => {
  assert.deepEqual(parseFaults("seed=7,errorRate=0.1,latencyMs=5-20", 1), {
    _tag: "Right",
    right: { seed: 7, errorRate: 0.1, latencyMs: [5, 20] },
  });
  assert.deepEqual(parseFaults('{"throttleRate":0.5,"retryAfterSeconds":0}', 3), {
    _tag: "Right",
    right: { seed: 3, throttleRate: 0.5, retryAfterSeconds: 0 },
  });
  const bad = (text: string) => {
    const r = parseFaults(text, 0);
    assert.ok(E.isLeft(r), text);
    return r.left;
  };
  assert.match(bad("errorRate=2"), /faults\.errorRate: expected a probability in \[0, 1\], got 2/);
  assert.match(bad("bogus=1"), /faults\.bogus: unknown fault/);
  assert.match(bad("errorRate"), /expected key=value, got "errorRate"/);
  assert.match(bad("{nope"), /not valid JSON/);
  assert.match(
    bad('{"latencyMs":[9,1]}'),
    /faults\.latencyMs: expected a number >= 0 or \[min, max\]/,
  );
  assert.deepEqual(validateFaults({ seed: 1.5 }), ["faults.seed: expected an integer, got 1.5"]);
});

Deno.test("parseFaults() accepts every valid key=value spec it can print", () => {
  const rate = fc.double({ min: 0, max: 1, noNaN: true });
  fc.assert(
    fc.property(
      fc.record({ seed: fc.nat(), errorRate: rate, throttleRate: rate, watchDropRate: rate }),
      (o) => {
        const text = Object.entries(o).map(([k, v]) => `${k}=${v}`).join(",");
        assert.deepEqual(parseFaults(text, 0), { _tag: "Right", right: { ...o } });
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("the --faults CLI flag parses a spec and reports a bad one", () => {
  const ok = parseCliArgs(["--faults", "errorRate=0.5"], 99);
  assert.ok(ok.ok);
  assert.deepEqual(ok.args.faults, { seed: 99, errorRate: 0.5 });
  assert.deepEqual(parseCliArgs(["--faults=throttleRate=7"]), {
    ok: false,
    error: "--faults: faults.throttleRate: expected a probability in [0, 1], got 7",
  });
});

Deno.test("the fault injector makes the same decisions for the same seed and requests", async () => {
  const run = async (seed: number) => {
    const f = createFaultInjector(
      { seed, errorRate: 0.3, throttleRate: 0.2, retryAfterSeconds: 0 },
      {
        compact: () => {},
      },
    );
    const h = f.wrap(() => Promise.resolve(new Response("ok")));
    const codes: number[] = [];
    for (let i = 0; i < 200; i++) codes.push((await h(new Request("http://x/api/v1/pods"))).status);
    f.close();
    return codes;
  };
  const a = await run(5);
  assert.deepEqual(a, await run(5));
  assert.notDeepEqual(a, await run(6));
  const share = (c: number) => a.filter((x) => x === c).length / a.length;
  assert.ok(share(429) > 0.1 && share(429) < 0.3, `429 share ${share(429)}`);
  assert.ok(share(500) + share(503) > 0.2 && share(500) + share(503) < 0.4);
  assert.ok(share(200) > 0.4);
});

Deno.test("the fault injector never faults non-API paths and compacts on a virtual-time schedule", async () => {
  const scheduler = new rx.VirtualTimeScheduler();
  let compactions = 0;
  const f = createFaultInjector({ seed: 1, errorRate: 1, compactEveryMs: 1000 }, {
    compact: () => compactions++,
    scheduler,
  });
  const h = f.wrap(() => Promise.resolve(new Response("ok")));
  assert.equal((await h(new Request("http://x/healthz"))).status, 200);
  assert.equal((await h(new Request("http://x/version"))).status, 200);
  assert.ok((await h(new Request("http://x/apis/apps/v1"))).status >= 500);
  scheduler.maxFrames = 3500;
  scheduler.flush();
  assert.equal(compactions, 3);
  f.set({});
  scheduler.maxFrames = 10_000;
  scheduler.flush();
  assert.equal(compactions, 3, "set({}) stops the periodic compaction");
  assert.equal(f.counts().compaction, 3);
  f.close();
});

Deno.test("errorRate, throttleRate and latency fault real requests until cleared", async () => {
  const server = await startApiServer({ faults: { seed: 3, errorRate: 1 } });
  try {
    assert.ok([500, 503].includes(await status(`${server.url}${cms}`)));
    assert.equal(await status(`${server.url}/healthz`), 200);
    server.faults.set({ throttleRate: 1, retryAfterSeconds: 0 });
    const res = await fetch(`${server.url}${cms}`);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "0");
    assert.match((await res.json()).message, /injected fault: too many requests/);
    server.faults.set({ latencyMs: [60, 80] });
    const t0 = performance.now();
    assert.equal(await status(`${server.url}${cms}`), 200);
    assert.ok(performance.now() - t0 >= 55);
    server.faults.clear();
    assert.equal(await status(`${server.url}${cms}`), 200);
    const counts = server.faults.counts();
    assert.equal(counts.throttle, 1);
    assert.equal(counts.error500 + counts.error503, 1);
    assert.equal(counts.latency, 1);
  } finally {
    await server.close();
  }
});

Deno.test("the client rides out throttling and lost responses of writes surface as errors", async () => {
  const server = await startApiServer({ faults: { seed: 11 } });
  const c = await connect({
    kubeconfigYaml: server.kubeconfig,
    rateLimit: { qps: 10_000, burst: 10_000 },
    maxRetries: 50,
    retryBackoff: { initialMs: 1, maxMs: 5, jitter: 0 },
  });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  try {
    server.faults.set({ throttleRate: 0.5, retryAfterSeconds: 0 });
    for (let i = 0; i < 10; i++) {
      const got = await client.list(cmKind, { namespace: "default" });
      assert.ok(E.isRight(got), E.isLeft(got) ? got.left.message : "");
    }
    assert.ok(server.faults.counts().throttle > 0);
    server.faults.set({ lostResponseRate: 1 });
    const made = await client.create(cm("lost"));
    assert.ok(E.isLeft(made));
    assert.match(made.left.message, /response was lost/);
    server.faults.clear();
    const got = await client.get(cmKind, "lost", { namespace: "default" });
    assert.ok(E.isRight(got), "the write itself was committed");
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("dropped watches and forced compaction make listWatch re-watch and relist, missing nothing", async () => {
  const server = await startApiServer({ faults: { seed: 21 } });
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  const names = new Set<string>();
  const events$ = listWatch(client, cmKind, {
    namespace: "default",
    backoff: { initialMs: 1, maxMs: 10, jitter: 0 },
  });
  const sub = events$.subscribe((e) => {
    if ((e.type === "Apply" || e.type === "InitApply") && e.object) {
      const name = (e.object as { metadata: { name: string } }).metadata.name;
      // kube-root-ca.crt: the ConfigMap every namespace has.
      if (name !== "kube-root-ca.crt") names.add(name);
    }
  });
  try {
    await firstValueFrom(events$.pipe(filter((e) => e.type === "InitDone")));
    server.faults.set({ watchDropRate: 0.3 });
    for (let i = 0; i < 30; i++) {
      const made = await post(`${server.url}${cms}`, cm(`c${i}`));
      assert.equal(made.status, 201, await made.text());
      if (i === 15) server.faults.compactNow();
    }
    for (let i = 0; i < 200 && names.size < 30; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(names.size, 30);
    const counts = server.requestCounts();
    assert.ok(counts["watch configmaps"] > 2, `watches: ${counts["watch configmaps"]}`);
    assert.ok(server.faults.counts().watchDrop > 0);
    assert.equal(server.context.storage.hub.watcherCount() <= 2, true, "no leaked watchers");
  } finally {
    sub.unsubscribe();
    client.close();
    await server.close();
  }
});

Deno.test("a watch from before a forced compaction gets 410 Gone", async () => {
  const server = await startApiServer();
  try {
    const res = await post(`${server.url}${cms}`, cm("a"));
    const rv = (await res.json()).metadata.resourceVersion;
    await (await post(`${server.url}${cms}`, cm("b"))).body?.cancel();
    server.faults.compactNow();
    const w = await fetch(`${server.url}${cms}?watch=1&resourceVersion=${rv}`);
    const line = JSON.parse((await w.text()).trim());
    assert.equal(line.type, "ERROR");
    assert.equal(line.object.code, 410);
  } finally {
    await server.close();
  }
});

Deno.test("watchDropPerSecond drops idle watches and the client keeps watching", async () => {
  const server = await startApiServer({ faults: { seed: 2, watchDropPerSecond: 1 } });
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const applied: string[] = [];
  const sub = listWatch(c.right, cmKind, { backoff: { initialMs: 1, maxMs: 5, jitter: 0 } })
    .subscribe((e) => {
      if (e.type === "Apply") applied.push(e.object?.metadata?.name ?? "");
    });
  try {
    for (let i = 0; i < 100 && server.faults.counts().watchDrop < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(server.faults.counts().watchDrop >= 2);
    server.faults.clear();
    await (await post(`${server.url}${cms}`, cm("late"))).body?.cancel();
    for (let i = 0; i < 100 && !applied.includes("late"); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(applied, ["late"]);
  } finally {
    sub.unsubscribe();
    c.right.close();
    await server.close();
  }
});

Deno.test("a server restarted on the same port and data dir while a client runs is reached again", async () => {
  const dataDir = await Deno.makeTempDir();
  let server = await startApiServer({ dataDir });
  const port = Number(new URL(server.url).port);
  const c = await connect({
    kubeconfigYaml: server.kubeconfig,
    maxRetries: 30,
    retryBackoff: { initialMs: 10, maxMs: 50, jitter: 0 },
  });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  try {
    assert.ok(E.isRight(await client.create(cm("kept"))));
    await server.close();
    const pending = client.get(cmKind, "kept", { namespace: "default" });
    await new Promise((r) => setTimeout(r, 50));
    server = await startApiServer({ dataDir, port });
    const got = await pending;
    assert.ok(E.isRight(got), E.isLeft(got) ? got.left.message : "");
  } finally {
    client.close();
    await server.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
