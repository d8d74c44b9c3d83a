import assert from "node:assert/strict";
import { E } from "../../../lib/deps.ts";
import type { KubeObject } from "../../../lib/core/object.ts";
import type {
  VolumeSnapshot,
  VolumeSnapshotContent,
} from "../../../controllers/snapshots/types.ts";
import { type TestCluster, withCluster } from "../workloads/_cluster.ts";

const VS = "snapshot.storage.k8s.io/v1";

/** A claim bound to a volume made for it (a pre-bound PersistentVolume the binder binds). */
async function boundClaim(t: TestCluster, name: string, size = "2Gi"): Promise<void> {
  await t.create({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: `pv-${name}` },
    spec: {
      capacity: { storage: size },
      accessModes: ["ReadWriteOnce"],
      storageClassName: "standard",
      hostPath: { path: `/data/${name}` },
      claimRef: { namespace: "default", name },
    },
  });
  await t.create({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: size } },
      volumeName: `pv-${name}`,
    },
  });
  await t.until(
    `claim ${name} Bound`,
    async () =>
      (await t.get<{ status?: { phase?: string } }>("v1", "PersistentVolumeClaim", name))?.status
        ?.phase === "Bound",
  );
}

const snapshot = (name: string, claim: string, cls?: string): KubeObject => ({
  apiVersion: VS,
  kind: "VolumeSnapshot",
  metadata: { name },
  spec: {
    source: { persistentVolumeClaimName: claim },
    ...(cls ? { volumeSnapshotClassName: cls } : {}),
  },
});

Deno.test("a VolumeSnapshot of a bound claim becomes readyToUse with a bound content, and takes the content with it when deleted", () =>
  withCluster(async (t) => {
    await boundClaim(t, "data-0");
    await t.create(snapshot("snap", "data-0"));
    const vs = () => t.get<VolumeSnapshot>(VS, "VolumeSnapshot", "snap");
    await t.until("snapshot ready", async () => (await vs())?.status?.readyToUse === true);
    const got = (await vs())!;
    assert.equal(got.spec.volumeSnapshotClassName, "standard", "the default class is written in");
    assert.equal(got.status?.restoreSize, "2Gi");
    assert.equal(got.status?.boundVolumeSnapshotContentName, `snapcontent-${got.metadata?.uid}`);
    assert.ok(
      got.metadata?.finalizers?.includes(
        "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection",
      ),
    );
    const contents = await t.client.list<VolumeSnapshotContent>({
      apiVersion: VS,
      kind: "VolumeSnapshotContent",
    });
    assert.ok(E.isRight(contents));
    const content = contents.right.items[0];
    assert.equal(content.spec.volumeSnapshotRef.uid, got.metadata?.uid);
    assert.equal(content.spec.source.volumeHandle, "pv-data-0");
    assert.equal(content.metadata?.ownerReferences, undefined, "the content is not owned");
    assert.equal(content.status?.restoreSize, 2 * 2 ** 30);
    const del = await t.client.delete({ apiVersion: VS, kind: "VolumeSnapshot" }, "snap", {
      namespace: "default",
    });
    assert.ok(E.isRight(del));
    await t.until("snapshot and content gone", async () => {
      const left = await t.client.list({ apiVersion: VS, kind: "VolumeSnapshotContent" });
      return (await vs()) === undefined && E.isRight(left) && left.right.items.length === 0;
    });
  }));

Deno.test("a VolumeSnapshot reports why it cannot be taken: unbound claim, failing driver", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "pending" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    await t.create(snapshot("early", "pending"));
    await t.until("unbound error", async () =>
      /the PVC pending is not yet bound to a PV/.test(
        (await t.get<VolumeSnapshot>(VS, "VolumeSnapshot", "early"))?.status?.error?.message ?? "",
      ));
    await t.create({
      apiVersion: VS,
      kind: "VolumeSnapshotClass",
      metadata: { name: "broken" },
      driver: "hostpath.csi.k8s.io",
      deletionPolicy: "Delete",
      parameters: { "simulation.kubefold.dev/error": "quota exceeded" },
    });
    await boundClaim(t, "data-1");
    await t.create(snapshot("doomed", "data-1", "broken"));
    await t.until("driver error", async () => {
      const s = await t.get<VolumeSnapshot>(VS, "VolumeSnapshot", "doomed");
      return /quota exceeded/.test(s?.status?.error?.message ?? "") &&
        s?.status?.readyToUse === false;
    });
  }));
