import assert from "node:assert/strict";
import { filter, firstValueFrom } from "../../lib/deps.ts";
import { type Client, connect, controller, E, type KubeObject, startManager } from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

const labelMirror = controller({
  name: "mirror",
  for: { apiVersion: "v1", kind: "ConfigMap" },
  // Copies data.value into a label; a converged object yields no ops.
  reconcile: (cm) => {
    const value = (cm as unknown as { data?: { value?: string } }).data?.value;
    if (value === undefined || cm.metadata?.labels?.mirror === value) return E.right({ ops: [] });
    return E.right({
      ops: [{
        type: "patch",
        ref: {
          apiVersion: "v1",
          kind: "ConfigMap",
          namespace: cm.metadata!.namespace,
          name: cm.metadata!.name!,
        },
        patchType: "merge",
        patch: { metadata: { labels: { mirror: value } } },
      }],
    });
  },
});

async function newClient(kubeconfig: string): Promise<Client> {
  const c = await connect({ kubeconfigYaml: kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  return c.right;
}

const cm = (name: string, value: string) =>
  ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: "default" },
    data: { value },
  }) as KubeObject;

Deno.test("the manager reconciles, serves /healthz, /readyz and controller-runtime metrics, and stops cleanly", async () => {
  const server = await startApiServer();
  const client = await newClient(server.kubeconfig);
  const manager = await startManager({ client, controllers: [labelMirror], healthPort: 0 });
  assert.equal(await (await fetch(`${manager.healthUrl}/healthz`)).text(), "ok");
  await manager.ready;
  assert.equal((await fetch(`${manager.healthUrl}/readyz`)).status, 200);
  const applied = firstValueFrom(
    manager.records$.pipe(filter((r) => r.key === "default/a" && r.ops > 0)),
  );
  await client.create(cm("a", "x"));
  await applied;
  const got = await client.get<KubeObject>({ apiVersion: "v1", kind: "ConfigMap" }, "a", {
    namespace: "default",
  });
  assert.ok(E.isRight(got));
  assert.equal(got.right.metadata?.labels?.mirror, "x");
  const metrics = await (await fetch(`${manager.healthUrl}/metrics`)).text();
  for (
    const name of [
      'controller_runtime_reconcile_total{controller="mirror",result="success"}',
      "controller_runtime_reconcile_errors_total",
      "controller_runtime_reconcile_time_seconds_bucket",
      'workqueue_depth{name="mirror"',
      "workqueue_adds_total",
      "workqueue_queue_duration_seconds_bucket",
      "workqueue_work_duration_seconds_count",
      "workqueue_retries_total",
      "workqueue_unfinished_work_seconds",
      "workqueue_longest_running_processor_seconds",
      "kubefold_informer_objects",
      "kubefold_informer_bytes",
      "kubefold_informer_lag_seconds",
      "kubefold_event_to_reconcile_seconds_bucket",
    ]
  ) assert.ok(metrics.includes(name), `missing ${name}`);
  await manager.stop();
  await manager.done;
  client.close();
  await server.close();
});

Deno.test("with leader election two managers never both act; stopping the leader hands over", async () => {
  const server = await startApiServer();
  const clients = [await newClient(server.kubeconfig), await newClient(server.kubeconfig)];
  const election = {
    name: "mirror-lock",
    leaseDurationMs: 1000,
    renewDeadlineMs: 600,
    retryPeriodMs: 100,
  };
  const managers = await Promise.all(
    clients.map((client, i) =>
      startManager({
        client,
        controllers: [labelMirror],
        leaderElection: { ...election, identity: `m${i}` },
      })
    ),
  );
  const first = await Promise.race(managers.map((m, i) => m.ready.then(() => i)));
  const [leader, follower] = [managers[first], managers[1 - first]];
  assert.equal(leader.isLeader(), true);
  assert.equal(follower.isLeader(), false);
  await leader.stop();
  await follower.ready;
  assert.equal(follower.isLeader(), true);
  const applied = firstValueFrom(
    follower.records$.pipe(filter((r) => r.key === "default/b" && r.ops > 0)),
  );
  await clients[1 - first].create(cm("b", "y"));
  await applied;
  await follower.stop();
  for (const c of clients) c.close();
  await server.close();
});

Deno.test("SIGTERM stops the example's manager gracefully with exit code 0", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../examples/podset.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("Ctrl-C to stop")) {
    const { done, value } = await reader.read();
    if (done) break;
    out += value;
  }
  assert.match(out, /story done/);
  child.kill("SIGTERM");
  const status = await child.status;
  await reader.cancel();
  await child.stderr.cancel();
  assert.equal(status.code, 0);
});
