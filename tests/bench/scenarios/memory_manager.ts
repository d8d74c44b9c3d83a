/**
 * The manager process of scenario 4: a manager running the PodSet controller (which caches
 * every pod as an owned resource) against the server at `url`; the heap is measured after a
 * full GC before the manager starts and after every informer synced. Prints one JSON line:
 * `{ objects, heapBefore, heapAfter, syncMs }`. Needs `--v8-flags=--expose-gc`. With
 * `--metadata` the pods are owned metadata-only (`PartialObjectMetadata`), as by a controller
 * that reads its children only by their metadata.
 *
 *   deno run -A --v8-flags=--expose-gc tests/bench/scenarios/memory_manager.ts URL [--strip | --metadata]
 *
 * @module
 */
import { controller, createClient, E, startManager, stripManagedFields } from "../../../mod.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";
import { BENCH_RATE_LIMIT } from "./_harness.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("Cannot measure the heap: run with --v8-flags=--expose-gc");
const heapUsed = async () => {
  await new Promise((r) => setTimeout(r, 50));
  gc();
  gc();
  return Deno.memoryUsage().heapUsed;
};

const [url] = Deno.args;
const strip = Deno.args.includes("--strip");
const metadataOnly = Deno.args.includes("--metadata");
// Owns the pods metadata-only; reconciles nothing (only the caching is measured).
const metadataController = controller({
  name: "podset-metadata",
  for: podSetController.for,
  owns: [{ apiVersion: "v1", kind: "Pod", metadataOnly: true }],
  reconcile: () => E.right({ ops: [] }),
});
const client = createClient({
  server: url,
  namespace: "default",
  tls: { insecureSkipVerify: false },
  auth: { type: "none" },
}, { rateLimit: BENCH_RATE_LIMIT });
// Warm the code paths the measurement will use, then measure the empty heap.
await client.resolve({ apiVersion: "v1", kind: "Pod" });
const heapBefore = await heapUsed();
const t0 = performance.now();
const manager = await startManager({
  client,
  controllers: [metadataOnly ? metadataController : podSetController],
  ...(strip ? { defaultTransform: stripManagedFields } : {}),
});
await manager.ready;
const syncMs = performance.now() - t0;
const heapAfter = await heapUsed();
const objects = Number(
  /kubefold_informer_objects\{[^}]*resource="v1\/Pod"[^}]*\} (\d+)/.exec(
    manager.metricsText(),
  )?.[1] ?? NaN,
);
console.log(JSON.stringify({ objects, heapBefore, heapAfter, syncMs }));
await manager.stop();
client.close();
Deno.exit(0);
