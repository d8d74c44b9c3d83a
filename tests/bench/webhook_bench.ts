/**
 * The latency a webhook adds to a write, against the same write with no webhook in the same
 * run: sequential `POST`s of a ConfigMap to embedded API servers with no webhook configured
 * (the baseline), with one validating webhook, and with a mutating plus a validating webhook
 * (kubefold's webhook server on this machine, HTTPS with a generated CA); and a PodSet
 * written as v1alpha1 into its CRD stored as v1 (the conversion webhook called to the storage
 * version and back). Writes are interleaved round-robin so drift hits every row alike.
 *
 *   deno run -A --lock=tests/deno.lock tests/bench/webhook_bench.ts [--rounds=N]
 *
 * Target: one validating webhook adds under 2 ms (median) to a write. Exits 1 otherwise.
 * Under `deno bench` this file registers nothing.
 *
 * @module
 */
import { startApiServer } from "../../lib/apiserver/mod.ts";
import {
  allowed,
  type Client,
  connect,
  E,
  installWebhooks,
  type KubeObject,
  mutated,
  serveWebhooks,
  type Webhook,
} from "../../mod.ts";
import { podSetCrdV1, podSetWebhooks } from "../../controllers/podset/mod.ts";

const configMaps = { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" };
const validating: Webhook = { type: "validating", for: configMaps, validate: () => allowed() };
const mutating: Webhook = {
  type: "mutating",
  for: configMaps,
  mutate: (req) =>
    mutated({ ...req.object, metadata: { ...req.object!.metadata, labels: { team: "a" } } }),
};

async function cluster(webhooks: readonly Webhook[], crds: readonly KubeObject[] = []) {
  const server = await startApiServer();
  const hooks = webhooks.length
    ? await serveWebhooks(webhooks, { port: 0, hostname: "127.0.0.1" })
    : undefined;
  const client = ((await connect({ kubeconfigYaml: server.kubeconfig })) as E.Right<Client>).right;
  const r = await installWebhooks(client, webhooks, {
    endpoint: { url: hooks?.url ?? "https://127.0.0.1:1" },
    caCert: hooks?.caCert,
    crds: crds as never,
  });
  if (E.isLeft(r)) throw new Error(r.left.message);
  let n = 0;
  return {
    /** One create over HTTP; its duration in ms. */
    async post(path: string, body: (name: string) => unknown): Promise<number> {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body(`o${n++}`)),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`${res.status} ${text}`);
      return performance.now() - t0;
    },
    async close() {
      client.close();
      await hooks?.close();
      await server.close();
    },
  };
}

const configMap = (name: string) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  data: { a: "1" },
});
const podSet = (name: string) => ({
  apiVersion: "app.example.com/v1alpha1",
  kind: "PodSet",
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: "a" } },
    template: {
      metadata: { labels: { app: "a" } },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    },
  },
});
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(q * xs.length)];

async function main(): Promise<number> {
  const rounds = Number(Deno.args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 500);
  const cms = "/api/v1/namespaces/default/configmaps";
  const rows = [
    {
      name: "create ConfigMap, no webhook (baseline)",
      c: await cluster([]),
      path: cms,
      body: configMap,
    },
    {
      name: "create ConfigMap, 1 validating webhook",
      c: await cluster([validating]),
      path: cms,
      body: configMap,
    },
    {
      name: "create ConfigMap, mutating + validating",
      c: await cluster([mutating, validating]),
      path: cms,
      body: configMap,
    },
    {
      name: "create PodSet v1alpha1, stored as v1",
      c: await cluster(podSetWebhooks.filter((w) => w.type === "conversion"), [
        podSetCrdV1 as unknown as KubeObject,
      ]),
      path: "/apis/app.example.com/v1alpha1/namespaces/default/podsets",
      body: podSet,
    },
  ];
  const times = rows.map(() => [] as number[]);
  for (let i = 0; i < rounds + 50; i++) {
    for (const [k, r] of rows.entries()) {
      const ms = await r.c.post(r.path, r.body);
      if (i >= 50) times[k].push(ms); // the first 50 rounds warm up
    }
  }
  const base = quantile(times[0], 0.5);
  console.log(`webhook latency, ${rounds} writes per row, same run (ms):`);
  console.log("row".padEnd(42), "median", "   p90", "  added", " ratio");
  for (const [k, r] of rows.entries()) {
    const med = quantile(times[k], 0.5);
    console.log(
      r.name.padEnd(42),
      med.toFixed(3).padStart(6),
      quantile(times[k], 0.9).toFixed(3).padStart(6),
      (med - base).toFixed(3).padStart(7),
      `${(med / base).toFixed(2)}x`.padStart(6),
    );
  }
  const added = quantile(times[1], 0.5) - base;
  const pass = added < 2;
  console.log(
    `${pass ? "PASS" : "FAIL"}: one validating webhook adds ${added.toFixed(3)} ms (target < 2 ms)`,
  );
  for (const r of rows) await r.c.close();
  return pass ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
