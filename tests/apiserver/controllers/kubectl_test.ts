import assert from "node:assert/strict";
import { configMap, withApi } from "../_api.ts";
import { createKubectl, kubectlAvailable } from "../_kubectl.ts";
import { ownerRef, pod, until } from "./_until.ts";

const ignore = !kubectlAvailable();
const cms = "/api/v1/namespaces/default/configmaps";
const sim = { simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 20 } };

Deno.test({
  name:
    "kubectl get pods -o wide shows the simulated node and pod IP; wait --for=condition=Ready works",
  ignore,
  fn: () =>
    withApi(async (api) => {
      const k = await createKubectl(api.server.kubeconfig);
      try {
        await api.post("/api/v1/namespaces/default/pods", pod("web"));
        const wait = await k.run(["wait", "--for=condition=Ready", "pod/web", "--timeout=10s"]);
        assert.equal(wait.code, 0, wait.stderr);
        assert.match(wait.stdout, /pod\/web condition met/);
        const wide = await k.run(["get", "pods", "-o", "wide"]);
        assert.equal(wide.code, 0, wide.stderr);
        const p = (await api.get("/api/v1/namespaces/default/pods/web")).body;
        assert.match(wide.stdout, /Running/);
        assert.ok(wide.stdout.includes(p.status.podIP), wide.stdout);
        assert.ok(wide.stdout.includes(p.spec.nodeName), wide.stdout);
        const nodes = await k.run(["get", "nodes"]);
        assert.match(nodes.stdout, /kubefold-node-1\s+Ready/);
        const del = await k.run(["delete", "pod", "web", "--timeout=10s"]);
        assert.equal(del.code, 0, del.stderr);
        assert.equal((await api.get("/api/v1/namespaces/default/pods/web")).status, 404);
      } finally {
        await k.dispose();
      }
    }, sim),
});

Deno.test({
  name: "kubectl delete --cascade=foreground waits for dependents; --cascade=orphan keeps them",
  ignore,
  fn: () =>
    withApi(async (api) => {
      const k = await createKubectl(api.server.kubeconfig);
      try {
        const fg = (await api.post(cms, configMap("fg"))).body;
        await api.post(cms, {
          ...configMap("fg-child"),
          metadata: { name: "fg-child", ownerReferences: [ownerRef(fg, true)] },
        });
        const a = await k.run([
          "delete",
          "configmap",
          "fg",
          "--cascade=foreground",
          "--timeout=10s",
        ]);
        assert.equal(a.code, 0, a.stderr);
        assert.equal((await api.get(`${cms}/fg-child`)).status, 404);
        const or = (await api.post(cms, configMap("or"))).body;
        await api.post(cms, {
          ...configMap("or-child"),
          metadata: { name: "or-child", ownerReferences: [ownerRef(or)] },
        });
        const b = await k.run(["delete", "configmap", "or", "--cascade=orphan", "--timeout=10s"]);
        assert.equal(b.code, 0, b.stderr);
        const child = await api.get(`${cms}/or-child`);
        assert.equal(child.status, 200);
        assert.equal(child.body.metadata.ownerReferences, undefined);
      } finally {
        await k.dispose();
      }
    }),
});

Deno.test({
  name: "kubectl delete namespace with contents waits until the namespace is gone",
  ignore,
  fn: () =>
    withApi(async (api) => {
      const k = await createKubectl(api.server.kubeconfig);
      try {
        await api.post("/api/v1/namespaces", {
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: "team" },
        });
        await api.post("/api/v1/namespaces/team/configmaps", configMap("a"));
        await api.post("/api/v1/namespaces/team/pods", pod("p"));
        await until(api, "/api/v1/namespaces/team/pods", (m) =>
          m.get("team/p")?.status.phase === "Running");
        const r = await k.run(["delete", "namespace", "team", "--timeout=10s"]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal((await api.get("/api/v1/namespaces/team")).status, 404);
        assert.equal((await api.get("/api/v1/namespaces/team/configmaps/a")).status, 404);
      } finally {
        await k.dispose();
      }
    }, sim),
});
