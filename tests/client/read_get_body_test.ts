/**
 * A GET's body is read in the runtime under a deadline of the body idle timeout; a slow one is
 * requested again and read under the idle guard. Error bodies of watches are guarded too.
 */
import assert from "node:assert/strict";
import { E } from "../../lib/deps.ts";
import { createClient } from "../../lib/client/create_client.ts";

const configMaps = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};
const plain = { tls: { insecureSkipVerify: false }, auth: { type: "none" as const } };
const encoder = new TextEncoder();

/** A server whose GETs answer `chunks`, one every `everyMs`; counts requests. */
function dripServer(chunks: readonly string[], everyMs: number, idleMs = 150) {
  const seen = { requests: 0 };
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () => {
    seen.requests++;
    let i = 0;
    return new Response(
      new ReadableStream({
        start(c) {
          const next = () => {
            if (i === chunks.length) return c.close();
            c.enqueue(encoder.encode(chunks[i++]));
            const t = setTimeout(() => {
              timers.delete(t);
              try {
                next();
              } catch { /* the client went away */ }
            }, everyMs);
            timers.add(t);
          };
          next();
        },
      }),
      { headers: { "content-type": "application/json" } },
    );
  });
  const client = createClient(
    { server: `http://127.0.0.1:${server.addr.port}`, namespace: "default", ...plain },
    { timeouts: { bodyIdleTimeoutMs: idleMs }, maxRetries: 0 },
  );
  return {
    seen,
    client,
    close: async () => {
      client.close();
      for (const t of timers) clearTimeout(t);
      await server.shutdown();
    },
  };
}

const object = '{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}';
const pieces = (n: number) => {
  const size = Math.ceil(object.length / n);
  return Array.from({ length: n }, (_, i) => object.slice(i * size, (i + 1) * size));
};

Deno.test("a GET whose body arrives at once is requested once", async () => {
  const s = dripServer([object], 0);
  try {
    const r = await s.client.get(configMaps, "a");
    assert.deepEqual(E.isRight(r) && r.right, JSON.parse(object));
    assert.equal(s.seen.requests, 1);
  } finally {
    await s.close();
  }
});

Deno.test("a slow but steady GET body outlasting the idle timeout is read whole on a guarded second request", async () => {
  // 6 pieces 60 ms apart: 300 ms in all, never 150 ms without data.
  const s = dripServer(pieces(6), 60);
  try {
    const r = await s.client.get(configMaps, "a");
    assert.ok(E.isRight(r), E.isLeft(r) ? r.left.message : "");
    assert.deepEqual(r.right, JSON.parse(object));
    assert.equal(s.seen.requests, 2);
  } finally {
    await s.close();
  }
});

Deno.test("a GET body that stops arriving fails naming the idle timeout after the second request", async () => {
  const s = dripServer([object.slice(0, 10), ...Array(100).fill(" ")], 10_000);
  try {
    const r = await s.client.get(configMaps, "a");
    assert.ok(E.isLeft(r));
    assert.equal(r.left.type, "network");
    assert.match(r.left.message, /^Cannot get: reading the response failed: no data for 150 ms/);
    assert.equal(s.seen.requests, 2);
  } finally {
    await s.close();
  }
});

Deno.test("a GET aborted while its body arrives is aborted at once, not sent again", async () => {
  const s = dripServer(pieces(6), 60, 5_000);
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 90);
  try {
    const t0 = performance.now();
    const r = await s.client.get(configMaps, "a", { signal: abort.signal });
    assert.ok(E.isLeft(r));
    assert.equal(r.left.type, "aborted");
    assert.ok(performance.now() - t0 < 2_500, "the abort waited for the body's deadline");
    assert.equal(s.seen.requests, 1);
  } finally {
    await s.close();
  }
});

Deno.test("a watch answered with an error whose body stalls fails after the idle timeout", async () => {
  const stop = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () =>
    new Response(
      new ReadableStream({
        start(c) {
          c.enqueue(encoder.encode('{"kind":"Status","code":500,'));
          stop.signal.addEventListener("abort", () => {
            try {
              c.close();
            } catch { /* the client went away */ }
          });
        },
      }),
      { status: 500, headers: { "content-type": "application/json" } },
    ));
  const client = createClient(
    { server: `http://127.0.0.1:${server.addr.port}`, namespace: "default", ...plain },
    { timeouts: { bodyIdleTimeoutMs: 150 }, maxRetries: 0 },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const hung = new Promise<"hung">((r) => timer = setTimeout(() => r("hung"), 3_000));
    const r = await Promise.race([client.watch(configMaps, {}), hung]);
    assert.notEqual(r, "hung", "the watch's error body was read without a guard");
    assert.ok(r !== "hung" && E.isLeft(r));
    assert.equal(r.left.type, "status");
  } finally {
    clearTimeout(timer);
    client.close();
    stop.abort();
    await server.shutdown();
  }
});
