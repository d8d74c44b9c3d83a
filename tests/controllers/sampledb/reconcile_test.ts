import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { SampleDB } from "../../../controllers/sampledb/mod.ts";
import {
  applyModel,
  jobsOf,
  type Model,
  NAME,
  newModel,
  type Obj,
  reconcileModel,
  runningJobs,
  SAMPLEDB_FINALIZER,
  settleModel,
  type Step,
  stepModel,
  traceArb,
  UID,
  VERSIONS,
} from "./_model.ts";

const RUNS = { numRuns: 200 };

const specArb: fc.Arbitrary<SampleDB["spec"]> = fc.record({
  version: fc.constantFrom(...VERSIONS),
  replicas: fc.integer({ min: 1, max: 3 }),
  backup: fc.option(fc.constant({ schedule: "*/5 * * * *", retention: 2 }), { nil: undefined }),
}).map(({ backup, ...rest }) => (backup ? { ...rest, backup } : rest));

/** Runs a trace, checking `invariant` after every step; reconciles use a fresh password each. */
function run(m: Model, trace: readonly Step[], invariant: (m: Model, i: number) => void): void {
  trace.forEach((step, i) => {
    if (step.type === "reconcile" && m.db) applyModel(m, reconcileModel(m, `pw-${i}`));
    else stepModel(m, step);
    invariant(m, i);
  });
}

const secretOf = (m: Model) => m.objects.get(`Secret/${NAME}-credentials`);
const conditionOf = (m: Model, type: string) =>
  m.db?.status?.conditions?.find((c) => c.type === type);

Deno.test("reconcileSampleDb() reaches a fixpoint: from any reachable state, applied plans settle to no ops within 4 rounds", () => {
  let most = 0;
  fc.assert(
    fc.property(specArb, traceArb, fc.boolean(), (spec, trace, fail) => {
      const m = newModel(spec, fail);
      run(m, trace, () => {});
      const rounds = settleModel(m);
      most = Math.max(most, rounds);
      assert.ok(rounds <= 4, `took ${rounds} rounds`);
      if (m.db) assert.deepEqual(reconcileModel(m, "another").ops, [], "stays empty");
    }),
    RUNS,
  );
  assert.ok(most >= 2, "some traces need more than one round (finalizer, then children)");
});

Deno.test("reconcileSampleDb() never lets an upgrade Job and a backup Job run at once", () => {
  fc.assert(
    fc.property(specArb, traceArb, (spec, trace) => {
      const m = newModel({ ...spec, backup: { schedule: "*/5 * * * *", retention: 2 } });
      run(m, trace, (m, i) => {
        const both = runningJobs(m, "upgrade").length > 0 && runningJobs(m, "backup").length > 0;
        assert.ok(!both, `step ${i}: upgrade and backup run together`);
        assert.ok(jobsOf(m, "upgrade").length <= 1);
      });
    }),
    { numRuns: 300 },
  );
});

Deno.test("reconcileSampleDb() deletes a claim only when a ready snapshot of it, for this database, is observed", () => {
  fc.assert(
    fc.property(specArb, traceArb, fc.boolean(), (spec, trace, fail) => {
      const m = newModel(spec, fail);
      trace.forEach((step) => {
        if (step.type !== "reconcile" || !m.db) return stepModel(m, step);
        const plan = reconcileModel(m);
        for (const op of plan.ops) {
          if (op.type !== "delete" || op.ref.kind !== "PersistentVolumeClaim") continue;
          const ready = [...m.objects.values()].some((s) =>
            s.kind === "VolumeSnapshot" && s.status?.readyToUse === true &&
            s.spec?.source?.persistentVolumeClaimName === op.ref.name &&
            s.metadata?.labels?.["db.example.com/snapshot-of"] === UID
          );
          assert.ok(ready, `deleted ${op.ref.name} without a ready snapshot`);
          assert.ok(m.db.metadata?.deletionTimestamp, "claims go only on delete");
        }
        applyModel(m, plan);
      });
    }),
    { numRuns: 300 },
  );
});

Deno.test("reconcileSampleDb() never replaces the credentials Secret: created once, never written again", () => {
  fc.assert(
    fc.property(specArb, traceArb, (spec, trace) => {
      const m = newModel(spec);
      let first: unknown;
      trace.forEach((step, i) => {
        if (step.type !== "reconcile" || !m.db) return stepModel(m, step);
        // Also from a stale view without the Secret: the create meets AlreadyExists.
        const stale = i % 3 === 0 && secretOf(m);
        if (stale) m.objects.delete(`Secret/${NAME}-credentials`);
        const plan = reconcileModel(m, `pw-${i}`);
        if (stale) m.objects.set(`Secret/${NAME}-credentials`, stale);
        for (const op of plan.ops) {
          if (op.type === "event") continue;
          const kind = op.type === "create" || op.type === "apply" ? op.object.kind : op.ref.kind;
          if (kind === "Secret") assert.equal(op.type, "create");
        }
        applyModel(m, plan);
        const s = secretOf(m);
        if (s && first === undefined) first = structuredClone(s.data);
        if (m.db && first !== undefined) assert.deepEqual(secretOf(m)?.data, first);
      });
    }),
    RUNS,
  );
});

