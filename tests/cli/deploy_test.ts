/**
 * The operator workflow, proven end to end as a user runs it: kubefold imported by URL,
 * `init`, `create api`, `deno task test`, `manifests`, `build`, `deploy` to the embedded
 * cluster with the image mapped to the built executable (pods that really run), leader
 * election across 2 replicas, a HelloWorld applied with kubectl, `kubectl logs` of the leader,
 * failover within the lease duration, `undeploy` + `uninstall` leaving nothing behind.
 */
import assert from "node:assert/strict";
import { serveRepository } from "../_serve_repository.ts";
import { startCluster } from "../../lib/cluster/mod.ts";
import { createKubectl } from "../apiserver/_kubectl.ts";
import { exercise, type Kubectl } from "./_operator_exercise.ts";
import { minimalityScenarios } from "./_rbac_minimality.ts";
import { stderrUntil } from "./_cli.ts";

const decoder = new TextDecoder();

async function sh(args: string[], cwd: string) {
  const out = await new Deno.Command(args[0], {
    args: args.slice(1),
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function ok(args: string[], cwd: string): Promise<string> {
  const r = await sh(args, cwd);
  assert.equal(r.code, 0, `${args.join(" ")}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (true) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const deno = Deno.execPath();
const NS = "hello-operator-system";

Deno.test({
  name:
    "kubefold workflow: init -> create api -> test -> manifests -> build -> deploy to the embedded cluster (2 replicas in-cluster style, one leader, HelloWorld reconciled, kubectl logs, failover) -> undeploy + uninstall",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (t) => {
    const repo = serveRepository();
    const work = await Deno.makeTempDir({ prefix: "kubefold-workflow-" });
    const dir = `${work}/hello-operator`;
    const cli = `${repo.url}lib/cli/main.ts`;
    let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
    let kubectl: Awaited<ReturnType<typeof createKubectl>> | undefined;
    const started = performance.now();
    // Time spent in the workflow's own commands (not in the project's test runs).
    let workflowMs = 0;
    const timed = async (args: string[], cwd: string) => {
      const t0 = performance.now();
      const out = await ok(args, cwd);
      workflowMs += performance.now() - t0;
      return out;
    };
    try {
      await t.step(
        "init (the CLI run from its URL): deno task test and deno task run pass untouched",
        async () => {
          await timed([deno, "run", "-A", cli, "init", dir, "--domain", "example.com"], work);
          const denoJson = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`));
          assert.equal(
            denoJson.imports.kubefold,
            `${repo.url}mod.ts`,
            "kubefold pinned to the CLI's URL",
          );
          assert.match(await ok([deno, "task", "test"], dir), /ok \| 1 passed \| 0 failed/);
          const run = new Deno.Command(deno, {
            args: ["task", "run"],
            cwd: dir,
            stdout: "null",
            stderr: "piped",
          }).spawn();
          const { seen, drain } = await stderrUntil(run, '"msg":"informers synced"');
          assert.match(seen, /"msg":"embedded cluster started"/);
          run.kill("SIGTERM");
          await drain();
          assert.equal((await run.status).code, 0, seen);
        },
      );

      await t.step("create api", async () => {
        await timed([
          deno,
          "task",
          "kubefold",
          "create",
          "api",
          "--group",
          "myapp",
          "--version",
          "v1",
          "--kind",
          "HelloWorld",
        ], dir);
      });

      await t.step(
        "the scaffolded project's tests pass untouched (property test, virtual-time controller test, manifests --check)",
        async () => {
          const out = await ok([deno, "task", "test"], dir);
          assert.match(out, /ok \| 3 passed \| 0 failed/);
        },
      );

      await t.step("manifests: deterministic, and --check agrees", async () => {
        const before = await Deno.readTextFile(`${dir}/config/rbac/role.yaml`);
        await timed([deno, "task", "manifests"], dir);
        assert.equal(await Deno.readTextFile(`${dir}/config/rbac/role.yaml`), before);
        await ok([deno, "task", "kubefold", "manifests", "--check"], dir);
      });

      await t.step(
        "build: one executable file (a bundle here: deno compile needs Deno's runtime download)",
        async () => {
          const args = Deno.env.get("DENORT_BIN") ? [] : ["--bundle"];
          await timed([deno, "task", "build", ...args], dir);
          const help = await sh([`${dir}/bin/hello-operator`, "--help"], dir);
          assert.match(help.stdout, /--in-cluster/);
        },
      );

      cluster = await startCluster({
        tls: true,
        token: "admin-token",
        simulation: {
          nodes: 2,
          podStartDelayMs: 0,
          runImages: `example.com/hello-operator:*=${dir}/bin/hello-operator`,
        },
      });
      const kubeconfig = `${work}/kubeconfig.yaml`;
      await Deno.writeTextFile(kubeconfig, cluster.kubeconfig);
      kubectl = await createKubectl(cluster.kubeconfig);
      const k = kubectl;
      const json = async (...args: string[]) =>
        JSON.parse(await ok(["kubectl", "--kubeconfig", kubeconfig, ...args, "-o", "json"], dir));
      const managerPods = async () =>
        (await json("get", "pods", "-n", NS, "-l", "control-plane=controller-manager")).items as {
          metadata: { name: string; deletionTimestamp?: string };
          status: { conditions?: { type: string; status: string }[] };
        }[];
      const ready = (p: Awaited<ReturnType<typeof managerPods>>[number]) =>
        !p.metadata.deletionTimestamp &&
        p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True");
      const holder = async () => {
        const r = await sh([
          "kubectl",
          "--kubeconfig",
          kubeconfig,
          "get",
          "lease",
          "hello-operator-leader",
          "-n",
          NS,
          "-o",
          "jsonpath={.spec.holderIdentity}",
        ], dir);
        return r.code === 0 && r.stdout ? r.stdout : undefined;
      };
      let leader = "";
      const check = async () => {
        const gone = async (...args: string[]) =>
          (await sh(["kubectl", "--kubeconfig", kubeconfig, "get", ...args], dir)).code !== 0;
        assert.ok(await gone("namespace", NS));
        assert.ok(await gone("crd", "helloworlds.myapp.example.com"));
        assert.ok(await gone("clusterrole", "hello-operator-manager-role"));
        assert.ok(await gone("clusterrolebinding", "hello-operator-manager-rolebinding"));
        await until(
          "the sample's pods are collected",
          async () => (await json("get", "pods", "-A")).items.length === 0 || undefined,
        );
      };

      await t.step("deploy: 2 replicas start in-cluster style and exactly one leads", async () => {
        const t0 = performance.now();
        await ok([deno, "task", "kubefold", "deploy", "--kubeconfig", kubeconfig], dir);
        await until(
          "2 manager pods Ready",
          async () => (await managerPods()).filter(ready).length === 2 || undefined,
        );
        workflowMs += performance.now() - t0;
        const deployedMs = performance.now() - started;
        console.log(
          `init -> deployed operator (2 replicas Ready): ${(workflowMs / 1000).toFixed(1)} s in ` +
            `init, create api, manifests, build, deploy; ${
              (deployedMs / 1000).toFixed(1)
            } s with ` +
            `the project's test runs`,
        );
        leader = await until("a lease holder", holder);
        const names = (await managerPods()).map((p) => p.metadata.name);
        assert.ok(names.includes(leader), `${leader} is one of ${names}`);
        const other = names.find((n) => n !== leader)!;
        await until(
          "the leader logs it leads",
          async () =>
            (await k.run(["logs", "-n", NS, leader])).stdout.includes("became leader") || undefined,
        );
        assert.ok(
          !(await k.run(["logs", "-n", NS, other])).stdout.includes("became leader"),
          "the standby does not lead",
        );
      });

      await t.step(
        "a HelloWorld applied with kubectl gets its pods and status; kubectl logs shows the leader's JSON lines",
        async () => {
          await ok([
            "kubectl",
            "--kubeconfig",
            kubeconfig,
            "apply",
            "-f",
            "config/samples/myapp_v1_helloworld.yaml",
          ], dir);
          await until("helloworld-sample has 2 Running pods and readyReplicas 2", async () => {
            const hw = await json("get", "helloworld", "helloworld-sample");
            const pods = (await json("get", "pods", "-n", "default")).items.filter((
              p: { metadata: { ownerReferences?: { name: string }[] }; status: { phase?: string } },
            ) =>
              p.metadata.ownerReferences?.[0]?.name === "helloworld-sample" &&
              p.status.phase === "Running"
            );
            return (pods.length === 2 && hw.status?.readyReplicas === 2) || undefined;
          });
          const logs = (await k.run(["logs", "-n", NS, leader])).stdout.trim().split("\n");
          const lines = logs.map((l) => JSON.parse(l));
          assert.ok(
            lines.some((l) => l.msg === "applying plan" && l.controller === "helloworld"),
            logs.join("\n"),
          );
        },
      );

      await t.step(
        "killing the leader pod hands over within the lease duration (15 s), and the new leader reconciles",
        async () => {
          const t0 = performance.now();
          await ok([
            "kubectl",
            "--kubeconfig",
            kubeconfig,
            "delete",
            "pod",
            "-n",
            NS,
            leader,
            "--wait=false",
          ], dir);
          const next = await until("a new lease holder", async () => {
            const h = await holder();
            return h && h !== leader ? h : undefined;
          }, 15_000);
          console.log(`leader handover: ${Math.round(performance.now() - t0)} ms`);
          await ok([
            "kubectl",
            "--kubeconfig",
            kubeconfig,
            "scale",
            "helloworld",
            "helloworld-sample",
            "--replicas=3",
          ], dir);
          await until(
            "the new leader scales helloworld-sample to 3",
            async () =>
              (await json("get", "helloworld", "helloworld-sample")).status?.replicas === 3 ||
              undefined,
          );
          assert.notEqual(next, leader);
        },
      );

      const kc: Kubectl = async (args, stdin) => {
        const r = await k.run(args, stdin === undefined ? {} : { stdin });
        if (r.code !== 0) throw new Error(`kubectl ${args.join(" ")}: ${r.stderr}`);
        return r.stdout;
      };

      await t.step(
        "RBAC enforced throughout: the operator does everything its generated RBAC allows, and no request was forbidden",
        async () => {
          const r = await exercise(cluster!.server, kc, "base", { namespace: NS });
          assert.deepEqual(r.forbidden, [], `forbidden at "${r.reached}"`);
          assert.deepEqual(cluster!.server.forbidden(), []);
        },
      );

      await t.step({
        name:
          "the rules are minimal: removing any single verb of any generated rule makes the operator see a 403",
        fn: async () => {
          const seen = await minimalityScenarios(cluster!.server, kc, NS);
          console.log(`each removal and the first request it forbade:\n${seen.join("\n")}`);
        },
      });

      await t.step("kubefold undeploy + uninstall leave nothing behind", async () => {
        await ok([deno, "task", "kubefold", "undeploy", "--kubeconfig", kubeconfig], dir);
        await ok([deno, "task", "kubefold", "uninstall", "--kubeconfig", kubeconfig], dir);
        await check();
      });

      await t.step(
        "kubectl apply -k config/default deploys the same operator; kubectl delete -k removes it",
        async () => {
          const kubectlK = (...args: string[]) =>
            ok(["kubectl", "--kubeconfig", kubeconfig, ...args, "-k", "config/default"], dir);
          await kubectlK("apply");
          await until(
            "2 manager pods Ready",
            async () => (await managerPods()).filter(ready).length === 2 || undefined,
          );
          await until("a lease holder", holder);
          await kubectlK("delete", "--ignore-not-found"); // the Namespace takes its contents first
          await check();
        },
      );
    } finally {
      await kubectl?.dispose();
      await cluster?.close();
      await repo.close();
      await Deno.remove(work, { recursive: true });
    }
  },
});
