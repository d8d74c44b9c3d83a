import assert from "node:assert/strict";
import { withApi } from "./_api.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";
import { parseCronSchedule } from "../../lib/core/cron_schedule.ts";

const pod = { containers: [{ name: "c", image: "busybox" }] };

Deno.test("a created Job gets kube-apiserver's defaults and a selector on its uid", () =>
  withApi(async (api) => {
    const r = await api.post("/apis/batch/v1/namespaces/default/jobs", {
      metadata: { name: "j" },
      spec: { template: { spec: { ...pod, restartPolicy: "Never" } } },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { spec, metadata } = r.body;
    assert.equal(spec.completions, 1);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.backoffLimit, 6);
    assert.equal(spec.completionMode, "NonIndexed");
    assert.deepEqual(spec.selector, {
      matchLabels: { "batch.kubernetes.io/controller-uid": metadata.uid },
    });
    assert.equal(spec.template.metadata.labels["batch.kubernetes.io/job-name"], "j");
    assert.equal(spec.template.metadata.labels["controller-uid"], metadata.uid);
    const moved = await api.patch("/apis/batch/v1/namespaces/default/jobs/j", {
      spec: { selector: { matchLabels: { a: "b" } } },
    });
    assert.equal(moved.status, 422);
    assert.match(moved.body.message, /spec\.selector: Invalid value: .*field is immutable/);
  }));

Deno.test("a Job whose pods would restart Always is rejected, naming the field", () =>
  withApi(async (api) => {
    const r = await api.post("/apis/batch/v1/namespaces/default/jobs", {
      metadata: { name: "j" },
      spec: { template: { spec: pod } },
    });
    assert.equal(r.status, 422);
    assert.match(
      r.body.message,
      /spec\.template\.spec\.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"/,
    );
  }));

Deno.test("a CronJob gets its defaults, and an unparseable schedule or time zone is rejected", () =>
  withApi(async (api) => {
    const cj = (schedule: string, timeZone?: string) => ({
      metadata: { name: `c${Math.abs(schedule.length)}` },
      spec: {
        schedule,
        ...(timeZone ? { timeZone } : {}),
        jobTemplate: { spec: { template: { spec: { ...pod, restartPolicy: "OnFailure" } } } },
      },
    });
    const ok = await api.post("/apis/batch/v1/namespaces/default/cronjobs", cj("@hourly"));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.spec.concurrencyPolicy, "Allow");
    assert.equal(ok.body.spec.successfulJobsHistoryLimit, 3);
    assert.equal(ok.body.spec.failedJobsHistoryLimit, 1);
    assert.equal(ok.body.spec.suspend, false);
    const bad = await api.post("/apis/batch/v1/namespaces/default/cronjobs", cj("61 * * * *"));
    assert.equal(bad.status, 422);
    assert.match(bad.body.message, /spec\.schedule: Invalid value: "61 \* \* \* \*"/);
    const zone = await api.post(
      "/apis/batch/v1/namespaces/default/cronjobs",
      cj("* * * * *", "Mars/Olympus"),
    );
    assert.equal(zone.status, 422);
    assert.match(zone.body.message, /spec\.timeZone: Invalid value: "Mars\/Olympus"/);
  }));

