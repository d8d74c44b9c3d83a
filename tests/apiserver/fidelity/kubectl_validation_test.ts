/**
 * Fidelity, validation: kube-apiserver's answers, word for word, to a Deployment whose
 * selector does not match its labels, a changed Service `clusterIP` or Deployment selector,
 * deleting `default`/`kube-system`/`kube-public`; `resourceVersion: "0"` is an unconditional
 * update, except for CRDs and custom resources (`AllowUnconditionalUpdate` false).
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/server.ts";
import { createKubectl, kubectlAvailable, ok } from "../_kubectl.ts";
import { app } from "./_web_app.ts";

const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
const gadget = `
apiVersion: example.com/v1
kind: Gadget
metadata: {name: g1, namespace: default}
spec: {size: 1}
`;

Deno.test({
  name: "kubectl gets kube-apiserver's validation errors, word for word",
  ignore: !kubectlAvailable(),
  fn: async (t) => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    const k = (args: string[], stdin?: string) => kubectl.run(args, { stdin });
    try {
      await t.step("setup: the app is applied", async () => {
        ok(await k(["apply", "-f", "-"], app), "apply");
      });

      await t.step("a Deployment whose selector does not match its labels is refused", async () => {
        const bad = app.split("---")[0].replace("labels: {app: web}", "labels: {app: other}")
          .replace("name: web, namespace", "name: bad, namespace");
        const r = await k(["apply", "-f", "-"], bad);
        assert.notEqual(r.code, 0);
        assert.equal(
          r.stderr.trim(),
          'The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
        );
      });

      await t.step("a Service's clusterIP and a Deployment's selector cannot change", async () => {
        const r = await k([
          "patch",
          "svc",
          "api",
          "-p",
          '{"spec":{"clusterIP":"10.96.100.101","clusterIPs":["10.96.100.101"]}}',
        ]);
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /The Service "api" is invalid: spec\.clusterIPs\[0\]: Invalid value: \[\]string\{"10\.96\.100\.101"\}: may not change once set/,
        );
        const s = await k([
          "patch",
          "deploy",
          "web",
          "-p",
          '{"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}}}}}',
        ]);
        assert.notEqual(s.code, 0);
        assert.match(
          s.stderr,
          /spec\.selector: Invalid value: v1\.LabelSelector\{MatchLabels:map\[string\]string\{"app":"x"\}, MatchExpressions:\[\]v1\.LabelSelectorRequirement\(nil\)\}: field is immutable/,
        );
      });

      await t.step("default, kube-system and kube-public cannot be deleted", async () => {
        for (const ns of ["default", "kube-system", "kube-public"]) {
          const r = await k(["delete", "namespace", ns]);
          assert.notEqual(r.code, 0);
          assert.equal(
            r.stderr.trim(),
            `Error from server (Forbidden): namespaces "${ns}" is forbidden: this namespace may not be deleted`,
          );
        }
        ok(await k(["get", "namespace", "default"]), "get ns");
      });

      await t.step('an update with resourceVersion "0" is unconditional', async () => {
        const cm = JSON.parse(
          ok(await k(["create", "configmap", "c", "--from-literal=a=1", "-o", "json"]), "create"),
        );
        ok(await k(["label", "cm", "c", "touched=yes"]), "label"); // the stored version moves on
        cm.metadata.resourceVersion = "0";
        cm.data = { a: "2" };
        ok(await k(["replace", "-f", "-"], JSON.stringify(cm)), "replace");
        assert.equal(ok(await k(["get", "cm", "c", "-o", "jsonpath={.data.a}"]), "get"), "2");
      });

      await t.step(
        "... but not for CRDs and custom resources (their strategies say no)",
        async () => {
          ok(await k(["apply", "-f", "-"], crd), "apply crd");
          ok(await k(["wait", "--for=condition=established", "crd/gadgets.example.com"]), "wait");
          ok(await k(["apply", "-f", "-"], gadget), "apply gadget");
          for (
            const [what, message] of [
              [
                "crd/gadgets.example.com",
                'The customresourcedefinitions "gadgets.example.com" is invalid: ' +
                "metadata.resourceVersion: Invalid value: 0x0: must be specified for an update",
              ],
              [
                "gadget/g1",
                'The gadgets "g1" is invalid: ' +
                "metadata.resourceVersion: Invalid value: 0x0: must be specified for an update",
              ],
            ]
          ) {
            const obj = JSON.parse(ok(await k(["get", what, "-o", "json"]), "get"));
            obj.metadata.resourceVersion = "0";
            const r = await k(["replace", "-f", "-"], JSON.stringify(obj));
            assert.notEqual(r.code, 0, what);
            assert.equal(r.stderr.trim(), message);
          }
        },
      );

      await t.step("an Established CRD keeps its scope", async () => {
        const r = await k(["apply", "-f", "-"], crd.replace("scope: Namespaced", "scope: Cluster"));
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /The CustomResourceDefinition "gadgets\.example\.com" is invalid: spec\.scope: Invalid value: "Cluster": field is immutable/,
        );
      });
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
