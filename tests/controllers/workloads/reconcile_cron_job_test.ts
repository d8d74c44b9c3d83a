import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { formatTime, type Plan, worldFromObjects } from "../../../mod.ts";
import {
  type CronJob,
  cronJobName,
  reconcileCronJob,
  SCHEDULED_TIMESTAMP_ANNOTATION,
} from "../../../controllers/workloads/reconcile_cron_job.ts";
import type { Job } from "../../../controllers/workloads/job_progress.ts";

const UID = "cj-uid";
const T0 = Date.parse("2025-01-01T00:00:00Z");

interface CjArb {
  schedule: string;
  policy: "Allow" | "Forbid" | "Replace";
  suspend: boolean;
  deadline?: number;
  keepOk: number;
  keepFailed: number;
}

const cjArb: fc.Arbitrary<CjArb> = fc.record({
  schedule: fc.constantFrom("* * * * *", "*/5 * * * *", "@hourly", "0,30 * * * *", "@every 90s"),
  policy: fc.constantFrom("Allow" as const, "Forbid" as const, "Replace" as const),
  suspend: fc.boolean(),
  deadline: fc.option(fc.integer({ min: 10, max: 600 }), { nil: undefined }),
  keepOk: fc.integer({ min: 0, max: 3 }),
  keepFailed: fc.integer({ min: 0, max: 2 }),
});

const cronJob = (a: CjArb): CronJob => ({
  apiVersion: "batch/v1",
  kind: "CronJob",
  metadata: { namespace: "d", name: "tick", uid: UID, creationTimestamp: formatTime(T0) },
  spec: {
    schedule: a.schedule,
    concurrencyPolicy: a.policy,
    suspend: a.suspend,
    ...(a.deadline !== undefined ? { startingDeadlineSeconds: a.deadline } : {}),
    successfulJobsHistoryLimit: a.keepOk,
    failedJobsHistoryLimit: a.keepFailed,
    jobTemplate: {
      metadata: { labels: { app: "tick" } },
      spec: {
        template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "b" }] } },
      },
    },
  },
});

interface Cluster {
  cj: CronJob;
  jobs: Job[];
  now: number;
}

