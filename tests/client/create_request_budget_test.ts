/**
 * The request budget: no cap by default until the server pushes back, one share per API
 * Priority and Fairness level, a fixed cap when asked for; and the client's wiring of the
 * server's signals (429, Retry-After, `X-Kubernetes-PF-PriorityLevel-UID`).
 */
import assert from "node:assert/strict";
import { createRequestBudget, requestFlow } from "../../lib/client/create_request_budget.ts";
import { virtualTime } from "../../lib/testing/virtual_time.ts";
import { createClient, E } from "../../mod.ts";

/** Acquires at the current virtual instant; resolves with the ms it waited. */
async function waited(
  clock: ReturnType<typeof virtualTime>,
  acquire: () => Promise<boolean>,
): Promise<number> {
  const t0 = clock.now();
  let done = false;
  const p = acquire().then((ok) => (done = ok));
  await clock.advanceUntil(() => done, { withinMs: 60_000 });
  await p;
  return clock.now() - t0;
}

Deno.test("the default budget lets every request go at once while the server does not push back", async () => {
  const clock = virtualTime();
  const budget = createRequestBudget({ scheduler: clock.scheduler });
  for (let i = 0; i < 5_000; i++) assert.equal(await budget.acquire(), true);
  assert.equal(budget.qps, Infinity);
  assert.equal(clock.now(), 0);
});

Deno.test("after a pushback the default budget paces at half the rate it sent, then lifts the cap", async () => {
  const clock = virtualTime();
  const budget = createRequestBudget({ scheduler: clock.scheduler });
  for (let ms = 0; ms < 2_000; ms += 5) { // 200 requests/s
    clock.advanceTo(ms);
    await budget.acquire();
  }
  budget.throttle();
  assert.equal(budget.qps, 100);
  const gaps: number[] = [];
  for (let i = 0; i < 20; i++) gaps.push(await waited(clock, () => budget.acquire()));
  // One per 10 ms at first; the cap climbs meanwhile (doubling every 2 s), so a little less.
  assert.ok(gaps.every((g) => g > 9 && g <= 10 + 1e-9), `about one per 10 ms: ${gaps}`);
  const throttledAt = clock.now() - gaps.reduce((a, b) => a + b, 0);
  clock.advanceTo(throttledAt + 2_000);
  assert.ok(Math.abs(budget.qps - 200) < 1e-9, `${budget.qps}`);
  clock.advanceTo(throttledAt + 2_100);
  assert.ok(budget.qps < Infinity); // 207/s: not yet past twice the 200/s that drew it
  clock.advanceTo(throttledAt + 4_000);
  assert.equal(budget.qps, Infinity); // 400/s: past twice the rate that drew the pushback
  assert.equal(await waited(clock, () => budget.acquire()), 0);
});

Deno.test("a pushback in one API Priority and Fairness level slows only the kinds of request seen in it", async () => {
  const clock = virtualTime();
  const budget = createRequestBudget({ scheduler: clock.scheduler });
  const lists = requestFlow("GET", "/api/v1/pods");
  const writes = requestFlow("PATCH", "/apis/app.example.com/v1/namespaces/a/podsets/p/status");
  budget.observe(lists, "workload-low");
  budget.observe(writes, "workload-high");
  for (let i = 0; i < 10; i++) {
    await budget.acquire(undefined, "normal", lists);
    await budget.acquire(undefined, "normal", writes);
  }
  budget.throttle("normal", lists, "workload-low");
  assert.ok((await waited(clock, () => budget.acquire(undefined, "normal", lists))) > 0);
  assert.equal(await waited(clock, () => budget.acquire(undefined, "normal", writes)), 0);
  assert.equal(await waited(clock, () => budget.acquire(undefined, "leader-election")), 0);
});

Deno.test("an explicit qps and burst is a fixed cap (a token bucket)", async () => {
  const clock = virtualTime();
  const budget = createRequestBudget({ qps: 10, burst: 2, scheduler: clock.scheduler });
  assert.equal(budget.qps, 10);
  const waits = [];
  for (let i = 0; i < 4; i++) waits.push(await waited(clock, () => budget.acquire()));
  assert.deepEqual(waits, [0, 0, 100, 100]);
});

