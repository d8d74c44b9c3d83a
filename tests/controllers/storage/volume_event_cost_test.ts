/**
 * The binder's event mapping costs O(the objects an event concerns): a claim's event finds its
 * volumes, a volume's event the unbound claims, through the stores' indexes — no listing of
 * every volume or claim. Counted on instrumented stores, not timed.
 */
import assert from "node:assert/strict";
import {
  type CacheView,
  type ControllerSpec,
  createStore,
  type HasMetadata,
  type KubeObject,
  type StoreReader,
  worldFromStore,
} from "../../../mod.ts";
import { claimController, volumeController } from "../../../controllers/storage/mod.ts";

const N = 500;

/** A store of `objects` with the spec's indexers; `reads` counts objects handed out by `list()`. */
function countingStore(
  objects: readonly KubeObject[],
  indexers: ControllerSpec["indexers"],
) {
  const { reader, writer } = createStore<KubeObject>(indexers ? { indexers } : {});
  writer.apply({ type: "Init" });
  for (const object of objects) writer.apply({ type: "InitApply", object });
  writer.apply({ type: "InitDone", resourceVersion: "1" });
  const counter = { reads: 0 };
  const counted: StoreReader<KubeObject> = {
    ...reader,
    get: (key) => reader.get(key),
    list: () => {
      const all = reader.list();
      counter.reads += all.length;
      return all;
    },
    byIndex: (name, value) => reader.byIndex(name, value),
    keysByIndex: (name, value) => reader.keysByIndex(name, value),
    indexValues: (name) => reader.indexValues(name),
    hasSynced: () => reader.hasSynced(),
    get resourceVersion() {
      return reader.resourceVersion;
    },
  };
  return { counted, counter };
}

function view(stores: Record<string, StoreReader<KubeObject>>): CacheView {
  const store = <T extends HasMetadata>(k: { kind: string }): StoreReader<T> => {
    const s = stores[k.kind];
    if (!s) throw new Error(`no store for ${k.kind}`);
    return s as StoreReader<T>;
  };
  return { store, world: (k) => worldFromStore(store(k)) };
}

const volume = (i: number): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name: `pv${i}`, uid: `v${i}` },
  spec: { claimRef: { namespace: "ns", name: `c${i}`, uid: `u${i}` } },
});
const claim = (i: number, bound: boolean): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name: `c${i}`, namespace: "ns", uid: `u${i}` },
  spec: bound ? { volumeName: `pv${i}` } : {},
});

Deno.test("volume controller: a claim's event reads none of the other volumes (index by claimRef)", () => {
  const spec = volumeController();
  const volumes = countingStore(Array.from({ length: N }, (_, i) => volume(i)), spec.indexers);
  const claims = countingStore([], undefined);
  spec.world!(view({ PersistentVolume: volumes.counted, PersistentVolumeClaim: claims.counted }));
  const keys = spec.watches![0].keys(claim(7, false));
  assert.deepEqual([...keys], ["pv7"]); // the volume whose claimRef names it, found by index
  assert.deepEqual([...spec.watches![0].keys(claim(9, true))], ["pv9"]);
  assert.equal(volumes.counter.reads, 0, `one claim event read ${volumes.counter.reads} volumes`);
});

Deno.test("claim controller: a free volume's event reads only the unbound claims", () => {
  const spec = claimController();
  const all = Array.from({ length: N }, (_, i) => claim(i, i % 100 !== 0)); // 5 unbound
  const claims = countingStore(all, spec.indexers);
  const volumes = countingStore([], undefined);
  const classes = countingStore([], undefined);
  spec.world!(view({
    PersistentVolume: volumes.counted,
    PersistentVolumeClaim: claims.counted,
    StorageClass: classes.counted,
  }));
  const free: KubeObject = { metadata: { name: "free" }, spec: {} };
  const keys = spec.watches![0].keys(free);
  assert.deepEqual([...keys].sort(), ["ns/c0", "ns/c100", "ns/c200", "ns/c300", "ns/c400"]);
  assert.equal(claims.counter.reads, 0, `one volume event read ${claims.counter.reads} claims`);
});
