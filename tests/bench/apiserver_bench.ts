/**
 * Benchmarks of the embedded API server, each against a baseline in the same group:
 * - start-up: `startApiServer()` + first `GET /version` + close, vs a bare `Deno.serve`;
 * - LIST of 10,000 pods, whole and in `limit=500` pages, vs `JSON.stringify` of the same pods;
 * - one write fanned out to 100 watchers (write until all 100 streams got the event), vs a
 *   bare server pushing one line to 100 streaming responses.
 *
 * Target: start-up under 50 ms median on a 2-core machine.
 */
import { startApiServer } from "../../lib/apiserver/mod.ts";
import type { KubeObject } from "../../mod.ts";
import { createObject } from "../../lib/apiserver/object_write.ts";

const PODS = 10_000;
const WATCHERS = 100;

// ---- start-up ---------------------------------------------------------------------------

Deno.bench({
  name: "bare Deno.serve + first request + shutdown",
  group: "start-up",
  baseline: true,
  async fn() {
    const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
    const server = Deno.serve({
      port: 0,
      hostname: "127.0.0.1",
      onListen: (a) => resolve(a as Deno.NetAddr),
    }, () => new Response('{"major":"1"}'));
    const addr = await promise;
    await (await fetch(`http://127.0.0.1:${addr.port}/version`)).text();
    await server.shutdown();
  },
});

Deno.bench({
  name: "startApiServer() + first GET /version + close",
  group: "start-up",
  async fn() {
    const server = await startApiServer();
    await (await fetch(`${server.url}/version`)).text();
    await server.close();
  },
});

// ---- LIST of 10,000 pods --------------------------------------------------------------------

function pod(i: number): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: `pod-${i}`, namespace: "default", labels: { app: `app-${i % 100}` } },
    spec: {
      nodeName: `node-${i % 20}`,
      containers: [{
        name: "main",
        image: "registry.example/app:1.0",
        ports: [{ containerPort: 8080 }],
      }],
    },
  };
}

const listServer = await startApiServer();
const podInfo = listServer.context.registry.lookup("", "v1", "pods")!;
for (let i = 0; i < PODS; i++) createObject(listServer.context, podInfo, "default", pod(i));
const podsUrl = `${listServer.url}/api/v1/namespaces/default/pods`;
const storedPods = (await (await fetch(podsUrl)).json()).items as KubeObject[];
if (storedPods.length !== PODS) throw new Error(`Cannot bench list: ${storedPods.length} pods`);

Deno.bench({
  name: "JSON.stringify of the same 10,000 pods",
  group: "list 10k pods",
  baseline: true,
  fn() {
    JSON.stringify({ kind: "PodList", apiVersion: "v1", metadata: {}, items: storedPods });
  },
});

Deno.bench({
  name: "GET /pods: one list of 10,000 (body read, not parsed)",
  group: "list 10k pods",
  async fn() {
    const body = await (await fetch(podsUrl)).arrayBuffer();
    if (body.byteLength < PODS * 100) throw new Error("Cannot bench list: body too short");
  },
});

Deno.bench({
  name: "GET /pods?limit=500: 20 pages (each page parsed for its continue token)",
  group: "list 10k pods",
  async fn() {
    let token = "";
    let seen = 0;
    do {
      const cont = token ? `&continue=${encodeURIComponent(token)}` : "";
      const page = await (await fetch(`${podsUrl}?limit=500${cont}`)).json();
      seen += page.items.length;
      token = page.metadata.continue ?? "";
    } while (token);
    if (seen !== PODS) throw new Error(`Cannot bench pagination: saw ${seen} pods`);
  },
});

// ---- one change fanned out to 100 watchers ----------------------------------------------------

/** Reads newline-delimited lines from streams and resolves waiters when a line matches. */
function follow(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): void {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: "", done: true }));
      if (done) return;
      buffer += value;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    }
  })();
}

/** Counts how many of `n` streams have seen a line containing `token`. */
function fanIn(n: number) {
  let want = "";
  let got = 0;
  let done = () => {};
  return {
    onLine(line: string) {
      if (want && line.includes(want) && ++got === n) done();
    },
    expect(token: string): Promise<void> {
      want = token;
      got = 0;
      return new Promise((r) => done = r);
    },
  };
}

const watchServer = await startApiServer();
const cmUrl = `${watchServer.url}/api/v1/namespaces/default/configmaps`;
const created = await (await fetch(cmUrl, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fan" } }),
})).json();
const watchFan = fanIn(WATCHERS);
for (let i = 0; i < WATCHERS; i++) {
  const res = await fetch(
    `${cmUrl}?watch=true&resourceVersion=${created.metadata.resourceVersion}`,
  );
  follow(res.body!, watchFan.onLine);
}
// The baseline's own 100 streams, kept open by a bare Deno.serve.
const bareControllers: ReadableStreamDefaultController<Uint8Array>[] = [];
const bareFan = fanIn(WATCHERS);
const bare = await new Promise<Deno.NetAddr>((resolve) =>
  Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: (a) => resolve(a as Deno.NetAddr) },
    () =>
      new Response(
        new ReadableStream<Uint8Array>({ start: (c) => void bareControllers.push(c) }),
        { headers: { "content-type": "application/json" } },
      ),
  )
);
for (let i = 0; i < WATCHERS; i++) {
  follow((await fetch(`http://127.0.0.1:${bare.port}/watch`)).body!, bareFan.onLine);
}
let writes = 0;

Deno.bench({
  name: "bare server: one line pushed to 100 streaming responses",
  group: "fan-out to 100 watchers",
  baseline: true,
  async fn() {
    const token = `tick-${++writes}`;
    const arrived = bareFan.expect(token);
    const line = new TextEncoder().encode(`{"type":"MODIFIED","token":"${token}"}\n`);
    for (const c of bareControllers) c.enqueue(line);
    await arrived;
  },
});

Deno.bench({
  name: "PATCH one configmap until all 100 watch streams got the event",
  group: "fan-out to 100 watchers",
  async fn() {
    const value = `v${++writes}`;
    const arrived = watchFan.expect(`"${value}"`);
    const res = await fetch(`${cmUrl}/fan`, {
      method: "PATCH",
      headers: { "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ data: { k: value } }),
    });
    await res.body?.cancel();
    await arrived;
  },
});
