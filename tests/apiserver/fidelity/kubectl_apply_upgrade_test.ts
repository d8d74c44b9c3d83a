/**
 * Fidelity, server-side apply: kubectl 1.32's upgrade from client-side to server-side apply
 * against the embedded server, as against kube-apiserver — `kubectl apply` then
 * `kubectl apply --server-side` takes over the fields of `last-applied-configuration`
 * without conflicts, kubectl's managed-fields migration (csaupgrade) is accepted,
 * `kubectl diff --server-side` shows the removal of a dropped field, and the next
 * server-side apply removes it.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/server.ts";
import type { KubeObject } from "../../../lib/core/object.ts";
import { createKubectl, kubectlAvailable, ok } from "../_kubectl.ts";

const deployment = (image: string, withEnv: boolean, replicas = 2) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web, tier: front}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: ${image}
${withEnv ? "        env: [{name: MODE, value: fast}]\n" : ""}`;

const configMap = (data: Record<string, string>, labels = true) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  namespace: default\n${
    labels ? "  labels: {app: x}\n" : ""
  }data:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join("\n")}\n`;

type Entry = { manager: string; operation: string };
type Container = { image: string; env?: unknown[] };
type Fetched = KubeObject & {
  data?: Record<string, string>;
  spec: { replicas?: number; template: { spec: { containers: Container[] } } };
};

Deno.test({
  name: "kubectl apply -> apply --server-side -> diff --server-side -> a dropped field is removed",
  ignore: !kubectlAvailable(),
  fn: async (t) => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    const k = (args: string[], stdin?: string) => kubectl.run(args, { stdin });
    const get = async (what: string) =>
      JSON.parse(
        ok(await k(["get", what, "-o", "json", "--show-managed-fields"]), "get"),
      ) as Fetched;
    const managers = (o: KubeObject) =>
      (o.metadata?.managedFields ?? []).map((e) => `${e.manager}/${e.operation}`).sort();
    try {
      await t.step("a client-side apply records kubectl-client-side-apply", async () => {
        ok(await k(["apply", "-f", "-"], configMap({ a: "1", b: "2" })), "apply");
        assert.deepEqual(managers(await get("cm/demo")), ["kubectl-client-side-apply/Update"]);
      });

      await t.step("apply --server-side changes a field it set, without a conflict", async () => {
        const out = ok(
          await k(["apply", "--server-side", "-f", "-"], configMap({ a: "3", b: "2" })),
          "apply --server-side",
        );
        assert.match(out, /configmap\/demo serverside-applied/);
        const cm = await get("cm/demo");
        assert.deepEqual(cm.data, { a: "3", b: "2" });
        // kubectl migrated the client-side manager into its own Apply entry; the annotation
        // is kept by kubectl-last-applied and follows the server-side configuration.
        assert.deepEqual(managers(cm), ["kubectl-last-applied/Apply", "kubectl/Apply"]);
        const last = JSON.parse(
          cm.metadata?.annotations?.["kubectl.kubernetes.io/last-applied-configuration"] ?? "{}",
        );
        assert.deepEqual(last.data, { a: "3", b: "2" });
      });

      await t.step(
        "diff --server-side: none for the same file, removals for a smaller one",
        async () => {
          ok(await k(["diff", "--server-side", "-f", "-"], configMap({ a: "3", b: "2" })), "diff");
          const d = await k(["diff", "--server-side", "-f", "-"], configMap({ a: "3" }, false));
          assert.equal(d.code, 1, d.stderr);
          assert.match(d.stdout, /^-\s+b: "2"$/m);
          assert.match(d.stdout, /^-\s+app: x$/m);
          // Nothing changed on the server (dry run).
          assert.deepEqual((await get("cm/demo")).data, { a: "3", b: "2" });
        },
      );

      await t.step("the next server-side apply removes the dropped fields", async () => {
        ok(await k(["apply", "--server-side", "-f", "-"], configMap({ a: "3" }, false)), "apply");
        const cm = await get("cm/demo");
        assert.deepEqual(cm.data, { a: "3" });
        assert.equal(cm.metadata?.labels, undefined);
      });

      await t.step("a Deployment: list items keyed by name migrate and prune too", async () => {
        ok(await k(["apply", "-f", "-"], deployment("nginx:1.27", true)), "apply");
        ok(
          await k(["apply", "--server-side", "-f", "-"], deployment("nginx:1.28", true, 3)),
          "ssa",
        );
        let d = await get("deploy/web");
        assert.equal(d.spec.replicas, 3);
        const c = d.spec.template.spec.containers[0];
        assert.equal(c.image, "nginx:1.28");
        assert.ok(!managers(d).includes("kubectl-client-side-apply/Update"), managers(d).join());
        ok(
          await k(["apply", "--server-side", "-f", "-"], deployment("nginx:1.28", false, 3)),
          "ssa",
        );
        d = await get("deploy/web");
        const c2 =
          (d.spec as unknown as { template: { spec: { containers: { env?: unknown[] }[] } } })
            .template.spec.containers[0];
        assert.equal(c2.env, undefined);
      });

      await t.step("another field manager still conflicts with the migrated fields", async () => {
        const r = await k(
          ["apply", "--server-side", "--field-manager", "other", "-f", "-"],
          configMap({ a: "9" }, false),
        );
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /conflict with "kubectl"/);
      });

      await t.step(
        "an object created without managed fields is owned by before-first-apply",
        async () => {
          ok(await k(["create", "configmap", "plain", "--from-literal=x=1"]), "create");
          // Clear the managed fields the way kube documents it: a patch with [{}].
          ok(
            await k([
              "patch",
              "cm",
              "plain",
              "--type=merge",
              "-p",
              '{"metadata":{"managedFields":[{}]}}',
            ]),
            "patch",
          );
          assert.equal((await get("cm/plain")).metadata?.managedFields, undefined);
          const r = await k(
            ["apply", "--server-side", "--field-manager", "tool", "-f", "-"],
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain, namespace: default}\ndata: {x: '2'}\n",
          );
          assert.notEqual(r.code, 0);
          assert.match(r.stderr, /conflict with "before-first-apply" using v1: \.data\.x/);
          const entries = (await get("cm/plain")).metadata?.managedFields as Entry[] | undefined;
          assert.equal(entries, undefined);
        },
      );
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
