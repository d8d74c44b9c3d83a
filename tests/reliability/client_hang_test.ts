/**
 * Item 4 of the reliability issue: a client that cannot hang. Servers that accept and never
 * answer, or stall mid-body, fail requests after the timeouts; a silent watch is detected
 * and re-opened; a hung exec plugin is killed on timeout and when the program exits; one
 * `Retry-After: 30` delays only its own request and never the lease renewals; a server that
 * answers every watch with 410 gets relists at a backing-off pace.
 */
import assert from "node:assert/strict";
import { E } from "../../lib/deps.ts";
import { createClient } from "../../lib/client/create_client.ts";
import { connect } from "../../lib/client/connect.ts";
import { listWatch } from "../../lib/watch/list_watch.ts";
import { runLeaderElection } from "../../lib/leader/run_leader_election.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

const configMaps = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};
const plain = { tls: { insecureSkipVerify: false }, auth: { type: "none" as const } };

Deno.test("a server that accepts but never answers fails the request after the headers timeout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const c of listener) held.push(c); // accepted, never answered
  })();
  const client = createClient(
    { server: `http://127.0.0.1:${listener.addr.port}`, namespace: "default", ...plain },
    { timeouts: { headersTimeoutMs: 300 }, maxRetries: 0 },
  );
  try {
    const t0 = performance.now();
    const r = await client.get(configMaps, "a");
    assert.ok(E.isLeft(r));
    assert.equal(r.left.type, "network");
    assert.match(r.left.message, /no response within 300 ms/);
    assert.ok(performance.now() - t0 < 5_000);
  } finally {
    client.close();
    for (const c of held) c.close();
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("a server that stalls in the middle of a body fails the request after the body idle timeout", async () => {
  const stop = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () =>
    new Response(
      new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"kind":"ConfigMap","metadata":{"na'));
          stop.signal.addEventListener("abort", () => {
            try {
              c.close();
            } catch { /* the client went away */ }
          });
        },
      }),
      { headers: { "content-type": "application/json" } },
    ));
  const client = createClient(
    { server: `http://127.0.0.1:${server.addr.port}`, namespace: "default", ...plain },
    { timeouts: { bodyIdleTimeoutMs: 300 }, maxRetries: 0 },
  );
  try {
    const r = await client.get(configMaps, "a");
    assert.ok(E.isLeft(r));
    assert.match(r.left.message, /no data for 300 ms while reading the response/);
  } finally {
    client.close();
    stop.abort();
    await server.shutdown();
  }
});

Deno.test("a watch that goes silent is dropped by the idle watchdog and re-opened", async () => {
  let watches = 0;
  const hang = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    if (new URL(req.url).searchParams.get("watch") !== "true") {
      return Response.json({
        kind: "ConfigMapList",
        metadata: { resourceVersion: "5" },
        items: [],
      });
    }
    watches++;
    return new Response(
      new ReadableStream({
        start: (c) =>
          hang.signal.addEventListener("abort", () => {
            try {
              c.close();
            } catch { /* the client went away */ }
          }),
      }),
    );
  });
  const client = createClient(
    { server: `http://127.0.0.1:${server.addr.port}`, namespace: "default", ...plain },
  );
  const sub = listWatch(client, configMaps, {
    idleTimeoutMs: 150,
    backoff: { initialMs: 1, maxMs: 5, jitter: 0 },
  }).subscribe();
  try {
    for (let i = 0; i < 300 && watches < 3; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(watches >= 3, `re-watched after silence: ${watches} watches`);
  } finally {
    sub.unsubscribe();
    client.close();
    hang.abort();
    await server.shutdown();
  }
});

Deno.test("a server answering every watch with 410 gets relists at a backing-off pace, not a loop", async () => {
  let lists = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    if (new URL(req.url).searchParams.get("watch") !== "true") {
      lists++;
      return Response.json({
        kind: "ConfigMapList",
        metadata: { resourceVersion: "5" },
        items: [],
      });
    }
    const gone = {
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      message: "too old resource version: 5 (9)",
      reason: "Expired",
      code: 410,
    };
    return new Response(`${JSON.stringify({ type: "ERROR", object: gone })}\n`);
  });
  const client = createClient(
    { server: `http://127.0.0.1:${server.addr.port}`, namespace: "default", ...plain },
  );
  const sub = listWatch(client, configMaps, {
    backoff: { initialMs: 100, maxMs: 10_000, jitter: 0 },
  }).subscribe();
  try {
    await new Promise((r) => setTimeout(r, 1_000));
    // At once, then after 100, 200, 400 ms of backoff: 4 or 5 lists in a second (it was ~26).
    assert.ok(lists >= 2 && lists <= 6, `${lists} lists in one second`);
  } finally {
    sub.unsubscribe();
    client.close();
    await server.shutdown();
  }
});

