import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type Plan, worldFromObjects } from "../../../mod.ts";
import { reconcileJob } from "../../../controllers/workloads/reconcile_job.ts";
import { completionIndexOf, type Job } from "../../../controllers/workloads/job_progress.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";
import { applyPodPlan, kubeletStep, type PodCluster } from "./_pod_model.ts";

const UID = "job-uid";

interface JobArb {
  completions?: number;
  parallelism: number;
  backoffLimit: number;
  indexed: boolean;
  ttl?: number;
}

const jobArb: fc.Arbitrary<JobArb> = fc.record({
  completions: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  parallelism: fc.integer({ min: 1, max: 4 }),
  backoffLimit: fc.integer({ min: 0, max: 3 }),
  indexed: fc.boolean(),
  ttl: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
}).map((j) => (j.indexed && j.completions === undefined ? { ...j, completions: 2 } : j));

function job(j: JobArb): Job {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { namespace: "d", name: "pi", uid: UID },
    spec: {
      ...(j.completions !== undefined ? { completions: j.completions } : {}),
      parallelism: j.parallelism,
      backoffLimit: j.backoffLimit,
      completionMode: j.indexed ? "Indexed" : "NonIndexed",
      ...(j.ttl !== undefined ? { ttlSecondsAfterFinished: j.ttl } : {}),
      selector: { matchLabels: { "batch.kubernetes.io/controller-uid": UID } },
      template: {
        metadata: { labels: { "batch.kubernetes.io/controller-uid": UID } },
        spec: { restartPolicy: "Never", containers: [{ name: "c", image: "perl" }] },
      },
    },
  };
}