function plan(c: Cluster): Plan {
  const r = reconcileCronJob(c.cj, { jobs: worldFromObjects<Job>(c.jobs) }, { now: c.now });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

const finished = (j: Job) => j.status?.conditions?.some((x) => x.status === "True");
const isActive = (j: Job) => !finished(j);

/** Applies a plan to the model: creates add Jobs, deletes remove them, status replaces. */
function apply(c: Cluster, p: Plan): Cluster {
  let jobs = [...c.jobs];
  let cj = c.cj;
  for (const op of p.ops) {
    if (op.type === "create") {
      const name = op.object.metadata?.name;
      assert.ok(!jobs.some((j) => j.metadata?.name === name), `AlreadyExists ${name}`);
      const j = structuredClone(op.object) as Job;
      jobs.push({
        ...j,
        metadata: { ...j.metadata, uid: `u-${name}`, creationTimestamp: formatTime(c.now) },
        status: { startTime: formatTime(c.now) },
      });
    } else if (op.type === "delete") {
      assert.ok(jobs.some((j) => j.metadata?.uid === op.ref.uid), `NotFound ${op.ref.name}`);
      jobs = jobs.filter((j) => j.metadata?.uid !== op.ref.uid);
    } else if (op.type === "status") {
      cj = { ...cj, status: structuredClone(op.status) as CronJob["status"] };
    } else throw new Error(`unexpected ${op.type}`);
  }
  return { ...c, cj, jobs };
}

const finish = (j: Job, ok: boolean, now: number): Job => ({
  ...j,
  status: {
    ...j.status,
    ...(ok ? { completionTime: formatTime(now) } : {}),
    conditions: [{ type: ok ? "Complete" : "Failed", status: "True" }],
  },
});

Deno.test("reconcileCronJob() creates one Job per due time, honouring concurrency, suspend, deadlines and history", () => {
  fc.assert(
    fc.property(
      cjArb,
      fc.array(
        fc.record({
          advanceS: fc.integer({ min: 0, max: 400 }),
          outcome: fc.integer({ min: 0, max: 2 }),
        }),
        {
          minLength: 1,
          maxLength: 25,
        },
      ),
      (a, steps) => {
        let c: Cluster = { cj: cronJob(a), jobs: [], now: T0 };
        const created = new Set<string>();
        for (const s of steps) {
          c = { ...c, now: c.now + s.advanceS * 1000 };
          const activeBefore = c.jobs.filter(isActive).length;
          const p = plan(c);
          c = apply(c, p);
          const creates = p.ops.filter((o) => o.type === "create");
          assert.ok(creates.length <= 1, "two Jobs in one reconcile");
          if (a.suspend) assert.equal(creates.length, 0, "a suspended CronJob created a Job");
          for (const o of creates) {
            const name = o.type === "create" ? o.object.metadata?.name ?? "" : "";
            assert.ok(!created.has(name), `${name} created twice`);
            created.add(name);
            const at = Date.parse(
              (o.type === "create" &&
                o.object.metadata?.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION]) || "",
            );
            assert.equal(name, cronJobName("tick", at));
            assert.ok(at <= c.now, "a Job scheduled in the future");
            if (a.deadline !== undefined) {
              assert.ok(at >= c.now - a.deadline * 1000, "ran past its deadline");
            }
            if (a.policy === "Forbid") assert.equal(activeBefore, 0, "Forbid ran two Jobs at once");
          }
          if (a.policy !== "Allow") {
            assert.ok(c.jobs.filter(isActive).length <= 1, `${a.policy}: two active Jobs`);
          }
          const ok = c.jobs.filter((j) => j.status?.conditions?.[0]?.type === "Complete").length;
          const bad = c.jobs.filter((j) => j.status?.conditions?.[0]?.type === "Failed").length;
          assert.ok(ok <= a.keepOk && bad <= a.keepFailed, "history limits exceeded");
          assert.equal(c.cj.status?.active?.length, c.jobs.filter(isActive).length);
          if (!a.suspend) assert.ok(p.requeueAfterMs !== undefined && p.requeueAfterMs > 0);
          // The model's kubelet: each active Job finishes ok, fails, or runs on.
          c = {
            ...c,
            jobs: c.jobs.map((j) =>
              isActive(j) && s.outcome < 2 ? finish(j, s.outcome === 0, c.now) : j
            ),
          };
        }
        // A fixpoint at the same instant (after the status learns the new Job's uid).
        c = apply(c, plan(c));
        c = apply(c, plan(c));
        assert.deepEqual(plan(c).ops, []);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("reconcileCronJob() requeues at the next schedule time and records lastScheduleTime", () => {
  const a: CjArb = {
    schedule: "*/5 * * * *",
    policy: "Allow",
    suspend: false,
    keepOk: 3,
    keepFailed: 1,
  };
  let c: Cluster = { cj: cronJob(a), jobs: [], now: T0 + 61_000 };
  const first = plan(c);
  assert.equal(first.ops.length, 1, "nothing is due before 00:05 but a status write");
  assert.equal(first.requeueAfterMs, 239_000);
  c = apply({ ...c, now: T0 + 300_000 }, plan({ ...c, now: T0 + 300_000 }));
  assert.equal(c.cj.status?.lastScheduleTime, "2025-01-01T00:05:00Z");
  assert.deepEqual(c.jobs.map((j) => j.metadata?.name), [cronJobName("tick", T0 + 300_000)]);
  assert.equal(c.jobs[0].metadata?.ownerReferences?.[0].kind, "CronJob");
  assert.deepEqual(c.jobs[0].metadata?.labels, { app: "tick" });
  // Missed times are skipped: two hours later, only the latest due time runs.
  c = { ...c, now: T0 + 2 * 3600_000 + 1000 };
  c = apply(c, plan(c));
  assert.equal(c.cj.status?.lastScheduleTime, "2025-01-01T02:00:00Z");
  assert.equal(c.jobs.length, 2);
  c = { ...c, jobs: c.jobs.map((j) => finish(j, true, c.now)) };
  c = apply(c, plan(c));
  assert.equal(c.cj.status?.lastSuccessfulTime, "2025-01-01T02:00:01Z");
  assert.deepEqual(c.cj.status?.active, []);
});

Deno.test("reconcileCronJob() rejects an invalid time zone, naming the field", () => {
  const cj = cronJob({
    schedule: "* * * * *",
    policy: "Allow",
    suspend: false,
    keepOk: 1,
    keepFailed: 1,
  });
  const r = reconcileCronJob({ ...cj, spec: { ...cj.spec!, timeZone: "Nowhere/City" } }, {
    jobs: worldFromObjects<Job>([]),
  }, { now: T0 });
  assert.ok(r._tag === "Left" && r.left.message.includes("spec.timeZone"));
});
