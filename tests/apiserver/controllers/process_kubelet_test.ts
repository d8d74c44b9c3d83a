/**
 * The embedded kubelet's process mode, as a user sees it through kubectl: pods whose image is
 * mapped run as local processes with a pod's environment, probes, restarts, SIGTERM with the
 * grace period, and `kubectl logs` (-f, --tail, --previous); unmapped images stay simulated.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { createKubectl } from "../_kubectl.ts";

const app = new URL("./_fixtures/pod_app.ts", import.meta.url).pathname;

async function wrapper(): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "kubefold-app-" });
  const path = `${dir}/pod-app`;
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nexec "${Deno.execPath()}" run -A --no-lock "${app}" "$@"\n`,
  );
  await Deno.chmod(path, 0o755);
  return { dir, path };
}

const pod = (name: string, args: string[], extra: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "default" },
  spec: {
    terminationGracePeriodSeconds: 1,
    restartPolicy: "Always",
    containers: [{
      name: "app",
      image: "example.com/pod-app:1.0",
      command: ["/app"],
      args,
      env: [{ name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } }],
      ports: [{ name: "health", containerPort: 8081 }],
      readinessProbe: { httpGet: { path: "/readyz", port: "health" }, periodSeconds: 1 },
      ...extra,
    }],
  },
});

Deno.test("pods that really run: environment, in-cluster client, readiness, logs (-f, --tail, --previous), restarts, liveness, SIGTERM and grace period; unmapped images stay simulated", async (t) => {
  const { dir, path } = await wrapper();
  const server = await startApiServer({
    tls: true,
    token: "admin-token",
    simulation: {
      nodes: 1,
      podStartDelayMs: 0,
      runImages: `example.com/pod-app:*=${path}`,
      processBackoffMs: 100,
      volumeSyncMs: 200,
    },
  });
  const kubectl = await createKubectl(server.kubeconfig);
  const json = async (args: string[]) => {
    const r = await kubectl.run([...args, "-o", "json"]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 20_000) => {
    const end = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const apply = (obj: unknown) => kubectl.run(["apply", "-f", "-"], { stdin: JSON.stringify(obj) });
  try {
    await t.step(
      "a mapped pod runs as a process: Ready once its readiness probe passes, on its own loopback IP, talking to the server in-cluster style",
      async () => {
        {
          // The pod runs as the namespace's default ServiceAccount: let it read pods.
          const rbac = "rbac.authorization.k8s.io";
          const role = {
            apiVersion: `${rbac}/v1`,
            kind: "Role",
            metadata: { name: "pod-reader", namespace: "default" },
            rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }],
          };
          const binding = {
            apiVersion: `${rbac}/v1`,
            kind: "RoleBinding",
            metadata: { name: "pod-reader", namespace: "default" },
            roleRef: { apiGroup: rbac, kind: "Role", name: "pod-reader" },
            subjects: [{ kind: "ServiceAccount", name: "default", namespace: "default" }],
          };
          for (const obj of [role, binding]) assert.equal((await apply(obj)).code, 0);
        }
        assert.equal((await apply(pod("web", []))).code, 0);
        await until("web is Ready", async () => {
          const p = await json(["get", "pod", "web"]);
          return p.status?.conditions?.some((c: { type: string; status: string }) =>
            c.type === "Ready" && c.status === "True"
          );
        });
        const p = await json(["get", "pod", "web"]);
        assert.match(p.status.podIP, /^127\.245\.1\.\d+$/);
        await until(
          "the in-cluster line",
          async () => (await kubectl.run(["logs", "web"])).stdout.includes("in-cluster"),
        );
        const logs = (await kubectl.run(["logs", "web"])).stdout;
        assert.match(
          logs,
          new RegExp(
            `started pid=\\d+ host=127\\.0\\.0\\.1:\\d+ ip=${
              p.status.podIP.replaceAll(".", "\\.")
            }`,
          ),
        );
        assert.match(logs, /in-cluster ok: read pod web/);
      },
    );

    await t.step("kubectl logs --tail and -f", async () => {
      const tail = await kubectl.run(["logs", "web", "--tail=1"]);
      assert.equal(tail.stdout.trim().split("\n").length, 1);
      const follow = kubectl.spawn(["logs", "-f", "web", "--tail=0"]);
      try {
        await follow.readUntil((out) => /tick \d+/.test(out), 10_000); // a line written later
      } finally {
        await follow.stop();
      }
    });

    await t.step(
      "a container that exits is restarted with back-off; --previous shows the instance before",
      async () => {
        await apply(pod("crash", ["--exit-after-ms=300", "--exit-code=3"]));
        await until("crash restarted", async () => {
          const p = await json(["get", "pod", "crash"]);
          return (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1;
        });
        const p = await json(["get", "pod", "crash"]);
        assert.equal(p.status.containerStatuses[0].lastState.terminated.exitCode, 3);
        const previous = await kubectl.run(["logs", "crash", "--previous"]);
        assert.equal(previous.code, 0, previous.stderr);
        assert.match(previous.stdout, /exiting with 3/);
        const never = await kubectl.run(["logs", "web", "--previous"]);
        assert.notEqual(never.code, 0);
        assert.match(never.stderr, /previous terminated container "app" in pod "web" not found/);
      },
    );

    await t.step("a failing liveness probe restarts the container", async () => {
      await apply(pod("sick", ["--unhealthy-after-ms=1500"], {
        livenessProbe: {
          httpGet: { path: "/healthz", port: 8081 },
          initialDelaySeconds: 3,
          periodSeconds: 1,
          failureThreshold: 1,
        },
      }));
      await until("sick restarted by its liveness probe", async () => {
        const p = await json(["get", "pod", "sick"]);
        return (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1;
      });
      const events =
        (await kubectl.run(["get", "events", "--field-selector", "involvedObject.name=sick"]))
          .stdout;
      assert.match(events, /Liveness probe failed: HTTP probe failed with statuscode: 500/);
    });

    await t.step(
      "delete sends SIGTERM; a process that ignores it is killed after the grace period",
      async () => {
        await apply(pod("stubborn", ["--ignore-sigterm"]));
        await until(
          "stubborn running",
          async () => (await kubectl.run(["logs", "stubborn"])).stdout.includes("tick"),
        );
        const t0 = Date.now();
        const del = await kubectl.run(["delete", "pod", "stubborn", "--wait=true"]);
        const took = Date.now() - t0;
        assert.equal(del.code, 0, del.stderr);
        assert.ok(took >= 900, `deleted after ${took} ms, before the 1 s grace period`);
        const t1 = Date.now();
        assert.equal((await kubectl.run(["delete", "pod", "web", "--wait=true"])).code, 0);
        assert.ok(
          Date.now() - t1 < 900,
          "a process that exits on SIGTERM is gone before its grace period",
        );
      },
    );

    await t.step(
      "configMap volume files follow the ConfigMap (a changed key rewritten, an added one appears, a removed one goes); a subPath mount keeps its first content",
      async () => {
        const created = await kubectl.run([
          "create",
          "configmap",
          "greeting",
          "--from-literal=message=hello",
        ]);
        assert.equal(created.code, 0, created.stderr);
        const p = pod("reader", [
          "--watch-file=/etc/greeting/message",
          "--watch-file=/etc/greeting/extra",
          "--watch-file=/etc/fixed",
        ], {
          volumeMounts: [
            { name: "greeting", mountPath: "/etc/greeting" },
            { name: "greeting", mountPath: "/etc/fixed", subPath: "message" },
          ],
        });
        const withVolume = {
          ...p,
          spec: { ...p.spec, volumes: [{ name: "greeting", configMap: { name: "greeting" } }] },
        };
        assert.equal((await apply(withVolume)).code, 0);
        const logs = async () => (await kubectl.run(["logs", "reader"])).stdout;
        const has = (line: string) => async () => (await logs()).split("\n").includes(line);
        await until("the first content", has("file /etc/greeting/message=hello"));
        assert.ok(await has("file /etc/greeting/extra missing")());
        assert.ok(await has("file /etc/fixed=hello")());
        const patch = (type: string, body: unknown) =>
          kubectl.run([
            "patch",
            "configmap",
            "greeting",
            "--type",
            type,
            "-p",
            JSON.stringify(body),
          ]);
        assert.equal(
          (await patch("merge", { data: { message: "bonjour", extra: "new" } })).code,
          0,
        );
        await until("the changed key", has("file /etc/greeting/message=bonjour"));
        await until("the added key", has("file /etc/greeting/extra=new"));
        assert.equal((await patch("json", [{ op: "remove", path: "/data/extra" }])).code, 0);
        await until(
          "the removed key gone",
          async () =>
            (await logs()).split("\n").filter((l) => l === "file /etc/greeting/extra missing")
              .length === 2,
        );
        assert.ok(
          !(await logs()).includes("file /etc/fixed=bonjour"),
          "subPath mounts get no updates",
        );
      },
    );

    await t.step("an unmapped image stays simulated, and kubectl logs says so", async () => {
      await apply({ ...pod("sim", []), spec: { containers: [{ name: "app", image: "nginx" }] } });
      await until(
        "sim Running",
        async () => (await json(["get", "pod", "sim"])).status?.phase === "Running",
      );
      assert.match((await json(["get", "pod", "sim"])).status.podIP, /^10\.244\./);
      const logs = await kubectl.run(["logs", "sim"]);
      assert.notEqual(logs.code, 0);
      assert.match(
        logs.stderr,
        /\(ServiceUnavailable\): container logs of pod "default\/sim" are not available: kubefold's simulated kubelet runs no containers/,
      );
    });
  } finally {
    await kubectl.dispose();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