Deno.test("a ReplicationController's selector defaults to its template's labels; scale works", () =>
  withApi(async (api) => {
    const r = await api.post("/api/v1/namespaces/default/replicationcontrollers", {
      metadata: { name: "rc" },
      spec: { template: { metadata: { labels: { app: "x" } }, spec: pod } },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual(r.body.spec.selector, { app: "x" });
    assert.equal(r.body.spec.replicas, 1);
    const scale = await api.get("/api/v1/namespaces/default/replicationcontrollers/rc/scale");
    assert.equal(scale.status, 200);
    assert.equal(scale.body.spec.replicas, 1);
  }));

Deno.test("parseCronSchedule() follows the five-field standard, macros, @every and time zones", () => {
  const next = (s: string, at: string, tz?: string) => {
    const p = parseCronSchedule(s, tz);
    if (p._tag === "Left") throw new Error(p.left);
    const n = p.right.next(Date.parse(at));
    return n === undefined ? undefined : new Date(n).toISOString();
  };
  assert.equal(next("*/5 * * * *", "2025-01-01T00:05:00Z"), "2025-01-01T00:10:00.000Z");
  assert.equal(next("@hourly", "2025-01-01T00:30:00Z"), "2025-01-01T01:00:00.000Z");
  assert.equal(next("@every 90s", "2025-01-01T00:00:00Z"), "2025-01-01T00:01:30.000Z");
  // Both day fields restricted: either matches (1st of the month, or a Monday).
  assert.equal(next("0 0 1 * MON", "2025-01-01T01:00:00Z"), "2025-01-06T00:00:00.000Z");
  assert.equal(
    next("0 9 * * *", "2025-01-01T00:00:00Z", "Europe/Berlin"),
    "2025-01-01T08:00:00.000Z",
  );
  const latest = (s: string, after: string, at: string) => {
    const p = parseCronSchedule(s);
    if (p._tag === "Left") throw new Error(p.left);
    const t = p.right.latest(Date.parse(after), Date.parse(at));
    return t === undefined ? undefined : new Date(t).toISOString();
  };
  assert.equal(
    latest("*/5 * * * *", "2025-01-01T00:00:00Z", "2025-01-01T00:12:00Z"),
    "2025-01-01T00:10:00.000Z",
  );
  assert.equal(latest("*/5 * * * *", "2025-01-01T00:10:00Z", "2025-01-01T00:12:00Z"), undefined);
  assert.equal(
    latest("@every 1m", "2025-01-01T00:00:00Z", "2025-01-01T00:03:30Z"),
    "2025-01-01T00:03:00.000Z",
  );
  assert.equal(parseCronSchedule("* * * * * *")._tag, "Left");
  assert.equal(parseCronSchedule("TZ=UTC * * * * *")._tag, "Left");
});

Deno.test({
  name: "kubectl create job / cronjob / job --from=cronjob work, and get shows kubectl's columns",
  ignore: !kubectlAvailable(),
  fn: () =>
    withApi(async (api) => {
      const kubectl = await createKubectl(api.server.kubeconfig);
      try {
        const run = async (...args: string[]) => {
          const r = await kubectl.run(args);
          assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
          return r.stdout;
        };
        await run("create", "job", "once", "--image=busybox", "--", "echo", "hi");
        await run("create", "cronjob", "tick", "--image=busybox", "--schedule=*/5 * * * *");
        await run("create", "job", "manual", "--from=cronjob/tick");
        const jobs = await run("get", "jobs");
        assert.match(jobs, /NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE/);
        assert.match(jobs, /once\s+Running\s+0\/1/);
        const cjs = await run("get", "cronjobs");
        assert.match(cjs, /NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE/);
        assert.match(cjs, /tick\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+0\s+<none>/);
        const owner = await run(
          "get",
          "job",
          "manual",
          "-o",
          "jsonpath={.metadata.ownerReferences[0].kind}",
        );
        assert.equal(owner, "CronJob");
        // The new kinds are served (an unknown one would exit non-zero).
        await run("get", "rc,endpointslices,ds");
        await run("create", "service", "nodeport", "web", "--tcp=80:8080", "--node-port=30080");
        const svc = await run("get", "svc", "web");
        assert.match(svc, /NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE/);
        assert.match(svc, /web\s+NodePort\s+10\.96\.\d+\.\d+\s+<none>\s+80:30080\/TCP/);
        await run("create", "deployment", "api", "--image=nginx", "--port=8080");
        await run("expose", "deployment", "api", "--port=80", "--target-port=8080");
        const exposed = await run(
          "get",
          "svc",
          "api",
          "-o",
          "jsonpath={.spec.selector.app} {.spec.ports[0].targetPort}",
        );
        assert.equal(exposed, "api 8080");
      } finally {
        await kubectl.dispose();
      }
    }),
});
