import assert from "node:assert/strict";
import { E, type KubeObject } from "../../../mod.ts";
import { scaledClock } from "../../../lib/cluster/mod.ts";
import {
  type SampleDB,
  sampleDbController,
  sampleDbCrd,
} from "../../../controllers/sampledb/mod.ts";
import { withCluster } from "../workloads/_cluster.ts";

const DB = "db.example.com/v1alpha1";
type Obj = KubeObject & { data?: Record<string, string>; spec?: Record<string, unknown> };
const options = {
  clock: scaledClock({ startMs: Date.parse("2025-01-01T00:00:00Z"), speed: 600 }),
  crds: [sampleDbCrd as unknown as KubeObject],
  controllers: [sampleDbController()],
};

Deno.test("a SampleDB with spec.credentialsSecret waits for that Secret, then uses it and generates none", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: DB,
      kind: "SampleDB",
      metadata: { name: "billing" },
      spec: { version: "16.4", credentialsSecret: "billing-login" },
    });
    const db = () => t.get<SampleDB>(DB, "SampleDB", "billing");
    const cond = async (type: string) =>
      (await db())?.status?.conditions?.find((c) => c.type === type);
    await t.until(
      "Pending without the Secret",
      async () =>
        (await db())?.status?.phase === "Pending" &&
        (await cond("CredentialsReady"))?.reason === "SecretNotFound",
    );
    assert.equal(await t.get("apps/v1", "StatefulSet", "billing"), undefined);
    await t.create({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "billing-login" },
      stringData: { username: "app", password: "hunter2" },
    });
    await t.until(
      "Ready with the given Secret",
      async () => (await db())?.status?.phase === "Ready",
    );
    const sts = await t.get<Obj>("apps/v1", "StatefulSet", "billing");
    assert.match(
      JSON.stringify(sts?.spec),
      /"secretKeyRef":\{"name":"billing-login","key":"password"\}/,
    );
    assert.equal(await t.get("v1", "Secret", "billing-credentials"), undefined);
  }, options));

Deno.test("a generated credentials Secret survives spec changes unchanged", () =>
  withCluster(async (t) => {
    await t.create({
      apiVersion: DB,
      kind: "SampleDB",
      metadata: { name: "orders" },
      spec: { version: "15.8" },
    });
    const db = () => t.get<SampleDB>(DB, "SampleDB", "orders");
    await t.until("Ready", async () => (await db())?.status?.phase === "Ready");
    const before = await t.get<Obj>("v1", "Secret", "orders-credentials");
    assert.equal(atob(before?.data?.username ?? ""), "sampledb");
    assert.equal(atob(before?.data?.password ?? "").length, 24);
    const r = await t.client.patch({ apiVersion: DB, kind: "SampleDB" }, "orders", {
      namespace: "default",
      patch: { type: "merge", body: { spec: { version: "16.4", replicas: 2 } } },
    });
    assert.ok(E.isRight(r));
    await t.until("upgraded to 16.4 with 2 replicas", async () => {
      const s = (await db())?.status;
      return s?.currentVersion === "16.4" && s.phase === "Ready" && s.readyReplicas === 2;
    });
    const after = await t.get<Obj>("v1", "Secret", "orders-credentials");
    assert.deepEqual(after?.data, before?.data);
    assert.equal(after?.metadata?.resourceVersion, before?.metadata?.resourceVersion);
  }, options));
