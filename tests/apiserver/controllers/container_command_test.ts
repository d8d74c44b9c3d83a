import assert from "node:assert/strict";
import {
  containerCommand,
  expandVars,
} from "../../../lib/apiserver/controllers/container_command.ts";
import { executableFor, parseImageMap } from "../../../lib/apiserver/controllers/image_map.ts";
import { ContainerLog, readLog } from "../../../lib/apiserver/controllers/container_logs.ts";
import { processPodPhase } from "../../../lib/apiserver/controllers/process_pod_status.ts";
import { probeSpecOf, probeStep } from "../../../lib/apiserver/controllers/http_probe.ts";

Deno.test("parseImageMap() / executableFor(): patterns with *, relative paths from cwd, first match wins, malformed entries named", () => {
  const m = parseImageMap("example.com/op:*=./bin/op, nginx=/usr/bin/nginx", "/opt/project");
  assert.deepEqual(m, {
    _tag: "Right",
    right: [
      { pattern: "example.com/op:*", executable: "/opt/project/bin/op" },
      { pattern: "nginx", executable: "/usr/bin/nginx" },
    ],
  });
  if (m._tag !== "Right") return;
  assert.equal(executableFor(m.right, "example.com/op:0.1.0"), "/opt/project/bin/op");
  assert.equal(executableFor(m.right, "example.com/opx:1"), undefined);
  assert.equal(executableFor(m.right, "nginx:1.27"), undefined);
  assert.deepEqual(parseImageMap("nope", "/"), {
    _tag: "Left",
    left: 'Cannot map images: "nope" is not IMAGE-PATTERN=EXECUTABLE',
  });
});

Deno.test("containerCommand(): the executable replaces command[0]; env from values, the downward API, ConfigMaps and Secrets; $(VAR) expanded like the kubelet", () => {
  const pod = {
    metadata: { name: "p", namespace: "ns", uid: "u", labels: { app: "a" } },
    spec: { nodeName: "n1", serviceAccountName: "sa" },
  };
  const c = containerCommand(
    pod,
    {
      command: ["/manager", "--first"],
      args: ["--addr=$(POD_IP):8081", "$(MISSING)", "$$(ESCAPED)", "--ns=$(NS)"],
      env: [
        { name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
        { name: "NS", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
        { name: "SA", valueFrom: { fieldRef: { fieldPath: "spec.serviceAccountName" } } },
        { name: "APP", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: "URL", value: "http://$(POD_IP)/" },
        { name: "CM", valueFrom: { configMapKeyRef: { name: "c", key: "k" } } },
      ],
    },
    "/bin/op",
    {
      podIP: "127.245.1.2",
      hostIP: "172.18.0.2",
      baseEnv: { KUBERNETES_SERVICE_HOST: "127.0.0.1" },
      lookup: (kind, name, key) => `${kind}/${name}/${key}`,
    },
  );
  assert.equal(c.executable, "/bin/op");
  assert.deepEqual(c.args, [
    "--first",
    "--addr=127.245.1.2:8081",
    "$(MISSING)",
    "$(ESCAPED)",
    "--ns=ns",
  ]);
  assert.deepEqual(c.env, {
    KUBERNETES_SERVICE_HOST: "127.0.0.1",
    POD_IP: "127.245.1.2",
    NS: "ns",
    SA: "sa",
    APP: "a",
    URL: "http://127.245.1.2/",
    CM: "ConfigMap/c/k",
  });
  assert.equal(expandVars("$(A)$(B)", { A: "1" }), "1$(B)");
});

Deno.test("ContainerLog / readLog(): tail, since, timestamps; followers get later lines and the end", () => {
  const log = new ContainerLog(3);
  for (const [i, text] of ["a", "b", "c", "d"].entries()) log.push(text, i * 1000);
  assert.equal(readLog(log), "b\nc\nd\n", "bounded: the oldest line dropped");
  assert.equal(readLog(log, { tailLines: 2 }), "c\nd\n");
  assert.equal(readLog(log, { tailLines: 0 }), "");
  assert.equal(readLog(log, { sinceMs: 2000 }), "c\nd\n");
  assert.equal(
    readLog(log, { tailLines: 1, timestamps: true }),
    "1970-01-01T00:00:03.000000000Z d\n",
  );
  const seen: (string | undefined)[] = [];
  log.follow((l) => seen.push(l?.text));
  log.push("e", 5000);
  log.end();
  assert.deepEqual(seen, ["e", undefined]);
});

Deno.test("processPodPhase(): Pending until created, Running while any container runs or waits to restart, then Succeeded or Failed", () => {
  const c = (state: Parameters<typeof processPodPhase>[0][number]["state"], restartCount = 0) => ({
    name: "c",
    image: "i",
    restartCount,
    state,
  });
  const done = (exitCode: number) => ({
    type: "terminated" as const,
    exitCode,
    reason: "x",
    startedAtMs: 0,
    finishedAtMs: 1,
  });
  assert.equal(processPodPhase([c({ type: "waiting", reason: "ContainerCreating" })]), "Pending");
  assert.equal(processPodPhase([c({ type: "waiting", reason: "CrashLoopBackOff" }, 1)]), "Running");
  assert.equal(
    processPodPhase([c(done(0)), c({ type: "running", startedAtMs: 0, ready: true })]),
    "Running",
  );
  assert.equal(processPodPhase([c(done(0)), c(done(0))]), "Succeeded");
  assert.equal(processPodPhase([c(done(0)), c(done(2))]), "Failed");
});

Deno.test("probeStep(): readiness needs successThreshold successes and failureThreshold failures to flip; liveness restarts at failureThreshold", () => {
  const spec = probeSpecOf({
    readinessProbe: { httpGet: { port: 1 }, successThreshold: 2, failureThreshold: 2 },
  }, "readinessProbe")!;
  let s = { ready: false, readyRun: 0, readyFailures: 0, liveFailures: 0 };
  const seen: boolean[] = [];
  for (const ok of [true, true, false, true, false, false, true]) {
    s = probeStep(s, "readiness", ok, spec).state;
    seen.push(s.ready);
  }
  assert.deepEqual(seen, [false, true, true, true, true, false, false]);
  const live = probeSpecOf({ livenessProbe: { httpGet: { port: 1 } } }, "livenessProbe")!;
  const restarts = [false, false, false].map((ok) => {
    const r = probeStep(s, "liveness", ok, live);
    s = r.state;
    return r.restart;
  });
  assert.deepEqual(restarts, [false, false, true], "default failureThreshold 3");
  assert.equal(probeStep(s, "liveness", true, live).state.liveFailures, 0);
});
