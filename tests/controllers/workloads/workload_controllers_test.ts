import assert from "node:assert/strict";
import { firstValueFrom } from "../../../lib/deps.ts";
import * as rx from "npm:rxjs@7.8.2";
import {
  type Client,
  connect,
  E,
  type KubeObject,
  type Manager,
  startManager,
} from "../../../mod.ts";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { workloadControllers } from "../../../lib/cluster/mod.ts";
import {
  type Deployment,
  POD_TEMPLATE_HASH_LABEL,
  type ReplicaSet,
} from "../../../controllers/workloads/mod.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";

const NS = "default";
const deployments = { apiVersion: "apps/v1", kind: "Deployment" };

async function newClient(kubeconfig: string): Promise<Client> {
  const c = await connect({ kubeconfigYaml: kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  return c.right;
}

async function listOf<T>(client: Client, apiVersion: string, kind: string): Promise<T[]> {
  const r = await client.list<T>({ apiVersion, kind }, { namespace: NS });
  if (E.isLeft(r)) throw new Error(r.left.message);
  return [...r.right.items];
}

/** Resolves once `check` holds, checking after every reconcile (event-driven, no sleeps). */
function until(manager: Manager, check: () => Promise<boolean>): Promise<unknown> {
  return firstValueFrom(
    manager.records$.pipe(
      rx.startWith(null),
      rx.concatMap(() => check()),
      rx.filter((ok) => ok),
    ),
  );
}

const running = (p: Pod) => p.status?.phase === "Running" && !p.metadata?.deletionTimestamp;

async function rolledOut(client: Client, image: string): Promise<boolean> {
  const got = await client.get<Deployment>(deployments, "web", { namespace: NS });
  if (E.isLeft(got)) return false;
  const d = got.right, s = d.status;
  const progressing = s?.conditions?.find((c) => c.type === "Progressing");
  const complete = (s?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
    s?.updatedReplicas === 3 && s?.replicas === 3 && s?.availableReplicas === 3 &&
    s?.readyReplicas === 3 && progressing?.reason === "NewReplicaSetAvailable";
  if (!complete) return false;
  const pods = await listOf<Pod>(client, "v1", "Pod");
  return pods.length === 3 && pods.every(running) &&
    pods.every((p) => p.spec?.containers[0].image === image);
}

Deno.test("the workload controllers roll a Deployment out to Running pods and through an image change", async () => {
  const server = await startApiServer({
    simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0 },
  });
  const client = await newClient(server.kubeconfig);
  const manager = await startManager({ client, controllers: workloadControllers() });
  try {
    await manager.ready;
    const created = await client.create<KubeObject>({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { namespace: NS, name: "web" },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ name: "web", image: "nginx:1" }] },
        },
      },
    });
    assert.ok(E.isRight(created), E.isLeft(created) ? created.left.message : "");
    await until(manager, () => rolledOut(client, "nginx:1"));
    const [first] = await listOf<ReplicaSet>(client, "apps/v1", "ReplicaSet");
    const firstHash = first.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] ?? "";
    assert.equal(first.metadata?.name, `web-${firstHash}`);
    assert.equal(first.metadata?.annotations?.["deployment.kubernetes.io/revision"], "1");

    const patched = await client.patch(deployments, "web", {
      namespace: NS,
      patch: {
        type: "merge",
        body: { spec: { template: { spec: { containers: [{ name: "web", image: "nginx:2" }] } } } },
      },
    });
    assert.ok(E.isRight(patched), E.isLeft(patched) ? patched.left.message : "");
    await until(manager, () => rolledOut(client, "nginx:2"));

    const sets = await listOf<ReplicaSet>(client, "apps/v1", "ReplicaSet");
    const byName = new Map(sets.map((rs) => [rs.metadata?.name, rs]));
    assert.equal(byName.size, 2);
    assert.equal(byName.get(first.metadata?.name)?.spec?.replicas, 0);
    const second = sets.find((rs) => rs.metadata?.name !== first.metadata?.name);
    assert.equal(second?.spec?.replicas, 3);
    assert.equal(second?.metadata?.annotations?.["deployment.kubernetes.io/revision"], "2");
    const pods = await listOf<Pod>(client, "v1", "Pod");
    const hash = second?.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL];
    assert.ok(pods.every((p) => p.metadata?.labels?.[POD_TEMPLATE_HASH_LABEL] === hash));
    const d = await client.get<Deployment>(deployments, "web", { namespace: NS });
    assert.ok(E.isRight(d));
    assert.equal(d.right.metadata?.annotations?.["deployment.kubernetes.io/revision"], "2");
  } finally {
    await manager.stop();
    client.close();
    await server.close();
  }
});
