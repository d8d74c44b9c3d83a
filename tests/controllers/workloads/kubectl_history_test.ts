/**
 * Fidelity, rollout history: `kubectl rollout history` and `rollout undo` of DaemonSets and
 * StatefulSets (ControllerRevisions) and Deployments (ReplicaSet revisions, with the
 * `deployment.kubernetes.io/revision-history` a rollback leaves), against the embedded server
 * and the workload controllers, with the real kubectl.
 */
import assert from "node:assert/strict";
import { connect, E, startManager } from "../../../mod.ts";
import { startApiServer } from "../../../lib/apiserver/mod.ts";
import { workloadControllers } from "../../../lib/cluster/mod.ts";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";

const manifest = (kind: "DaemonSet" | "StatefulSet", image: string) =>
  JSON.stringify({
    apiVersion: "apps/v1",
    kind,
    metadata: {
      name: "app",
      namespace: "default",
      annotations: { "kubernetes.io/change-cause": `to ${image}` },
    },
    spec: {
      ...(kind === "StatefulSet" ? { serviceName: "app", replicas: 2 } : {}),
      selector: { matchLabels: { app: kind.toLowerCase() } },
      template: {
        metadata: { labels: { app: kind.toLowerCase() } },
        spec: { containers: [{ name: "c", image }] },
      },
    },
  });

Deno.test({
  name: "kubectl rollout history and undo for DaemonSets, StatefulSets and Deployments",
  ignore: !kubectlAvailable(),
  fn: async (t) => {
    const server = await startApiServer({
      simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0 },
    });
    const client = await connect({ kubeconfigYaml: server.kubeconfig });
    if (E.isLeft(client)) throw new Error(client.left.message);
    const manager = await startManager({
      client: client.right,
      controllers: workloadControllers(),
    });
    const kubectl = await createKubectl(server.kubeconfig);
    const run = async (args: string[], stdin?: string) => {
      const r = await kubectl.run(args, { stdin });
      assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    const image = (what: string) =>
      run(["get", what, "-o", "jsonpath={.spec.template.spec.containers[0].image}"]);
    try {
      await manager.ready;
      for (const kind of ["DaemonSet", "StatefulSet"] as const) {
        const what = `${kind.toLowerCase()}/app`;
        await t.step(
          `${kind}: history lists a ControllerRevision per template; undo restores`,
          async () => {
            await run(["apply", "-f", "-"], manifest(kind, "busybox:1.36"));
            await run(["rollout", "status", what, "--timeout=20s"]);
            await run(["apply", "-f", "-"], manifest(kind, "busybox:1.37"));
            await run(["rollout", "status", what, "--timeout=20s"]);
            const history = await run(["rollout", "history", what]);
            // Each revision carries the parent's annotations: its change-cause.
            assert.match(
              history,
              /REVISION\s+CHANGE-CAUSE\n1\s+to busybox:1\.36\n2\s+to busybox:1\.37/,
            );
            const rev1 = await run(["rollout", "history", what, "--revision=1"]);
            assert.match(rev1, /Image:\s+busybox:1\.36/);
            const revisions = await run([
              "get",
              "controllerrevisions",
              "-l",
              `app=${kind.toLowerCase()}`,
              "-o",
              "custom-columns=CONTROLLER:.metadata.ownerReferences[0].kind,REVISION:.revision",
              "--no-headers",
            ]);
            assert.deepEqual(revisions.trim().split("\n").map((l) => l.split(/\s+/)).sort(), [
              [kind, "1"],
              [kind, "2"],
            ]);
            assert.match(await run(["rollout", "undo", what]), /rolled back/);
            await run(["rollout", "status", what, "--timeout=20s"]);
            assert.equal(await image(what), "busybox:1.36");
            // The restored template's revision is renumbered, not duplicated.
            const after = await run(["rollout", "history", what]);
            assert.match(
              after,
              /REVISION\s+CHANGE-CAUSE\n2\s+to busybox:1\.37\n3\s+to busybox:1\.36/,
            );
            const r = await kubectl.run(["rollout", "undo", what, "--to-revision=9"]);
            assert.notEqual(r.code, 0);
            assert.match(r.stderr, /unable to find specified revision 9 in history/);
          },
        );
      }

      await t.step(
        "Deployment: a rollback keeps the reused ReplicaSet's revision-history",
        async () => {
          await run(["create", "deployment", "web", "--image=nginx:1.26", "--replicas=2"]);
          await run(["rollout", "status", "deployment/web", "--timeout=20s"]);
          await run(["set", "image", "deployment/web", "nginx=nginx:1.27"]);
          await run(["annotate", "deployment/web", "kubernetes.io/change-cause=to 1.27"]);
          await run(["rollout", "status", "deployment/web", "--timeout=20s"]);
          assert.match(await run(["rollout", "history", "deployment/web"]), /2\s+to 1\.27/);
          await run(["rollout", "undo", "deployment/web"]);
          await run(["rollout", "status", "deployment/web", "--timeout=20s"]);
          const rs = JSON.parse(await run(["get", "rs", "-l", "app=web", "-o", "json"])).items as {
            metadata: { annotations: Record<string, string> };
            spec: { template: { spec: { containers: { image: string }[] } } };
          }[];
          const back = rs.find((r) => r.spec.template.spec.containers[0].image === "nginx:1.26")!;
          assert.equal(back.metadata.annotations["deployment.kubernetes.io/revision"], "3");
          assert.equal(back.metadata.annotations["deployment.kubernetes.io/revision-history"], "1");
        },
      );
    } finally {
      await kubectl.dispose();
      await manager.stop();
      await server.close();
    }
  },
});
