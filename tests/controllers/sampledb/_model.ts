/**
 * Test helpers: a tiny model cluster for the SampleDB reconciler — an applier for its plans
 * and the other controllers' moves (StatefulSet roll-out, Jobs finishing, the CronJob firing,
 * the snapshotter) — so properties can run whole traces without a server.
 */
import type { KubeObject } from "../../../lib/core/object.ts";
import { formatTime } from "../../../lib/core/time.ts";
import type { Plan } from "../../../lib/reconcile/plan.ts";
import { worldFromObjects } from "../../../lib/reconcile/world.ts";
import { ownerReference } from "../../../lib/reconcile/owner_reference.ts";
import { fieldManagerOf } from "../../../lib/controller/field_manager.ts";
import { modelWriteOp } from "../../_model_writes.ts";
import { type Step, traceArb, VERSIONS } from "./_steps.ts";
import {
  reconcileSampleDb,
  type SampleDB,
  SAMPLEDB_FINALIZER,
  sampleDbController,
  type SampleDbWorld,
} from "../../../controllers/sampledb/mod.ts";

export const NS = "default";
export const NAME = "orders";
export const UID = "0badc0de-1111-2222-3333-444455556666";
/** The field manager the controller runtime gives the SampleDB reconciler. */
export const MANAGER = fieldManagerOf(sampleDbController().name);

// deno-lint-ignore no-explicit-any
export type Obj = KubeObject & { spec?: any; status?: any; data?: any };

/** The model: the SampleDB, every other object by `Kind/name`, the clock, and a log. */
export interface Model {
  db: SampleDB | undefined;
  objects: Map<string, Obj>;
  now: number;
  uids: number;
  /** Every write that landed, in order (`create Job/orders-init`, `delete PersistentVolumeClaim/...`). */
  log: string[];
  /** The snapshotter fails every snapshot. */
  snapshotsFail: boolean;
}

export const idOf = (o: { kind?: string; metadata?: { name?: string } }) =>
  `${o.kind}/${o.metadata?.name}`;

export function newModel(spec: SampleDB["spec"], snapshotsFail = false): Model {
  return {
    db: {
      apiVersion: "db.example.com/v1alpha1",
      kind: "SampleDB",
      metadata: { namespace: NS, name: NAME, uid: UID, generation: 1, resourceVersion: "1" },
      spec,
    },
    objects: new Map(),
    now: Date.parse("2025-01-01T00:00:00Z"),
    uids: 0,
    log: [],
    snapshotsFail,
  };
}

/** The reconciler's world over the model's objects. */
export function worldOf(m: Model): SampleDbWorld {
  const of = <T>(kind: string) =>
    worldFromObjects([...m.objects.values()].filter((o) => o.kind === kind)) as never as T;
  return {
    statefulSets: of("StatefulSet"),
    services: of("Service"),
    configMaps: of("ConfigMap"),
    secrets: of("Secret"),
    jobs: of("Job"),
    cronJobs: of("CronJob"),
    claims: of("PersistentVolumeClaim"),
    snapshots: of("VolumeSnapshot"),
  };
}

