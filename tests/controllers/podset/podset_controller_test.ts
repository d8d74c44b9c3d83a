/**
 * The PodSet controller as a whole — informers, workqueue, reconciler, applier, status
 * batching — against the test API, on virtual time: no sleeps, no wall-clock windows.
 */
import assert from "node:assert/strict";
import { type corev1, createInformers, type KubeObject, runController } from "../../../mod.ts";
import { createTestApi } from "../../../lib/testing/mod.ts";
import { type PodSet, podSetController, podSetCrd } from "../../../controllers/podset/mod.ts";

const podSetKind = { apiVersion: "app.example.com/v1alpha1", kind: "PodSet" };
const podKind = { apiVersion: "v1", kind: "Pod" };

const demo = (replicas: number): KubeObject => ({
  apiVersion: "app.example.com/v1alpha1",
  kind: "PodSet",
  metadata: { namespace: "default", name: "demo" },
  spec: {
    replicas,
    selector: { matchLabels: { app: "demo" } },
    template: {
      metadata: { labels: { app: "demo" } },
      spec: { containers: [{ name: "web", image: "nginx" }] },
    },
  },
});

/** A PodSet controller on a test API whose simulated kubelets start pods in 10 virtual ms. */
function setup() {
  const api = createTestApi({
    crds: [podSetCrd],
    simulation: { nodes: 1, podStartDelayMs: 10 },
  });
  const { scheduler } = api.clock;
  const client = api.client();
  const informers = createInformers(client, { scheduler });
  const sub = runController(podSetController, { client, informers, scheduler }).subscribe();
  const podSet = () => api.get<KubeObject & PodSet>(podSetKind, "demo");
  const pods = () =>
    api.list<KubeObject & corev1.Pod>(podKind, { namespace: "default", labelSelector: "app=demo" });
  return {
    api,
    client,
    podSet,
    pods,
    [Symbol.dispose]: () => {
      sub.unsubscribe();
      api.close();
    },
  };
}

Deno.test("a PodSet created on the test API has 3 ready pods after 50 virtual ms and status 3/3 when its batch window closes", async () => {
  using env = setup();
  await env.client.create(demo(3));
  await env.api.clock.advance(50);
  assert.equal(env.pods().length, 3);
  assert.ok(env.pods().every((p) => p.status?.phase === "Running"));
  // The status waits for the pods to show and for the 100 ms status batch window.
  assert.equal(env.podSet()?.status, undefined);
  await env.api.clock.advance(50);
  const status = env.podSet()?.status;
  assert.equal(status?.replicas, 3);
  assert.equal(status?.readyReplicas, 3);
});

Deno.test("a PodSet scaled down to 1 keeps one pod and reports 1/1", async () => {
  using env = setup();
  await env.client.create(demo(3));
  await env.api.clock.advanceUntil(() => env.podSet()?.status?.readyReplicas === 3);
  await env.client.patch(podSetKind, "demo", {
    namespace: "default",
    patch: { type: "merge", body: { spec: { replicas: 1 } } },
  });
  const took = await env.api.clock.advanceUntil(
    () => env.pods().length === 1 && env.podSet()?.status?.replicas === 1,
    { what: "one pod and status 1/1" },
  );
  assert.ok(took <= 1_000, `took ${took} virtual ms`);
  assert.equal(env.podSet()?.status?.readyReplicas, 1);
});

Deno.test("a pod deleted behind the PodSet's back is replaced", async () => {
  using env = setup();
  await env.client.create(demo(2));
  await env.api.clock.advanceUntil(() => env.podSet()?.status?.readyReplicas === 2);
  const victim = env.pods()[0].metadata!.name!;
  await env.client.delete(podKind, victim, { namespace: "default" });
  await env.api.clock.advanceUntil(() =>
    env.pods().length === 2 && env.pods().every((p) => p.metadata?.name !== victim) &&
    env.podSet()?.status?.readyReplicas === 2
  );
});
