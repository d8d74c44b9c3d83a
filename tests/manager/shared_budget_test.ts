/**
 * The manager's controllers share their client's request budget: a pushback the server gives
 * one controller's request slows the requests of the others too.
 */
import assert from "node:assert/strict";
import { E } from "../../lib/deps.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { connect } from "../../lib/client/connect.ts";
import { createRequestBudget, type RequestBudget } from "../../lib/client/create_request_budget.ts";
import { controller } from "../../lib/controller/controller_spec.ts";
import { startManager } from "../../lib/manager/start_manager.ts";

/** A controller that creates one `kind` object per ConfigMap whose name starts with `prefix`. */
const creator = (name: string, prefix: string, kind: "Secret" | "ServiceAccount") =>
  controller({
    name,
    for: { apiVersion: "v1", kind: "ConfigMap" },
    reconcile: (cm) =>
      E.right({
        ops: cm.metadata!.name!.startsWith(prefix)
          ? [{
            type: "create" as const,
            object: {
              apiVersion: "v1",
              kind,
              metadata: { name: cm.metadata!.name!, namespace: "default" },
            },
          }]
          : [],
      }),
  });

Deno.test("a 429 answered to one controller's write slows the writes of the manager's other controllers", async () => {
  const server = await startApiServer();
  const budget = createRequestBudget({ doublingMs: 500 }); // recovers fast: a short test
  /** What the budget saw, in order: acquires by kind of request (with the ms waited), pushbacks. */
  const seen: { flow?: string; waitedMs?: number; throttled?: true }[] = [];
  let throttledOnce: () => void = () => {};
  const throttled = new Promise<void>((r) => (throttledOnce = r));
  const recording: RequestBudget = {
    async acquire(signal, priority, flow) {
      const t0 = performance.now();
      const ok = await budget.acquire(signal, priority, flow);
      seen.push({ flow, waitedMs: performance.now() - t0 });
      return ok;
    },
    throttle(...args) {
      budget.throttle(...args);
      seen.push({ throttled: true });
      throttledOnce();
    },
    observe: (...args) => budget.observe(...args),
    get qps() {
      return budget.qps;
    },
  };
  // The server pushes back on the first Secret create (as API Priority and Fairness sheds).
  let shed = 1;
  const fetchShedding: typeof fetch = (input, init) => {
    const req = new Request(input, init);
    if (req.method === "POST" && new URL(req.url).pathname.endsWith("/secrets") && shed-- > 0) {
      return Promise.resolve(
        new Response("Too many requests", { status: 429, headers: { "retry-after": "0" } }),
      );
    }
    return fetch(req);
  };
  const c = await connect({
    kubeconfigYaml: server.kubeconfig,
    budget: recording,
    fetch: fetchShedding,
  });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  const manager = await startManager({
    client,
    controllers: [
      creator("secrets", "a-", "Secret"),
      creator("service-accounts", "b-", "ServiceAccount"),
    ],
  });
  try {
    await manager.ready;
    const cm = (name: string) =>
      client.create<KubeObject>({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, namespace: "default" },
      });
    assert.ok(E.isRight(await cm("a-1")));
    await throttled; // the "secrets" controller's create got the 429
    assert.ok(budget.qps < Infinity, "one pushback caps the shared budget");
    for (let i = 1; i <= 4; i++) assert.ok(E.isRight(await cm(`b-${i}`)));
    const made = async (kind: "Secret" | "ServiceAccount", name: string) => {
      for (;;) {
        const r = await client.get({ apiVersion: "v1", kind }, name, { namespace: "default" });
        if (E.isRight(r)) return;
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    await made("Secret", "a-1");
    for (let i = 1; i <= 4; i++) await made("ServiceAccount", `b-${i}`);
    // The other controller's creates drew from the budget the pushback capped, and waited.
    const after = seen.slice(seen.findIndex((s) => s.throttled));
    const serviceAccountCreates = after.filter((s) => s.flow === "POST v1/serviceaccounts");
    assert.equal(serviceAccountCreates.length, 4);
    assert.ok(
      serviceAccountCreates.some((s) => s.waitedMs! > 50),
      `paced: ${serviceAccountCreates.map((s) => s.waitedMs!.toFixed(0))} ms`,
    );
  } finally {
    await manager.stop();
    client.close();
    await server.close();
  }
});