/** A kubeconfig whose user runs an exec plugin that writes its pid to `pidFile` and hangs. */
async function hungPluginKubeconfig(dir: string, pidFile: string): Promise<string> {
  const path = `${dir}/config`;
  await Deno.writeTextFile(
    path,
    `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: sh,
  args: ["-c", "echo $$ > ${pidFile}; exec sleep 60"], interactiveMode: Never}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`,
  );
  return path;
}

const alive = (pid: number) => {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \([^)]*\) Z/.test(stat); // a zombie is dead
  } catch {
    return false;
  }
};

Deno.test("a hung exec plugin is killed after the exec timeout and the request fails naming it", async () => {
  if (Deno.build.os !== "linux") return;
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/pid`;
    const c = await connect({
      kubeconfig: await hungPluginKubeconfig(dir, pidFile),
      execTimeoutMs: 300,
      maxRetries: 0,
    });
    if (E.isLeft(c)) throw new Error(c.left.message);
    const r = await c.right.get(configMaps, "a");
    c.right.close();
    assert.ok(E.isLeft(r));
    assert.match(r.left.message, /exec plugin "sh": did not finish within 300 ms; killed it/);
    assert.ok(!alive(Number(await Deno.readTextFile(pidFile))), "the plugin process is gone");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a plugin still running when the program exits is killed with it, not orphaned", async () => {
  if (Deno.build.os !== "linux") return;
  const dir = await Deno.makeTempDir();
  try {
    const pidFile = `${dir}/pid`;
    const kubeconfig = await hungPluginKubeconfig(dir, pidFile);
    const script = `
      import { connect } from ${
      JSON.stringify(new URL("../../lib/client/connect.ts", import.meta.url).href)
    };
      const c = await connect({ kubeconfig: ${JSON.stringify(kubeconfig)} });
      if (c._tag === "Right") c.right.get({ group: "", version: "v1", plural: "configmaps", kind: "ConfigMap", namespaced: true }, "a");
      for (let i = 0; i < 200; i++) {
        try { Deno.statSync(${
      JSON.stringify(pidFile)
    }); break; } catch { await new Promise((r) => setTimeout(r, 10)); }
      }
      Deno.exit(0);
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const pid = Number(await Deno.readTextFile(pidFile));
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(!alive(pid), `plugin ${pid} outlived the program`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Retry-After: 30 on other requests never delays the lease renewals: the leader keeps leading", async () => {
  const api = createTestApi();
  const client = api.client({ maxRetries: 3 });
  // Every request of the controller's kind is throttled for 30 s, as in the attack.
  api.faults.throttle({ resource: "configmaps", retryAfterSeconds: 30, times: 1_000 });
  const transitions: boolean[] = [];
  const sub = runLeaderElection(client, {
    name: "ctl",
    identity: "a",
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    scheduler: api.clock.scheduler,
    random: () => 0.5,
  }).subscribe((leading) => transitions.push(leading));
  const busy = new AbortController();
  const worker = (async () => {
    while (!busy.signal.aborted) await client.get(configMaps, "x", { signal: busy.signal });
  })();
  try {
    await api.clock.advance(120_000);
    assert.deepEqual(transitions, [false, true], "acquired once, never lost");
    const lease = api.get({ apiVersion: "coordination.k8s.io/v1", kind: "Lease" }, "ctl");
    const renewed = Date.parse(String((lease?.spec as { renewTime?: string }).renewTime));
    assert.ok(api.clock.now() - renewed <= 2_000 + 1, "renewed within the last retry period");
    assert.ok((api.requestCounts()["get configmaps"] ?? 0) >= 3, "the throttled requests ran");
  } finally {
    busy.abort();
    sub.unsubscribe();
    await api.clock.advance(1_000);
    await worker;
    client.close();
  }
});
