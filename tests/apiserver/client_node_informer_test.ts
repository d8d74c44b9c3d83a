/**
 * The official `@kubernetes/client-node` informer against the embedded API server: it lists,
 * then follows adds, updates and deletes made over plain HTTP.
 */
import assert from "node:assert/strict";
// Test-only dependency, pinned exactly (lib/ must not depend on the client it serves).
// deno-lint-ignore no-import-prefix
import * as k8s from "npm:@kubernetes/client-node@2.0.1";
import { startApiServer } from "../../lib/apiserver/mod.ts";

type Event = { type: "add" | "update" | "delete"; name: string; data?: Record<string, string> };

async function send(url: string, method: string, body: unknown, contentType: string) {
  const res = await fetch(url, {
    method,
    headers: { "content-type": contentType },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${url}: ${res.status} ${text}`);
}

/** Resolves once `events` holds an entry matching `want`, polling the array every 5 ms. */
async function eventually(events: Event[], want: (e: Event) => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  while (!events.some(want)) {
    if (Date.now() > deadline) {
      throw new Error(`informer never saw ${what}: ${JSON.stringify(events)}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

Deno.test({
  name: "client-node 2.0.1 makeInformer lists configmaps and follows adds, updates and deletes",
  // client-node's Watch arms a heartbeat timer per received chunk (dist/watch.js `resetTimer`)
  // that outlives informer.stop(); that is the client's, not a leak of the server under test,
  // so the sanitizers are off for this test only.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const server = await startApiServer();
    const collection = `${server.url}/api/v1/namespaces/default/configmaps`;
    const informerErrors: unknown[] = [];
    let informer: (k8s.Informer<k8s.V1ConfigMap> & k8s.ObjectCache<k8s.V1ConfigMap>) | undefined;
    try {
      for (const name of ["cm-a", "cm-b"]) {
        await send(collection, "POST", {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name },
          data: { v: "0" },
        }, "application/json");
      }

      const kc = new k8s.KubeConfig();
      kc.loadFromString(server.kubeconfig);
      // client-node 2.x refuses plain http:// servers unless the cluster entry skips TLS
      // verification; the server's kubeconfig has no such entry, so set it here.
      kc.loadFromOptions({
        clusters: kc.clusters.map((c) => ({ ...c, skipTLSVerify: true })),
        users: kc.users,
        contexts: kc.contexts,
        currentContext: kc.currentContext,
      });
      const core = kc.makeApiClient(k8s.CoreV1Api);
      informer = k8s.makeInformer(
        kc,
        "/api/v1/namespaces/default/configmaps",
        () => core.listNamespacedConfigMap({ namespace: "default" }),
      );
      const events: Event[] = [];
      const record = (type: Event["type"]) => (o: k8s.V1ConfigMap) =>
        events.push({ type, name: o.metadata!.name!, data: o.data });
      informer.on("add", record("add"));
      informer.on("update", record("update"));
      informer.on("delete", record("delete"));
      informer.on("error", (e) => informerErrors.push(e));
      await informer.start();

      const listed = informer.list().map((o) => o.metadata?.name).sort();
      assert.deepEqual(listed, ["cm-a", "cm-b", "kube-root-ca.crt"]);
      await eventually(events, (e) => e.type === "add" && e.name === "cm-b", "the listed cm-b");

      await send(collection, "POST", {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "cm-c" },
        data: { v: "1" },
      }, "application/json");
      await eventually(events, (e) => e.type === "add" && e.name === "cm-c", "cm-c added");

      await send(
        `${collection}/cm-a`,
        "PATCH",
        { data: { v: "2" } },
        "application/merge-patch+json",
      );
      await eventually(
        events,
        (e) => e.type === "update" && e.name === "cm-a" && e.data?.v === "2",
        "cm-a updated",
      );
      assert.equal(informer.get("cm-a", "default")?.data?.v, "2");

      await send(`${collection}/cm-b`, "DELETE", undefined, "application/json");
      await eventually(events, (e) => e.type === "delete" && e.name === "cm-b", "cm-b deleted");
      assert.deepEqual(informer.list().map((o) => o.metadata?.name).sort(), [
        "cm-a",
        "cm-c",
        "kube-root-ca.crt",
      ]);
      assert.deepEqual(informerErrors, []);
      const counts = server.requestCounts();
      assert.ok((counts["list configmaps"] ?? 0) >= 1, JSON.stringify(counts));
      assert.ok((counts["watch configmaps"] ?? 0) >= 1, JSON.stringify(counts));
    } finally {
      await informer?.stop();
      await server.close();
    }
  },
});