function plan(c: PodCluster<Job>): Plan {
  const r = reconcileJob(c.primary, { pods: worldFromObjects<Pod>(c.pods) }, { now: c.clock });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

const cond = (j: Job, type: string) =>
  j.status?.conditions?.find((c) => c.type === type && c.status === "True");
const active = (pods: readonly Pod[]) =>
  pods.filter((p) =>
    !p.metadata?.deletionTimestamp && p.status?.phase !== "Succeeded" &&
    p.status?.phase !== "Failed"
  );

/** Runs the model until the Job is finished (and stays so), checking bounds on the way. */
function runToEnd(j: JobArb, outcomes: boolean[]) {
  let c: PodCluster<Job> & { deleted?: boolean } = { primary: job(j), pods: [], clock: 0 };
  let k = 0;
  const next = () => (k < outcomes.length ? outcomes[k++] : true);
  for (let round = 0; round < 80; round++) {
    const p = plan(c);
    c = applyPodPlan(c, p);
    if (c.deleted) return { c, rounds: round };
    const live = active(c.pods);
    assert.ok(live.length <= j.parallelism, `${live.length} active pods > parallelism`);
    if (j.completions !== undefined && !j.indexed) {
      const succeeded = c.pods.filter((x) => x.status?.phase === "Succeeded").length;
      assert.ok(live.length <= Math.max(0, j.completions - succeeded), "more pods than work left");
    }
    if (j.indexed) {
      const idx = live.map((x) => completionIndexOf(x));
      assert.equal(new Set(idx).size, idx.length, "two active pods share an index");
    }
    c = { ...c, pods: kubeletStep(c.pods, next), clock: c.clock + 1_000 };
  }
  return { c, rounds: 80 };
}

Deno.test("reconcileJob() runs a Job to Complete or Failed within parallelism, as its pods decide", () => {
  fc.assert(
    fc.property(jobArb, fc.array(fc.boolean(), { maxLength: 12 }), (j, outcomes) => {
      const { c } = runToEnd({ ...j, ttl: undefined }, outcomes);
      const done = c.primary;
      const complete = cond(done, "Complete"), failed = cond(done, "Failed");
      assert.ok(!!complete !== !!failed, "exactly one terminal condition");
      const succeeded = c.pods.filter((p) => p.status?.phase === "Succeeded").length;
      const failures = c.pods.filter((p) => p.status?.phase === "Failed").length;
      assert.equal(done.status?.succeeded, succeeded);
      assert.equal(done.status?.failed, failures);
      assert.equal(active(c.pods).length, 0);
      if (complete) {
        assert.ok(cond(done, "SuccessCriteriaMet"));
        assert.ok(done.status?.completionTime);
        if (j.completions !== undefined) assert.equal(succeeded, j.completions);
        else assert.ok(succeeded >= 1);
        assert.ok(failures <= j.backoffLimit);
      } else {
        assert.ok(cond(done, "FailureTarget"));
        assert.equal(failed?.reason, "BackoffLimitExceeded");
        // Pods running side by side may fail together: at most parallelism past the limit.
        assert.ok(failures > j.backoffLimit && failures <= j.backoffLimit + j.parallelism);
      }
      // A finished Job is left alone (no TTL here).
      assert.deepEqual(plan(c).ops, []);
    }),
    { numRuns: 200 },
  );
});

Deno.test("reconcileJob() deletes a finished Job once ttlSecondsAfterFinished passed, requeueing until then", () => {
  fc.assert(
    fc.property(jobArb, fc.integer({ min: 0, max: 5 }), (j, ttl) => {
      const { c } = runToEnd({ ...j, ttl }, []);
      assert.ok(cond(c.primary, "Complete"));
      const at = Date.parse(c.primary.status!.completionTime!);
      const early = reconcileJob(c.primary, { pods: worldFromObjects<Pod>(c.pods) }, {
        now: at + ttl * 1000 - 1,
      });
      assert.ok(early._tag === "Right");
      assert.deepEqual(early.right, { ops: [], requeueAfterMs: 1 });
      const late = reconcileJob(c.primary, { pods: worldFromObjects<Pod>(c.pods) }, {
        now: at + ttl * 1000,
      });
      assert.ok(late._tag === "Right");
      assert.deepEqual(late.right.ops.map((o) => [o.type, "ref" in o ? o.ref.kind : ""]), [[
        "delete",
        "Job",
      ]]);
    }),
    { numRuns: 50 },
  );
});

Deno.test("reconcileJob() fails a Job past activeDeadlineSeconds, deleting its running pods first", () => {
  let c: PodCluster<Job> = {
    primary: { ...job({ parallelism: 2, completions: 4, backoffLimit: 6, indexed: false }) },
    pods: [],
    clock: 0,
  };
  c = { ...c, primary: { ...c.primary, spec: { ...c.primary.spec!, activeDeadlineSeconds: 5 } } };
  const first = plan(c);
  assert.equal(first.requeueAfterMs, 5_000);
  c = applyPodPlan(c, first);
  c = { ...c, pods: kubeletStep(c.pods, () => undefined), clock: 5_000 };
  const late = plan(c);
  assert.deepEqual(late.ops.filter((o) => o.type === "delete").length, 2);
  c = applyPodPlan(c, late);
  assert.equal(cond(c.primary, "FailureTarget")?.reason, "DeadlineExceeded");
  assert.equal(cond(c.primary, "Failed"), undefined, "not Failed while pods terminate");
  c = { ...c, pods: kubeletStep(c.pods, () => undefined) };
  c = applyPodPlan(c, plan(c));
  assert.equal(cond(c.primary, "Failed")?.reason, "DeadlineExceeded");
});

Deno.test("reconcileJob() suspends (no pods, Suspended) and resumes with a new startTime", () => {
  const j = job({ parallelism: 2, completions: 2, backoffLimit: 1, indexed: false });
  let c: PodCluster<Job> = { primary: j, pods: [], clock: 0 };
  c = applyPodPlan(c, plan(c));
  assert.equal(active(c.pods).length, 2);
  c = {
    ...c,
    primary: { ...c.primary, spec: { ...c.primary.spec!, suspend: true } },
    clock: 9_000,
  };
  c = applyPodPlan(c, plan(c));
  assert.equal(active(c.pods).length, 0);
  assert.equal(cond(c.primary, "Suspended")?.reason, "JobSuspended");
  c = { ...c, pods: kubeletStep(c.pods, () => undefined) };
  c = { ...c, primary: { ...c.primary, spec: { ...c.primary.spec!, suspend: false } } };
  c = applyPodPlan(c, plan(c));
  assert.equal(active(c.pods).length, 2);
  assert.equal(c.primary.status?.startTime, "1970-01-01T00:00:09Z");
  assert.equal(
    c.primary.status?.conditions?.find((x) => x.type === "Suspended")?.status,
    "False",
  );
});