/** Runs the real reconciler on the model (throws on a Left). */
export function reconcileModel(m: Model, password = "pw-1"): Plan {
  const r = reconcileSampleDb(structuredClone(m.db!), worldOf(m), {
    now: m.now,
    password,
    fieldManager: MANAGER,
  });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

const bumpRv = (db: SampleDB) =>
  db.metadata!.resourceVersion = String(Number(db.metadata!.resourceVersion ?? "0") + 1);

/** Removes an object and, like the garbage collector, what it controls. */
function remove(m: Model, id: string): void {
  const o = m.objects.get(id);
  if (!o) return;
  m.objects.delete(id);
  m.log.push(`delete ${id}`);
  for (const [k, child] of [...m.objects]) {
    if (child.metadata?.ownerReferences?.some((r) => r.uid === o.metadata?.uid)) remove(m, k);
  }
}

/**
 * Executes a plan like the applier and the API server: deletes, then writes, then status;
 * "already" is fine. Creates POST (or apply without force, `apply: true`) and applies are
 * server-side applies by {@link MANAGER}, with managed fields.
 */
export function applyModel(m: Model, plan: Plan): void {
  const rank = (t: string) => (t === "delete" ? 0 : t === "status" ? 2 : 1);
  for (const op of [...plan.ops].sort((a, b) => rank(a.type) - rank(b.type))) {
    switch (op.type) {
      case "delete": {
        const id = `${op.ref.kind}/${op.ref.name}`;
        if (m.objects.get(id)?.metadata?.uid === op.ref.uid) remove(m, id);
        break;
      }
      case "create":
      case "apply": {
        const id = idOf(op.object);
        const written = modelWriteOp(op, m.objects.get(id), {
          manager: MANAGER,
          now: m.now,
          owner: op.type === "create" && op.owned === false ? undefined : m.db,
          uid: () => `uid-${++m.uids}`,
        });
        if (written === undefined) break; // AlreadyExists (a conflict, for a create by apply)
        m.objects.set(id, written);
        m.log.push(`${op.type} ${id}`);
        break;
      }
      case "patch": {
        // Only the finalizer patches of withFinalizer (JSON patch on the SampleDB).
        const db = m.db!;
        const ops = op.patch as { op: string; path: string; value?: unknown }[];
        const fins = [...(db.metadata?.finalizers ?? [])];
        const testOk = ops.every((p) =>
          p.op !== "test" ||
          (p.path === "/metadata/resourceVersion"
            ? p.value === db.metadata?.resourceVersion
            : fins[Number(p.path.split("/").pop())] === p.value)
        );
        if (!testOk) break;
        for (const p of ops) {
          if (p.op === "add") {
            fins.push(...(Array.isArray(p.value) ? p.value : [p.value as string]));
          }
          if (p.op === "remove") fins.splice(Number(p.path.split("/").pop()), 1);
        }
        db.metadata!.finalizers = fins;
        bumpRv(db);
        m.log.push(`patch SampleDB finalizers=${fins.join(",")}`);
        if (db.metadata?.deletionTimestamp && fins.length === 0) {
          m.db = undefined;
          for (const [k, o] of [...m.objects]) {
            if (o.metadata?.ownerReferences?.some((r) => r.uid === UID)) remove(m, k);
          }
        }
        break;
      }
      case "status":
        if (op.ref.kind === "SampleDB" && m.db) {
          m.db.status = { ...m.db.status, ...structuredClone(op.status) } as SampleDB["status"];
          bumpRv(m.db);
          m.log.push("status SampleDB");
        }
        break;
    }
  }
}

/** Reconciles and applies until the plan has no ops (at most `rounds`); returns the rounds. */
export function settleModel(m: Model, rounds = 8): number {
  for (let i = 0; i < rounds; i++) {
    if (!m.db) return i;
    const plan = reconcileModel(m);
    if (plan.ops.length === 0) return i;
    applyModel(m, plan);
  }
  throw new Error(`no fixpoint after ${rounds} rounds: ${JSON.stringify(reconcileModel(m).ops)}`);
}

const running = (j: Obj) =>
  !(j.status?.conditions ?? []).some((c: { status: string }) => c.status === "True");
export const jobsOf = (m: Model, task: "init" | "upgrade" | "backup") =>
  [...m.objects.values()].filter((o) =>
    o.kind === "Job" &&
    (task === "backup"
      ? o.metadata?.name?.startsWith(`${NAME}-backup-`)
      : o.metadata?.name === `${NAME}-${task}`)
  );
export const runningJobs = (m: Model, task: "init" | "upgrade" | "backup") =>
  jobsOf(m, task).filter(running);

const condition = (type: string) => ({ type, status: "True" });

/** Carries out one step on the model. */
export function stepModel(m: Model, step: Step): void {
  const db = m.db;
  if (!db) return;
  switch (step.type) {
    case "reconcile":
      return applyModel(m, reconcileModel(m));
    case "rollOut": {
      const sts = m.objects.get(`StatefulSet/${NAME}`);
      if (!sts) return;
      const n = sts.spec.replicas ?? 1;
      sts.status = {
        observedGeneration: sts.metadata?.generation,
        replicas: n,
        readyReplicas: n,
        updatedReplicas: n,
        currentRevision: `r${sts.metadata?.generation}`,
        updateRevision: `r${sts.metadata?.generation}`,
      };
      for (let i = 0; i < n; i++) {
        const id = `PersistentVolumeClaim/data-${NAME}-${i}`;
        if (m.objects.has(id)) continue;
        m.objects.set(id, {
          apiVersion: "v1",
          kind: "PersistentVolumeClaim",
          metadata: { namespace: NS, name: `data-${NAME}-${i}`, uid: `uid-${++m.uids}` },
          spec: { volumeName: `pv-${i}` },
          status: { phase: "Bound" },
        });
      }
      return;
    }
    case "finishJob": {
      const job = runningJobs(m, step.task)[0];
      if (!job) return;
      job.status = {
        conditions: [condition(step.ok ? "Complete" : "Failed")],
        ...(step.ok ? { completionTime: formatTime(m.now) } : {}),
      };
      const cron = m.objects.get(`CronJob/${NAME}-backup`);
      if (step.task === "backup" && step.ok && cron) {
        cron.status = { ...cron.status, lastSuccessfulTime: formatTime(m.now) };
      }
      return;
    }
    case "cronFires": {
      const cron = m.objects.get(`CronJob/${NAME}-backup`);
      if (!cron || cron.spec.suspend || runningJobs(m, "backup").length > 0) return;
      const name = `${NAME}-backup-${++m.uids}`;
      m.objects.set(`Job/${name}`, {
        apiVersion: "batch/v1",
        kind: "Job",
        metadata: {
          namespace: NS,
          name,
          uid: `uid-${m.uids}`,
          ownerReferences: [{ ...ownerReference(cron), controller: true }],
        },
        spec: {},
      });
      m.log.push(`create Job/${name}`);
      return;
    }
    case "snapshotter":
      for (const vs of m.objects.values()) {
        if (vs.kind !== "VolumeSnapshot" || vs.status) continue;
        vs.status = m.snapshotsFail
          ? { readyToUse: false, error: { message: "quota exceeded", time: formatTime(m.now) } }
          : { readyToUse: true, boundVolumeSnapshotContentName: `snapcontent-${vs.metadata?.uid}` };
      }
      return;
    case "setVersion":
      if (db.metadata?.deletionTimestamp) return;
      db.spec = { ...db.spec, version: step.version };
      db.metadata!.generation! += 1;
      bumpRv(db);
      return;
    case "toggleBackup": {
      if (db.metadata?.deletionTimestamp) return;
      const { backup, ...rest } = db.spec;
      db.spec = backup ? rest : { ...rest, backup: { schedule: "0 * * * *", retention: 2 } };
      db.metadata!.generation! += 1;
      bumpRv(db);
      return;
    }
    case "delete":
      if ((db.metadata?.finalizers ?? []).length === 0) {
        m.db = undefined;
        for (const [k, o] of [...m.objects]) {
          if (o.metadata?.ownerReferences?.some((r) => r.uid === UID)) remove(m, k);
        }
      } else if (!db.metadata?.deletionTimestamp) {
        db.metadata!.deletionTimestamp = formatTime(m.now);
        bumpRv(db);
      }
      return;
    case "tick":
      m.now += 60_000;
      return;
    case "progress":
      stepModel(m, { type: "rollOut" });
      stepModel(m, { type: "reconcile" });
      for (const task of ["init", "upgrade", "backup"] as const) {
        stepModel(m, { type: "finishJob", task, ok: true });
      }
      stepModel(m, { type: "snapshotter" });
      stepModel(m, { type: "reconcile" });
      return;
  }
}

export { SAMPLEDB_FINALIZER, type Step, traceArb, VERSIONS };
