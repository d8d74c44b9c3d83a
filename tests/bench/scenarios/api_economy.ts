/**
 * Scenario 2, API economy: requests counted at the server by verb while the PodSet controller
 * (with a periodic resync) handles: create N PodSets of R replicas; scale half of them to
 * R + 2; delete D pods; then a full resync (every key reconciled once more from the cache).
 *
 * The driver's own requests (PodSet creates, scale patches, pod deletes) are known exactly
 * and subtracted; it follows the cluster through the server's watch hub, so it sends no reads.
 * Status writes are compared with the status changes the server committed (a PodSet MODIFIED
 * event whose status differs from the previous one): every status write must change it.
 *
 * @module
 */
import { startManager } from "../../../mod.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";
import {
  benchClient,
  must,
  podSet,
  pool,
  type Row,
  type Sizes,
  startCluster,
  Tracker,
} from "./_harness.ts";

type Counts = Record<string, number>;
const diff = (a: Counts, b: Counts): Counts => {
  const out: Counts = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = (b[k] ?? 0) - (a[k] ?? 0);
    if (d) out[k] = d;
  }
  return out;
};
const sum = (c: Counts, pred: (verb: string, resource: string) => boolean) =>
  Object.entries(c).reduce((n, [k, v]) => {
    const [verb, resource] = k.split(" ");
    return pred(verb, resource) ? n + v : n;
  }, 0);
const isRead = (verb: string) => verb.startsWith("get") || verb === "list";
const isWrite = (verb: string) => !isRead(verb) && verb !== "watch";

interface Phase {
  readonly name: string;
  /** Requests at the server minus the driver's own. */
  readonly controller: Counts;
  readonly podCreatesMin: number;
  readonly podsAdded: number;
  readonly statusChanges: number;
  readonly podSetsChanged: number;
}

