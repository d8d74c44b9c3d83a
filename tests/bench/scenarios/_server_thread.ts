/**
 * Worker entry: an embedded cluster ({@link startCluster}) on its own thread, with a
 * {@link Tracker} beside it. Messages in: `{ type: "until", id, ready }` (answers
 * `{ type: "reached", id }` once that many PodSets report ready) and `{ type: "close" }`
 * (answers `{ type: "closed" }`). Posts `{ type: "started", kubeconfig }` first.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { startCluster, Tracker } from "./_harness.ts";

const cluster = await startCluster();
const tracker = new Tracker(cluster);
self.onmessage = async (m: MessageEvent<{ type: string; id?: number; ready?: number }>) => {
  const msg = m.data;
  if (msg.type === "until") {
    try {
      await tracker.until(`${msg.ready} PodSets ready`, () => tracker.ready === msg.ready);
      self.postMessage({ type: "reached", id: msg.id });
    } catch (e) {
      self.postMessage({ type: "reached", id: msg.id, error: String(e) });
    }
  } else if (msg.type === "close") {
    tracker.close();
    await cluster.close();
    self.postMessage({ type: "closed" });
  }
};
self.postMessage({ type: "started", kubeconfig: cluster.server.kubeconfig });
