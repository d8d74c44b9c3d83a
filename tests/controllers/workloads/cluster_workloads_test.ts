import assert from "node:assert/strict";
import { E, type KubeObject } from "../../../mod.ts";
import { scaledClock } from "../../../lib/cluster/mod.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";
import type { Job } from "../../../controllers/workloads/job_progress.ts";
import type { StatefulSet } from "../../../controllers/workloads/stateful_set_pods.ts";
import type { DaemonSet } from "../../../controllers/workloads/daemon_pods.ts";
import type { CronJob } from "../../../controllers/workloads/reconcile_cron_job.ts";
import type { EndpointSlice } from "../../../controllers/workloads/reconcile_endpoints.ts";
import { withCluster } from "./_cluster.ts";

const container = { name: "c", image: "busybox:1.36" };
const running = (p: Pod) => p.status?.phase === "Running" && !p.metadata?.deletionTimestamp;
const names = (objs: readonly { metadata?: { name?: string } }[]) =>
  objs.map((o) => o.metadata?.name).sort();

Deno.test("a StatefulSet gets db-0..2 in order with claims that outlive a scale-down", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: "db" },
      spec: {
        replicas: 3,
        serviceName: "db",
        selector: { matchLabels: { app: "db" } },
        template: { metadata: { labels: { app: "db" } }, spec: { containers: [container] } },
        volumeClaimTemplates: [{
          metadata: { name: "data" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        }],
      },
    });
    const ready = (n: number) => async () => {
      const s = await t.get<StatefulSet>("apps/v1", "StatefulSet", "db");
      const pods = (await t.list<Pod>("v1", "Pod")).filter(running);
      return s?.status?.readyReplicas === n && s.status.replicas === n && pods.length === n;
    };
    await t.until("3 ready replicas", ready(3));
    const pods = await t.list<Pod>("v1", "Pod");
    assert.deepEqual(names(pods), ["db-0", "db-1", "db-2"]);
    // Ordered: each pod was created after the one before it was Running.
    const created = pods.map((p) => Date.parse(p.metadata!.creationTimestamp!));
    const started = new Map(pods.map((p) => [p.metadata?.name, Date.parse(p.status!.startTime!)]));
    const byName = new Map(pods.map((p, i) => [p.metadata?.name, created[i]]));
    assert.ok(byName.get("db-1")! >= started.get("db-0")!);
    assert.ok(byName.get("db-2")! >= started.get("db-1")!);
    assert.equal(pods[0].spec?.volumes?.[0]?.persistentVolumeClaim?.claimName, "data-db-0");
    assert.deepEqual(names(await t.list("v1", "PersistentVolumeClaim")), [
      "data-db-0",
      "data-db-1",
      "data-db-2",
    ]);
    const scaled = await t.client.patch({ apiVersion: "apps/v1", kind: "StatefulSet" }, "db", {
      namespace: "default",
      patch: { type: "merge", body: { spec: { replicas: 1 } } },
    });
    assert.ok(E.isRight(scaled));
    await t.until("1 replica", ready(1));
    assert.deepEqual(names(await t.list<Pod>("v1", "Pod")), ["db-0"]);
    assert.equal((await t.list("v1", "PersistentVolumeClaim")).length, 3, "claims are retained");
  }));

Deno.test("Jobs run to Complete, a failing one to Failed at its backoff limit, and a finished one past its TTL away", () =>
  withCluster(async (t) => {
    const job = (name: string, extra: Record<string, unknown>, annotations = {}) => ({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name },
      spec: {
        ...extra,
        template: {
          metadata: { annotations },
          spec: { restartPolicy: "Never", containers: [container] },
        },
      },
    });
    await t.create(job("ok", { completions: 3, parallelism: 2 }));
    await t.create(
      job("bad", { backoffLimit: 1 }, { "simulation.kubefold.dev/exit-code": "1" }),
    );
    const has = (j: Job | undefined, type: string) =>
      j?.status?.conditions?.some((c) => c.type === type && c.status === "True") ?? false;
    await t.until(
      "both Jobs finished",
      async () =>
        has(await t.get<Job>("batch/v1", "Job", "ok"), "Complete") &&
        has(await t.get<Job>("batch/v1", "Job", "bad"), "Failed"),
    );
    await t.create(job("brief", { ttlSecondsAfterFinished: 0 }));
    await t.until(
      "the finished Job with a TTL of 0 deleted, pods and all",
      async () =>
        (await t.get("batch/v1", "Job", "brief")) === undefined &&
        (await t.list<Pod>("v1", "Pod")).every((p) =>
          p.metadata?.labels?.["batch.kubernetes.io/job-name"] !== "brief"
        ),
    );
    const ok = (await t.get<Job>("batch/v1", "Job", "ok"))!;
    assert.equal(ok.status?.succeeded, 3);
    assert.ok(ok.status?.completionTime);
    const bad = (await t.get<Job>("batch/v1", "Job", "bad"))!;
    assert.equal(bad.status?.failed, 2);
    assert.equal(
      bad.status?.conditions?.find((c) => c.type === "Failed")?.reason,
      "BackoffLimitExceeded",
    );
  }));

