/**
 * The client's default budget against a fake server, its clock virtual: Retry-After on a 5xx
 * slows it as a 429 does, a plain 500 does not, it lifts its cap once the server stops
 * pushing back, and an explicit `rateLimit` is a fixed cap that paces every request.
 */
import assert from "node:assert/strict";
import { createRequestBudget, type RequestBudget } from "../../lib/client/create_request_budget.ts";
import { virtualTime } from "../../lib/testing/virtual_time.ts";
import { type Client, createClient, E } from "../../mod.ts";

const secrets = {
  group: "",
  version: "v1",
  plural: "secrets",
  kind: "Secret",
  namespaced: true,
};

/** A fake server that answers what `answer` returns (default 200) and counts requests. */
function fakeServer() {
  let answer: () => Response | undefined = () => undefined;
  let served = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, () => {
    served++;
    return answer() ??
      Response.json({ apiVersion: "v1", kind: "Secret", metadata: { name: "a" } });
  });
  return {
    answerWith: (f: () => Response | undefined) => void (answer = f),
    served: () => served,
    client: (options: Parameters<typeof createClient>[1]): Client =>
      createClient({
        server: `http://127.0.0.1:${server.addr.port}`,
        namespace: "default",
        tls: { insecureSkipVerify: false },
        auth: { type: "none" },
      }, { maxRetries: 0, ...options }),
    close: () => server.shutdown(),
  };
}

Deno.test("Retry-After on a 503 slows the default budget as a 429 does; a 500 without it does not", async () => {
  const clock = virtualTime();
  const budget = createRequestBudget({ scheduler: clock.scheduler });
  const fake = fakeServer();
  const client = fake.client({ budget, scheduler: clock.scheduler });
  try {
    fake.answerWith(() => new Response("boom", { status: 500 }));
    assert.ok(E.isLeft(await client.get(secrets, "a")));
    assert.equal(budget.qps, Infinity); // a server error is not a pushback
    fake.answerWith(() => new Response("busy", { status: 503, headers: { "retry-after": "1" } }));
    assert.ok(E.isLeft(await client.get(secrets, "a")));
    assert.ok(budget.qps < Infinity, `capped after Retry-After: ${budget.qps}`);
  } finally {
    client.close();
    await fake.close();
  }
});

Deno.test("the default budget lifts its cap once the server stops pushing back", async () => {
  const clock = virtualTime();
  const budget = createRequestBudget({ scheduler: clock.scheduler });
  let granted = 0; // requests the budget let go
  const counted: RequestBudget = {
    acquire: (...args) => budget.acquire(...args).then((ok) => (ok && granted++, ok)),
    throttle: (...args) => budget.throttle(...args),
    observe: (...args) => budget.observe(...args),
    get qps() {
      return budget.qps;
    },
  };
  const fake = fakeServer();
  const client = fake.client({ budget: counted, scheduler: clock.scheduler });
  try {
    for (let i = 0; i < 10; i++) assert.ok(E.isRight(await client.get(secrets, "a")));
    fake.answerWith(() => new Response("slow down", { status: 429 }));
    assert.ok(E.isLeft(await client.get(secrets, "a")));
    fake.answerWith(() => undefined);
    assert.ok(budget.qps < Infinity);
    // Capped at half the rate it was sending (11 requests in the first second): 20 requests
    // at one instant take seconds of virtual time, none of them going at once.
    const before = granted;
    const paced = Array.from({ length: 20 }, () => client.get(secrets, "a"));
    await clock.advance(0);
    assert.equal(granted, before);
    await clock.advanceUntil(() => granted === before + 20, { withinMs: 10_000 });
    await Promise.all(paced);
    assert.ok(clock.now() >= 2_000, `20 requests paced over ${clock.now()} ms`);
    // Some more seconds without pushback: the cap lifts, every request goes at once.
    assert.ok(budget.qps < Infinity);
    await clock.advance(4_000);
    assert.equal(budget.qps, Infinity);
    const lifted = fake.served();
    const results = await Promise.all(Array.from({ length: 50 }, () => client.get(secrets, "a")));
    assert.ok(results.every(E.isRight));
    assert.equal(fake.served() - lifted, 50);
  } finally {
    client.close();
    await fake.close();
  }
});

Deno.test("an explicit rateLimit is a fixed cap: requests are paced at its qps after the burst", async () => {
  const clock = virtualTime();
  const fake = fakeServer();
  const client = fake.client({ rateLimit: { qps: 10, burst: 2 }, scheduler: clock.scheduler });
  try {
    const gets = Array.from({ length: 5 }, () => client.get(secrets, "a"));
    await Promise.all([gets[0], gets[1]]); // the burst: no virtual time passed
    assert.equal(clock.now(), 0);
    assert.equal(fake.served(), 2);
    for (let n = 3; n <= 5; n++) {
      await clock.advance(100); // one token per 100 ms
      await gets[n - 1];
      assert.equal(fake.served(), n);
    }
  } finally {
    client.close();
    await fake.close();
  }
});