/** Runs scenario 2 and returns its rows. */
export async function apiEconomyScenario(sizes: Sizes, resyncMs: number): Promise<Row[]> {
  const { podSets: n, replicas: r, deletes: d } = sizes;
  const scaled = Math.floor(n / 2);
  const cluster = await startCluster();
  const { client, server } = cluster;
  const tracker = new Tracker(cluster);
  let podsAdded = 0, statusChanges = 0;
  const changed = new Set<string>();
  tracker.listeners.push((e) => {
    if (e.storageKey === cluster.podsKey && e.type === "ADDED") podsAdded++;
    if (
      e.storageKey === cluster.podSetsKey && e.type === "MODIFIED" &&
      JSON.stringify(e.prev?.status) !== JSON.stringify(e.object.status)
    ) {
      statusChanges++;
      changed.add(e.object.metadata!.name!);
    }
  });
  const managerClient = await benchClient(server);
  const manager = await startManager({
    client: managerClient,
    controllers: [{ ...podSetController, concurrency: sizes.concurrency, resyncMs }],
  });
  await manager.ready;
  const synced = server.requestCounts();

  const phases: Phase[] = [];
  const phase = async (
    name: string,
    podCreatesMin: number,
    driver: Counts,
    act: () => Promise<void>,
    pods: number,
  ) => {
    const before = server.requestCounts();
    podsAdded = statusChanges = 0;
    changed.clear();
    await act();
    await tracker.until(
      `${name}: every PodSet ready with ${pods} pods`,
      () => tracker.ready === n && tracker.pods === pods,
    );
    await tracker.quiet(300);
    const controller = diff(driver, diff(before, server.requestCounts()));
    phases.push({
      name,
      controller,
      podCreatesMin,
      podsAdded,
      statusChanges,
      podSetsChanged: changed.size,
    });
  };
  await phase(`create ${n} PodSets x${r}`, n * r, { "create podsets": n }, async () => {
    await pool(n, sizes.concurrency, async (i) => {
      must("create a PodSet", await client.create(podSet(i, r)));
    });
  }, n * r);
  await phase(`scale ${scaled} to ${r + 2}`, scaled * 2, { "patch podsets": scaled }, async () => {
    await pool(scaled, sizes.concurrency, async (i) => {
      must(
        "scale a PodSet",
        await client.patch({ apiVersion: "app.example.com/v1alpha1", kind: "PodSet" }, `ps-${i}`, {
          namespace: "default",
          patch: { type: "merge", body: { spec: { replicas: r + 2 } } },
        }),
      );
    });
  }, n * r + scaled * 2);
  const storage = server.context.storage;
  await phase(`delete ${d} pods`, d, { "delete pods": d }, async () => {
    const victims = storage.list(cluster.podsKey, "default").filter((_, i) => i % 3 === 0)
      .slice(0, d).map((s) => s.object.metadata!.name!);
    await pool(victims.length, sizes.concurrency, async (i) => {
      must(
        "delete a pod",
        await client.delete({ apiVersion: "v1", kind: "Pod" }, victims[i], {
          namespace: "default",
        }),
      );
    });
  }, n * r + scaled * 2);

  // Full resync: wait until every key has been reconciled once more, from the cache.
  const before = server.requestCounts();
  const again = new Set<string>();
  const { promise: resynced, resolve } = Promise.withResolvers<void>();
  const sub = manager.records$.subscribe((rec) => {
    again.add(rec.key);
    if (again.size === n) resolve();
  });
  const t0 = performance.now();
  await resynced;
  const resyncWallMs = performance.now() - t0;
  await tracker.quiet(300);
  const resync = diff(before, server.requestCounts());
  sub.unsubscribe();
  const afterSync = diff(synced, server.requestCounts());
  tracker.close();
  await manager.stop();
  managerClient.close();
  await cluster.close();

  const scenario = `2 API economy (${n}x${r}, resync ${resyncMs} ms)`;
  const rows: Row[] = [];
  for (const p of phases) {
    const creates = p.controller["create pods"] ?? 0;
    const deletes = p.controller["delete pods"] ?? 0;
    const statusWrites = sum(p.controller, (v, res) => v.endsWith("/status") && res === "podsets");
    const otherWrites = sum(p.controller, (v) => isWrite(v)) - creates - deletes - statusWrites;
    rows.push({
      scenario,
      metric: `${p.name}: pod creates / deletes / other writes`,
      value: `${creates} (min ${p.podCreatesMin}, dup ${
        creates - p.podsAdded
      }) / ${deletes} / ${otherWrites}`,
      ratio: creates / p.podCreatesMin,
      target: "= min, 0 dup, 0 deletes",
      pass: creates === p.podCreatesMin && creates === p.podsAdded && deletes === 0 &&
        otherWrites === 0,
    });
    rows.push({
      scenario,
      metric: `${p.name}: status writes that changed nothing`,
      value: `${statusWrites - p.statusChanges} of ${statusWrites}`,
      target: "0",
      pass: statusWrites === p.statusChanges,
    });
    rows.push({
      scenario,
      metric: `${p.name}: status writes per PodSet whose status changed`,
      value: `${statusWrites} writes / ${p.podSetsChanged} PodSets`,
      ratio: statusWrites / Math.max(1, p.podSetsChanged),
      target: "1 each",
      pass: statusWrites === p.podSetsChanged,
    });
  }
  const resyncWrites = sum(resync, (v) => isWrite(v));
  rows.push({
    scenario,
    metric: `full resync: ${again.size} keys reconciled in ${resyncWallMs.toFixed(0)} ms`,
    value: `${resyncWrites} writes, ${sum(resync, (v) => isRead(v))} reads`,
    target: "0 writes, 0 reads",
    pass: resyncWrites === 0 && sum(resync, (v) => isRead(v)) === 0 && again.size === n,
  });
  const reads = sum(afterSync, (v) => isRead(v));
  rows.push({
    scenario,
    metric: "GET/LIST after the initial sync (whole scenario)",
    value: `${reads} (watches opened: ${sum(afterSync, (v) => v === "watch")})`,
    target: "0",
    pass: reads === 0,
  });
  return rows;
}
