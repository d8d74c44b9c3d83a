/**
 * The SampleDB story, the kubebuilder guide's typical operator on the embedded cluster: a
 * database is provisioned (claims, StatefulSet, init Job), backed up on a schedule (on a
 * virtual clock: ten minutes pass in a second), upgraded, refused a downgrade, and
 * deleted — a snapshot of every volume first. Last, a snapshot that fails holds the deletion
 * and says why until the storage is fixed.
 *
 *   deno run -A examples/sampledb.ts               # play the story, then keep serving for kubectl
 *   deno run -A examples/sampledb.ts --demo-only   # play the story and exit (0 = every step passed)
 *   deno run -A examples/sampledb.ts --verbose     # also print the controllers' JSON-lines logs
 *
 * While it serves: `watch kubectl get sampledb -o wide` shows phases, versions and backups.
 *
 * @module
 */
import type { KubeObject } from "../mod.ts";
import { runStory, type Story } from "./_story.ts";
import { type SampleDB, sampleDbController, sampleDbCrd } from "../controllers/sampledb/mod.ts";
import type { VolumeSnapshot } from "../controllers/snapshots/types.ts";

const DB = { apiVersion: "db.example.com/v1alpha1", kind: "SampleDB" };
const STS = { apiVersion: "apps/v1", kind: "StatefulSet" };
const JOB = { apiVersion: "batch/v1", kind: "Job" };
const PVC = { apiVersion: "v1", kind: "PersistentVolumeClaim" };
const POD = { apiVersion: "v1", kind: "Pod" };
const VS = { apiVersion: "snapshot.storage.k8s.io/v1", kind: "VolumeSnapshot" };

// deno-lint-ignore no-explicit-any
type Obj = KubeObject & { spec?: any; status?: any };

const orders = (version: string): KubeObject => ({
  ...DB,
  metadata: { name: "orders", namespace: "default" },
  spec: {
    version,
    replicas: 2,
    storage: { size: "1Gi" },
    backup: { schedule: "*/10 * * * *", retention: 2 },
  },
});

/** Prints `kubectl get sampledb -o wide`-like lines whenever one changes. */
function showChanges(s: Story): () => void {
  const shown = new Map<string, string>();
  const sub = s.changes$.subscribe(() => {
    for (const db of s.store<SampleDB & KubeObject>(DB).list()) {
      const st = db.status;
      const line = [
        db.metadata?.name,
        st?.phase ?? "-",
        st?.currentVersion ?? "-",
        `${st?.readyReplicas ?? 0}/${db.spec.replicas ?? 1}`,
        st?.lastBackup ?? "<none>",
      ].join("  ");
      if (shown.get(db.metadata?.name ?? "") === line) continue;
      shown.set(db.metadata?.name ?? "", line);
      s.say(`    sampledb ${line}`);
    }
  });
  return () => sub.unsubscribe();
}

