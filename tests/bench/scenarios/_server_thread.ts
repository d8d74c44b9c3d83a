/**
 * Worker entry: an embedded cluster ({@link startCluster}) on its own thread, with a
 * {@link Tracker} beside it. Messages in (each with an `id`, answered with the same `id`):
 *
 * - `{ type: "until", ready }`: answers once that many PodSets report ready;
 * - `{ type: "counts" }`: answers `{ counts }`, the server's requests by verb and resource,
 *   and `{ podsAdded, podsDeleted }` since the start;
 * - `{ type: "replace", owner }`: deletes one pod of PodSet `owner` (as a driver would) and
 *   answers `{ ms }`, from the delete's commit to the commit of the replacement's create,
 *   once the PodSet's status lists its pods as they are, every PodSet reports ready and 20 ms
 *   passed without an event (all measured here, on the server's clock);
 * - `{ type: "close" }` (answers `{ type: "closed" }`).
 *
 * Posts `{ type: "started", kubeconfig }` first. `BENCH_LATENCY_MS` in the environment delays
 * every API request by that many ms (a real cluster's round trip; default none).
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { must, startCluster, Tracker } from "./_harness.ts";

type Msg = { type: string; id?: number; ready?: number; owner?: string; total?: number };

const cluster = await startCluster();
// BENCH_LATENCY_MS: a delay on every API request, as a real cluster's round trip (default 0).
const latencyMs = Number(Deno.env.get("BENCH_LATENCY_MS") ?? 0);
if (latencyMs > 0) cluster.server.faults.set({ latencyMs });
const tracker = new Tracker(cluster);
let podsAdded = 0, podsDeleted = 0;
let onPod: ((type: string, name: string, terminating: boolean) => void) | undefined;
tracker.listeners.push((e) => {
  if (e.storageKey !== cluster.podsKey) return;
  if (e.type === "ADDED") podsAdded++;
  if (e.type === "DELETED") podsDeleted++;
  onPod?.(e.type, e.object.metadata!.name!, !!e.object.metadata!.deletionTimestamp);
});

/** Names of the pods of PodSet `owner` that are not terminating (a key range, not a scan). */
function activePods(owner: string): string[] {
  const prefix = `default/${owner}-`;
  const names: string[] = [];
  for (const s of cluster.server.context.storage.scan(cluster.podsKey, "default", prefix)) {
    if (!`default/${s.object.metadata!.name}`.startsWith(prefix)) break;
    if (!s.object.metadata!.deletionTimestamp) names.push(s.object.metadata!.name!);
  }
  return names;
}

async function replace(owner: string, total: number): Promise<number> {
  const storage = cluster.server.context.storage;
  const victim = activePods(owner)[0];
  let deletedAt = 0;
  const replaced = new Promise<number>((resolve) => {
    onPod = (type, name, terminating) => {
      if (name === victim && !deletedAt && (terminating || type === "DELETED")) {
        deletedAt = performance.now();
      } else if (deletedAt && type === "ADDED" && name.startsWith(`${owner}-`)) {
        resolve(performance.now() - deletedAt);
      }
    };
  });
  must(
    "delete a pod",
    await cluster.client.delete({ apiVersion: "v1", kind: "Pod" }, victim, {
      namespace: "default",
    }),
  );
  const ms = await replaced;
  onPod = undefined;
  // The sample ends when the controller has finished reacting: the owner's status lists its
  // pods as they are now (the replacement included) and every PodSet is ready. (Its status need
  // not leave "ready" in between: a controller that holds its status back writes it later, and
  // that write must not land in the next sample's window.)
  const listed = () => {
    const ps = storage.get(cluster.podSetsKey, `default/${owner}`)?.object;
    const names = (ps?.status as { podNames?: string[] } | undefined)?.podNames ?? [];
    const pods = activePods(owner);
    return names.length === pods.length && pods.every((p) => names.includes(p));
  };
  await tracker.until(
    `${owner}'s status lists its pods`,
    () => listed() && tracker.ready === total,
  );
  await tracker.quiet(20);
  return ms;
}

self.onmessage = async (m: MessageEvent<Msg>) => {
  const msg = m.data;
  try {
    if (msg.type === "until") {
      await tracker.until(`${msg.ready} PodSets ready`, () => tracker.ready === msg.ready);
      self.postMessage({ type: "reached", id: msg.id });
    } else if (msg.type === "counts") {
      await tracker.quiet(50);
      self.postMessage({
        type: "counts",
        id: msg.id,
        counts: cluster.server.requestCounts(),
        podsAdded,
        podsDeleted,
      });
    } else if (msg.type === "replace") {
      const ms = await replace(msg.owner!, msg.total!);
      self.postMessage({ type: "replaced", id: msg.id, ms });
    } else if (msg.type === "close") {
      tracker.close();
      await cluster.close();
      self.postMessage({ type: "closed" });
    }
  } catch (e) {
    self.postMessage({ type: "error", id: msg.id, error: String(e) });
  }
};
self.postMessage({ type: "started", kubeconfig: cluster.server.kubeconfig });