Deno.test("requestFlow() names a request by method, group/version and resource", () => {
  assert.equal(requestFlow("GET", "/api/v1/namespaces/default/pods/p1"), "GET v1/pods");
  assert.equal(requestFlow("POST", "/api/v1/namespaces/default/pods"), "POST v1/pods");
  assert.equal(requestFlow("GET", "/api/v1/namespaces"), "GET v1/namespaces");
  assert.equal(requestFlow("DELETE", "/api/v1/namespaces/team"), "DELETE v1/namespaces");
  assert.equal(
    requestFlow("PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l"),
    "PUT coordination.k8s.io/v1/leases",
  );
  assert.equal(
    requestFlow("PATCH", "/apis/apps/v1/namespaces/a/deployments/web/scale"),
    "PATCH apps/v1/deployments/scale",
  );
  assert.equal(requestFlow("GET", "/version"), "GET /version");
});

/** A fake server: 429 (with a PF level) for ConfigMaps until `calm`, 200 for the rest. */
function fakeServer(answer429: () => Response | undefined) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    const level = url.pathname.includes("configmaps") ? "uid-low" : "uid-high";
    const headers = { "x-kubernetes-pf-prioritylevel-uid": level };
    if (level === "uid-low") {
      const r = answer429();
      if (r) {
        for (const [k, v] of Object.entries(headers)) r.headers.set(k, v);
        return r;
      }
    }
    return Response.json({ apiVersion: "v1", kind: "Secret", metadata: { name: "a" } }, {
      headers,
    });
  });
  const client = (budget: ReturnType<typeof createRequestBudget>) =>
    createClient({
      server: `http://127.0.0.1:${server.addr.port}`,
      namespace: "default",
      tls: { insecureSkipVerify: false },
      auth: { type: "none" },
    }, { retryBackoff: { initialMs: 1, maxMs: 1 }, maxRetries: 0, budget });
  return { client, close: () => server.shutdown() };
}

const configMaps = {
  group: "",
  version: "v1",
  plural: "configmaps",
  kind: "ConfigMap",
  namespaced: true,
};
const secrets = { ...configMaps, plural: "secrets", kind: "Secret" };

/** Whether `p` settles within `ms` of real time. */
const settlesWithin = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

Deno.test("the client throttles the priority level a 429 names, and not the others", async () => {
  const budget = createRequestBudget();
  const fake = fakeServer(() =>
    new Response("Too many requests, please try again later.", {
      status: 429,
      headers: { "retry-after": "0" },
    })
  );
  const client = fake.client(budget);
  try {
    assert.ok(E.isRight(await client.get(secrets, "a")));
    assert.ok(E.isLeft(await client.get(configMaps, "a"))); // 429: the "uid-low" share slows
    const flow = requestFlow("GET", "/api/v1/namespaces/default/configmaps/a");
    assert.equal(await settlesWithin(budget.acquire(undefined, "normal", flow), 200), false);
    assert.ok(E.isRight(await client.get(secrets, "a"))); // "uid-high": at once
    assert.equal(budget.qps, Infinity); // requests of no known level are not slowed either
  } finally {
    client.close();
    await fake.close();
  }
});

Deno.test("a 429 that refuses an eviction (PodDisruptionBudget) is an answer, not a pushback", async () => {
  const budget = createRequestBudget();
  const fake = fakeServer(() =>
    Response.json({
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: "TooManyRequests",
      details: { causes: [{ reason: "DisruptionBudget", message: "needs 1 healthy pod" }] },
      code: 429,
    }, { status: 429 })
  );
  const client = fake.client(budget);
  try {
    const r = await client.get(configMaps, "a");
    assert.ok(E.isLeft(r) && r.left.type === "status" && r.left.code === 429);
    const flow = requestFlow("GET", "/api/v1/namespaces/default/configmaps/a");
    assert.equal(await settlesWithin(budget.acquire(undefined, "normal", flow), 200), true);
  } finally {
    client.close();
    await fake.close();
  }
});