await runStory({
  name: "sampledb",
  crds: [sampleDbCrd as unknown as KubeObject],
  controllers: [sampleDbController()],
  watch: [DB, STS, JOB, PVC, POD, VS],
  hint: [
    "  watch kubectl get sampledb -o wide",
    "  kubectl apply -f - <<'YAML'",
    JSON.stringify(orders("16.4"), null, 2),
    "YAML",
    "  kubectl get statefulsets,pods,pvc,cronjobs,jobs,volumesnapshots",
    '  kubectl patch sampledb orders --type merge -p \'{"spec":{"version":"17.1"}}\'',
    "  kubectl delete sampledb orders",
  ].join("\n"),
}, async (s) => {
  const stop = showChanges(s);
  const ns = { namespace: s.namespace };
  const db = (name = "orders") => s.store<SampleDB & KubeObject>(DB).get(`default/${name}`);
  const list = (kind: typeof DB) => s.store<Obj>(kind).list();
  const cond = (type: string, name = "orders") =>
    db(name)?.status?.conditions?.find((c) => c.type === type);
  const setVersion = async (version: string) =>
    s.must(
      `Cannot set spec.version ${version}`,
      await s.client.patch(DB, "orders", {
        ...ns,
        patch: { type: "merge", body: { spec: { version } } },
      }),
    );

  s.say(
    "step 1: a developer asks for SampleDB orders (15.8, 2 replicas, 1Gi, backups every 10 min)",
  );
  s.must("Cannot create SampleDB orders", await s.client.create(orders("15.8")));
  await s.until(
    "phase Ready: StatefulSet rolled out, init Job done",
    () => db()?.status?.phase === "Ready",
  );
  await s.until(
    "2 claims bound (data-orders-0, data-orders-1)",
    () => list(PVC).filter((c) => c.status?.phase === "Bound").length === 2,
  );
  const inits = list(JOB).filter((j) => j.metadata?.name === "orders-init");
  if (inits.length !== 1) throw new Error(`expected one init Job, found ${inits.length}`);

  s.say("step 2: backups run on the virtual clock; retention keeps the last 2");
  const backups = new Set<string>();
  await s.until("3 backups completed", () => {
    const last = db()?.status?.lastBackup;
    if (last) backups.add(last);
    return backups.size >= 3;
  });
  await s.until(
    "at most 2 finished backup Jobs kept",
    () =>
      list(JOB).filter((j) => j.metadata?.name?.startsWith("orders-backup-") && j.status?.succeeded)
        .length <= 2,
  );

  s.say("step 3: upgrade to 16.4 (backups suspended, upgrade Job, pods roll, version recorded)");
  await setVersion("16.4");
  await s.until("phase Upgrading", () => db()?.status?.phase === "Upgrading");
  await s.until(
    "the upgrade Job ran",
    () =>
      list(JOB).some((j) => j.metadata?.name === "orders-upgrade" && j.status?.succeeded === 1) ||
      db()?.status?.currentVersion === "16.4",
  );
  await s.until(
    "version 16.4 recorded, phase Ready, both pods on postgres:16.4",
    () =>
      db()?.status?.currentVersion === "16.4" && db()?.status?.phase === "Ready" &&
      list(POD).filter((p) =>
        p.metadata?.name?.match(/^orders-\d$/) && !p.metadata.deletionTimestamp
      )
        .every((p) => p.spec?.containers?.[0]?.image === "postgres:16.4"),
  );

  s.say("step 4: a downgrade to 15.2 is refused");
  await setVersion("15.2");
  await s.until(
    "VersionAccepted=False (DowngradeRefused), still 16.4",
    () =>
      cond("VersionAccepted")?.reason === "DowngradeRefused" &&
      db()?.status?.currentVersion === "16.4",
  );
  s.say(`    ${cond("VersionAccepted")?.message}`);
  await setVersion("16.4");
  await s.until("VersionAccepted=True again", () => cond("VersionAccepted")?.status === "True");

  s.say("step 5: delete orders: a snapshot of each volume first, then the StatefulSet and claims");
  s.must("Cannot delete orders", await s.client.delete(DB, "orders", ns));
  await s.until(
    "2 VolumeSnapshots readyToUse",
    () =>
      s.store<VolumeSnapshot & KubeObject>(VS).list().filter((v) => v.status?.readyToUse).length ===
        2,
  );
  await s.until(
    "SampleDB, StatefulSet and claims gone; the snapshots stay",
    () =>
      db() === undefined && !list(STS).some((x) => x.metadata?.name === "orders") &&
      list(PVC).length === 0 && list(VS).length === 2,
  );

  s.say("step 6: a snapshot that fails holds the deletion and says why");
  const brokenClass = {
    apiVersion: VS.apiVersion,
    kind: "VolumeSnapshotClass",
    metadata: { name: "flaky" },
    driver: "hostpath.csi.k8s.io",
    deletionPolicy: "Delete",
    parameters: { "simulation.kubefold.dev/error": "snapshot quota exceeded" },
  };
  s.must("Cannot create VolumeSnapshotClass flaky", await s.client.create(brokenClass));
  s.must(
    "Cannot create SampleDB scratch",
    await s.client.create({
      ...DB,
      metadata: { name: "scratch", namespace: "default" },
      spec: { version: "16.4", storage: { snapshotClassName: "flaky" } },
    }),
  );
  await s.until("scratch Ready", () => db("scratch")?.status?.phase === "Ready");
  s.must("Cannot delete scratch", await s.client.delete(DB, "scratch", ns));
  await s.until(
    "scratch stays Deleting: Snapshotted=False (SnapshotFailed)",
    () =>
      cond("Snapshotted", "scratch")?.reason === "SnapshotFailed" &&
      list(STS).some((x) => x.metadata?.name === "scratch"),
  );
  s.say(`    ${cond("Snapshotted", "scratch")?.message}`);
  s.say("    the storage admin fixes the class (drops the failing parameter)");
  s.must(
    "Cannot fix the class",
    await s.client.patch(
      { apiVersion: VS.apiVersion, kind: "VolumeSnapshotClass" },
      "flaky",
      { patch: { type: "merge", body: { parameters: null } } },
    ),
  );
  await s.until(
    "the retry succeeds and scratch is gone",
    () => db("scratch") === undefined && !list(STS).some((x) => x.metadata?.name === "scratch"),
  );
  stop();
  return 6;
});
