/**
 * The in-server pv-protection controller syncs only the volume whose event arrived: one volume
 * event reads that volume by key, not every stored volume. Counted on the storage, not timed.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { createObject } from "../../../lib/apiserver/object_write.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

const N = 200;
const volume = (name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name },
  spec: {
    capacity: { storage: "1Gi" },
    accessModes: ["ReadWriteOnce"],
    hostPath: { path: `/tmp/${name}` },
  },
});
// Lets the controller's microtask batch (and the writes it makes) run.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("pv-protection: one volume event reads that volume alone, not all N", async () => {
  const server = await startApiServer();
  try {
    const ctx = server.context;
    const info = ctx.registry.lookup("", "v1", "persistentvolumes")!;
    for (let i = 0; i < N; i++) createObject(ctx, info, undefined, volume(`pv${i}`));
    await settle();
    // Counts the stored volumes any scan (and so any list) hands out from here on.
    const storage = ctx.storage;
    const scan = storage.scan.bind(storage);
    let read = 0;
    storage.scan = function* (storageKey, namespace, after) {
      for (const s of scan(storageKey, namespace, after)) {
        if (storageKey === info.storageKey) read++;
        yield s;
      }
    };
    try {
      createObject(ctx, info, undefined, volume("new"));
      await settle();
      const stored = storage.get(info.storageKey, "new")?.object;
      assert.deepEqual(stored?.metadata?.finalizers, ["kubernetes.io/pv-protection"]);
      assert.ok(read < 2, `one volume event read ${read} of ${N + 1} stored volumes`);
    } finally {
      storage.scan = scan;
    }
  } finally {
    await server.close();
  }
});
