import assert from "node:assert/strict";
import { E } from "../../../lib/deps.ts";
import type { KubeObject } from "../../../lib/core/object.ts";
import { scaledClock } from "../../../controllers/workloads/cluster_clock.ts";
import {
  type SampleDB,
  sampleDbController,
  sampleDbCrd,
} from "../../../controllers/sampledb/mod.ts";
import { withCluster } from "../workloads/_cluster.ts";

const DB = "db.example.com/v1alpha1";

Deno.test("a SampleDB is provisioned, initialized, backed up, upgraded and deleted with a snapshot", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: DB,
      kind: "SampleDB",
      metadata: { name: "orders" },
      spec: { version: "15.8", backup: { schedule: "*/10 * * * *", retention: 2 } },
    });
    const db = () => t.get<SampleDB>(DB, "SampleDB", "orders");
    const phases: string[] = [];
    const phase = (p: string) => async () => {
      const s = (await db())?.status?.phase;
      if (s && phases.at(-1) !== s) phases.push(s);
      return s === p;
    };
    // Bind claims by hand until a provisioner exists.
    const bind = async () => {
      for (
        const c of await t.list<KubeObject & { status?: { phase?: string } }>(
          "v1",
          "PersistentVolumeClaim",
        )
      ) {
        if (c.status?.phase === "Bound") continue;
        await t.client.patch(
          { apiVersion: "v1", kind: "PersistentVolumeClaim" },
          c.metadata!.name!,
          {
            namespace: "default",
            subresource: "status",
            patch: {
              type: "merge",
              body: { status: { phase: "Bound", capacity: { storage: "1Gi" } } },
            },
          },
        );
        await t.client.patch(
          { apiVersion: "v1", kind: "PersistentVolumeClaim" },
          c.metadata!.name!,
          {
            namespace: "default",
            patch: { type: "merge", body: { spec: { volumeName: `pv-${c.metadata!.name}` } } },
          },
        );
      }
    };
    await t.until("Ready", phase("Ready"));
    await bind();
    console.log(phases, (await db())?.status);
    await t.until("a backup", async () => (await db())?.status?.lastBackup !== undefined);
    const up = await t.client.patch({ apiVersion: DB, kind: "SampleDB" }, "orders", {
      namespace: "default",
      patch: { type: "merge", body: { spec: { version: "16.4" } } },
    });
    assert.ok(E.isRight(up));
    await t.until(
      "16.4",
      async () =>
        (await db())?.status?.currentVersion === "16.4" && (await db())?.status?.phase === "Ready",
    );
    console.log(phases, (await db())?.status);
    const del = await t.client.delete({ apiVersion: DB, kind: "SampleDB" }, "orders", {
      namespace: "default",
    });
    assert.ok(E.isRight(del));
    await t.until("gone", async () => (await db()) === undefined);
    console.log(phases, await t.list("snapshot.storage.k8s.io/v1", "VolumeSnapshot"));
    assert.equal((await t.list("v1", "PersistentVolumeClaim")).length, 0);
  }, {
    clock: scaledClock({ speed: 600 }),
    crds: [sampleDbCrd as unknown as KubeObject],
    controllers: [sampleDbController()],
  }));