Deno.test("reconcileSampleDb() runs the init Job at most once per database", () => {
  fc.assert(
    fc.property(specArb, traceArb, (spec, trace) => {
      const m = newModel(spec);
      run(m, trace, () => {});
      assert.ok(m.log.filter((l) => l === `create Job/${NAME}-init`).length <= 1);
    }),
    RUNS,
  );
});

/** Drives the model with the cluster's moves until `done` (or `limit` rounds). */
function drive(m: Model, done: (m: Model) => boolean, limit = 30): void {
  const moves: Step[] = [
    { type: "reconcile" },
    { type: "rollOut" },
    { type: "reconcile" },
    { type: "finishJob", task: "init", ok: true },
    { type: "finishJob", task: "upgrade", ok: true },
    { type: "finishJob", task: "backup", ok: true },
    { type: "snapshotter" },
  ];
  for (let i = 0; i < limit && !done(m); i++) for (const s of moves) stepModel(m, s);
  assert.ok(done(m), `not done after ${limit} rounds: ${JSON.stringify(m.db?.status)}`);
}

Deno.test("reconcileSampleDb() upgrades in order: backups suspended, upgrade Job, pods roll, version recorded, backups resume", () => {
  const m = newModel({ version: "15.8", backup: { schedule: "*/5 * * * *", retention: 2 } });
  drive(m, (m) => m.db?.status?.phase === "Ready");
  stepModel(m, { type: "setVersion", version: "16.4" });
  const log = m.log.length;
  drive(m, (m) => m.db?.status?.currentVersion === "16.4" && m.db.status.phase === "Ready");
  const steps = m.log.slice(log);
  const at = (s: string) => steps.findIndex((l) => l.startsWith(s));
  assert.ok(at("apply CronJob") < at("create Job/orders-upgrade"), "backups suspended first");
  assert.ok(
    at("create Job/orders-upgrade") < at("apply StatefulSet"),
    "the Job runs before the roll",
  );
  assert.equal(
    m.objects.get(`StatefulSet/${NAME}`)?.spec.template.spec.containers[0].image,
    "postgres:16.4",
  );
  assert.equal(m.objects.get(`CronJob/${NAME}-backup`)?.spec.suspend, false, "backups resumed");
  assert.equal(jobsOf(m, "upgrade").length, 0, "the finished upgrade Job is removed");
});

Deno.test("reconcileSampleDb() refuses a downgrade with a condition and keeps running the current version", () => {
  const m = newModel({ version: "16.4" });
  drive(m, (m) => m.db?.status?.phase === "Ready");
  stepModel(m, { type: "setVersion", version: "15.2" });
  settleModel(m);
  stepModel(m, { type: "rollOut" });
  settleModel(m);
  assert.equal(conditionOf(m, "VersionAccepted")?.status, "False");
  assert.equal(conditionOf(m, "VersionAccepted")?.reason, "DowngradeRefused");
  assert.match(
    conditionOf(m, "VersionAccepted")?.message ?? "",
    /spec\.version 15\.2 is older than/,
  );
  assert.equal(m.db?.status?.currentVersion, "16.4");
  assert.equal(jobsOf(m, "upgrade").length, 0);
  assert.equal(
    m.objects.get(`StatefulSet/${NAME}`)?.spec.template.spec.containers[0].image,
    "postgres:16.4",
  );
});

Deno.test("reconcileSampleDb() on delete: snapshots every claim, then the StatefulSet, then the claims, then lets go", () => {
  const m = newModel({ version: "16.4", replicas: 2 });
  drive(m, (m) => m.db?.status?.phase === "Ready");
  stepModel(m, { type: "delete" });
  const log = m.log.length;
  drive(m, (m) => m.db === undefined);
  const steps = m.log.slice(log);
  const at = (s: string) => steps.findIndex((l) => l.startsWith(s));
  const snapshots = [...m.objects.values()].filter((o: Obj) => o.kind === "VolumeSnapshot");
  assert.equal(snapshots.length, 2);
  assert.ok(snapshots.every((s) => s.metadata?.ownerReferences === undefined), "not owned");
  assert.ok(at("create VolumeSnapshot") < at("delete StatefulSet"));
  assert.ok(at("delete StatefulSet") < at("delete PersistentVolumeClaim"));
  assert.ok(at("delete PersistentVolumeClaim") < at(`patch SampleDB finalizers=`));
  assert.equal([...m.objects.values()].filter((o) => o.kind === "PersistentVolumeClaim").length, 0);
});

Deno.test("reconcileSampleDb() keeps the finalizer and says why when a snapshot fails", () => {
  const m = newModel({ version: "16.4" }, true);
  drive(m, (m) => m.db?.status?.phase === "Ready");
  stepModel(m, { type: "delete" });
  for (let i = 0; i < 10; i++) {
    for (const s of ["reconcile", "snapshotter", "rollOut"] as const) stepModel(m, { type: s });
  }
  assert.ok(m.db?.metadata?.finalizers?.includes(SAMPLEDB_FINALIZER));
  assert.equal(m.db?.status?.phase, "Deleting");
  const c = conditionOf(m, "Snapshotted");
  assert.equal(c?.reason, "SnapshotFailed");
  assert.match(c?.message ?? "", /VolumeSnapshot default\/data-orders-0-0badc0de: quota exceeded/);
  assert.ok(
    m.objects.has(`StatefulSet/${NAME}`) && m.objects.has(`PersistentVolumeClaim/data-${NAME}-0`),
  );
  assert.ok(reconcileModel(m).requeueAfterMs !== undefined, "looks again");
});