Deno.test("a CronJob fires on the cluster's scaled clock and its Job completes", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: "batch/v1",
      kind: "CronJob",
      metadata: { name: "tick" },
      spec: {
        schedule: "*/5 * * * *",
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: "OnFailure", containers: [container] } } },
        },
      },
    });
    await t.until(
      "a successful run",
      async () =>
        !!(await t.get<CronJob>("batch/v1", "CronJob", "tick"))?.status?.lastSuccessfulTime,
    );
    const cj = (await t.get<CronJob>("batch/v1", "CronJob", "tick"))!;
    // The first due time is 00:05 (a slow machine may see a later one: earlier ones are skipped).
    const at = Date.parse(cj.status!.lastScheduleTime!);
    assert.ok(at >= Date.parse("2025-01-01T00:05:00Z") && at % 300_000 === 0, String(at));
    const jobs = await t.list<Job>("batch/v1", "Job");
    assert.ok(jobs.some((j) => j.metadata?.name === `tick-${at / 60_000}`));
    assert.ok(
      jobs.every((j) =>
        Date.parse(j.metadata!.creationTimestamp!) >= Date.parse("2025-01-01T00:05:00Z")
      ),
    );
  }, {
    // Four virtual minutes before the first run, 1,200 times faster: 200 ms of real time.
    clock: scaledClock({ startMs: Date.parse("2025-01-01T00:01:00Z"), speed: 1_200 }),
  }));

Deno.test("a DaemonSet runs a pod per Ready node, following a node that fails and comes back", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: "apps/v1",
      kind: "DaemonSet",
      metadata: { name: "agent" },
      spec: {
        selector: { matchLabels: { app: "agent" } },
        template: { metadata: { labels: { app: "agent" } }, spec: { containers: [container] } },
      },
    });
    const nodesRunning = async (n: number) => {
      const ds = await t.get<DaemonSet>("apps/v1", "DaemonSet", "agent");
      const pods = (await t.list<Pod>("v1", "Pod")).filter(running);
      return ds?.status?.numberAvailable === n && ds.status.desiredNumberScheduled === n &&
        pods.length === n && new Set(pods.map((p) => p.spec?.nodeName)).size === n;
    };
    await t.until("3 pods on 3 nodes", () => nodesRunning(3));
    t.cluster.server.failNode!("kubefold-node-2");
    await t.until("2 pods after a node failed", () => nodesRunning(2));
    const pods = await t.list<Pod>("v1", "Pod");
    assert.ok(pods.every((p) => p.spec?.nodeName !== "kubefold-node-2"));
    t.cluster.server.restoreNode!("kubefold-node-2");
    await t.until("3 pods after the node came back", () => nodesRunning(3));
  }));

Deno.test("a Service gets Endpoints and an EndpointSlice from a ReplicationController's pods", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: "v1",
      kind: "ReplicationController",
      metadata: { name: "web" },
      spec: {
        replicas: 2,
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ ...container, ports: [{ name: "http", containerPort: 8080 }] }] },
        },
      },
    });
    await t.create({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web" },
      spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: "http" }] },
    });
    await t.create({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "external" },
      spec: { ports: [{ port: 80 }] },
    });
    await t.until("2 ready endpoints", async () => {
      const slices = await t.list<EndpointSlice>("discovery.k8s.io/v1", "EndpointSlice");
      const ready = slices.flatMap((s) => s.endpoints ?? []).filter((e) => e.conditions?.ready);
      return ready.length === 2;
    });
    const pods = (await t.list<Pod>("v1", "Pod")).filter(running);
    assert.equal(pods.length, 2);
    const ep = (await t.get<KubeObject>("v1", "Endpoints", "web")) as {
      subsets?: { addresses?: { ip: string }[]; ports?: { port: number }[] }[];
    };
    assert.deepEqual(
      ep.subsets?.[0].addresses?.map((a) => a.ip).sort(),
      pods.map((p) => p.status?.podIP).sort(),
    );
    assert.deepEqual(ep.subsets?.[0].ports?.map((p) => p.port), [8080]);
    assert.equal(await t.get("v1", "Endpoints", "external"), undefined, "no selector: left alone");
  }));
