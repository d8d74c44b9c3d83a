/**
 * kubectl 1.32 against the embedded server, part 2: server-side apply with a conflict between
 * two field managers, client-side apply twice with a removed field, strategic merge patch of a
 * pod's containers, and `kubectl scale` of a custom resource with the scale subresource.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";

const configMap = (data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  namespace: default\ndata:\n${
    Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join("\n")
  }\n`;

Deno.test({
  name:
    "kubectl apply --server-side, conflicts, --force-conflicts, client-side apply, strategic patch, scale",
  ignore: !kubectlAvailable(),
  fn: async (t) => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      await t.step(
        "apply --server-side creates and records kubectl as the Apply manager",
        async () => {
          const r = await kubectl.run(["apply", "--server-side", "-f", "-"], {
            stdin: configMap({ a: "1" }),
          });
          assert.equal(r.code, 0, r.stderr);
          const mf = await kubectl.run([
            "get",
            "cm",
            "demo",
            "--show-managed-fields",
            "-o",
            "json",
          ]);
          const managers = JSON.parse(mf.stdout).metadata.managedFields;
          assert.ok(
            managers.some((m: { manager: string; operation: string }) =>
              m.manager === "kubectl" && m.operation === "Apply"
            ),
          );
        },
      );
      await t.step(
        "another field manager's apply of the same field conflicts; --force-conflicts takes it",
        async () => {
          const clash = await kubectl.run(
            ["apply", "--server-side", "--field-manager", "other", "-f", "-"],
            { stdin: configMap({ a: "2" }) },
          );
          assert.notEqual(clash.code, 0);
          assert.match(clash.stderr, /conflict/i);
          assert.match(clash.stderr, /\.data\.a/);
          const forced = await kubectl.run(
            ["apply", "--server-side", "--field-manager", "other", "--force-conflicts", "-f", "-"],
            { stdin: configMap({ a: "2" }) },
          );
          assert.equal(forced.code, 0, forced.stderr);
          const got = await kubectl.run(["get", "cm", "demo", "-o", "jsonpath={.data.a}"]);
          assert.equal(got.stdout, "2");
        },
      );
      await t.step(
        "client-side apply twice: a field removed from the manifest is removed",
        async () => {
          const first = await kubectl.run(["apply", "-f", "-"], {
            stdin: configMap({ x: "1", y: "2" }).replace("name: demo", "name: csa"),
          });
          assert.equal(first.code, 0, first.stderr);
          const second = await kubectl.run(["apply", "-f", "-"], {
            stdin: configMap({ x: "1" }).replace("name: demo", "name: csa"),
          });
          assert.equal(second.code, 0, second.stderr);
          const got = await kubectl.run(["get", "cm", "csa", "-o", "jsonpath={.data}"]);
          assert.deepEqual(JSON.parse(got.stdout), { x: "1" });
        },
      );
      await t.step("patch --type strategic merges a pod's containers by name", async () => {
        const pod =
          `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\nspec:\n  containers:\n  - name: a\n    image: a:1\n  - name: b\n    image: b:1\n`;
        assert.equal((await kubectl.run(["apply", "-f", "-"], { stdin: pod })).code, 0);
        const r = await kubectl.run([
          "patch",
          "pod",
          "p",
          "--type",
          "strategic",
          "-p",
          '{"spec":{"containers":[{"name":"b","image":"b:2"}]}}',
        ]);
        assert.equal(r.code, 0, r.stderr);
        const images = await kubectl.run([
          "get",
          "pod",
          "p",
          "-o",
          "jsonpath={.spec.containers[*].image}",
        ]);
        assert.equal(images.stdout, "a:1 b:2");
      });
      await t.step(
        "kubectl scale changes a custom resource's replicas through /scale",
        async () => {
          const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: scalers.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: scalers, kind: Scaler}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {replicas: {type: integer}}}
          status: {type: object, properties: {replicas: {type: integer}}}
`;
          assert.equal((await kubectl.run(["apply", "-f", "-"], { stdin: crd })).code, 0);
          await kubectl.run(["wait", "--for", "condition=established", "crd/scalers.example.com"]);
          const obj =
            `apiVersion: example.com/v1\nkind: Scaler\nmetadata:\n  name: s\n  namespace: default\nspec:\n  replicas: 1\n`;
          assert.equal((await kubectl.run(["apply", "-f", "-"], { stdin: obj })).code, 0);
          const r = await kubectl.run(["scale", "scaler", "s", "--replicas=4"]);
          assert.equal(r.code, 0, r.stderr);
          const got = await kubectl.run(["get", "scaler", "s", "-o", "jsonpath={.spec.replicas}"]);
          assert.equal(got.stdout, "4");
        },
      );
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
