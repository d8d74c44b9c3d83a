import assert from "node:assert/strict";
import type { KubeObject } from "../../../mod.ts";
import { scaledClock, startCluster } from "../../../lib/cluster/mod.ts";
import { applicationController, oamCrds } from "../../../controllers/oam/mod.ts";
import { createKubectl, kubectlAvailable } from "../../apiserver/_kubectl.ts";

const OAM = "core.oam.kubefold.dev/v1alpha1";
const yaml = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join("\n");
const obj = (kind: string, name: string, spec: unknown) => ({
  apiVersion: OAM,
  kind,
  metadata: { name, namespace: "default" },
  spec,
});

Deno.test({
  name:
    "kubectl applies the three roles' YAML; get oam, application, ingress and hpa show the composition",
  ignore: !kubectlAvailable(),
  async fn() {
    const cluster = await startCluster({
      clock: scaledClock({ speed: 600 }),
      simulation: { nodes: 2, podStartDelayMs: 0, kubeletDelayMs: 0 },
      crds: oamCrds as unknown as KubeObject[],
      controllers: [applicationController()],
    });
    const kubectl = await createKubectl(cluster.kubeconfig);
    try {
      const both = await kubectl.run(["apply", "-f", "-"], {
        stdin: yaml(
          obj("ScalingTrait", "bad", {
            replicas: 2,
            autoscale: { minReplicas: 1, maxReplicas: 2 },
          }),
        ),
      });
      assert.notEqual(both.code, 0);
      assert.match(both.stderr, /exactly one of replicas and autoscale must be set/);
      const applied = await kubectl.run(["apply", "-f", "-"], {
        stdin: yaml(
          obj("Component", "web", {
            workload: { image: "nginx:1.27", ports: [{ containerPort: 80 }] },
          }),
          obj("ScalingTrait", "two", { replicas: 2 }),
          obj("ScalingTrait", "elastic", { autoscale: { minReplicas: 1, maxReplicas: 4 } }),
          obj("ExposeTrait", "public", { host: "web.example.com" }),
          obj("Application", "site", {
            components: [
              {
                name: "web",
                componentName: "web",
                traits: [{ kind: "ScalingTrait", name: "two" }, {
                  kind: "ExposeTrait",
                  name: "public",
                }],
              },
              {
                name: "edge",
                componentName: "web",
                traits: [{ kind: "ScalingTrait", name: "elastic" }],
              },
            ],
          }),
        ),
      });
      assert.equal(applied.code, 0, applied.stderr);
      const deadline = Date.now() + 15_000;
      let app = "";
      while (Date.now() < deadline) {
        app = (await kubectl.run(["get", "application", "site"])).stdout;
        if (/site\s+Running/.test(app)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(app, /^NAME\s+PHASE\s+COMPONENTS\s+READY\s+AGE\n/);
      assert.match(app, /site\s+Running\s+web,edge\s+2 of 2 components healthy/);
      const oam = await kubectl.run(["get", "oam", "-o", "name"]);
      assert.deepEqual(oam.stdout.trim().split("\n").sort(), [
        "application.core.oam.kubefold.dev/site",
        "component.core.oam.kubefold.dev/web",
        "exposetrait.core.oam.kubefold.dev/public",
        "scalingtrait.core.oam.kubefold.dev/elastic",
        "scalingtrait.core.oam.kubefold.dev/two",
      ]);
      const ing = await kubectl.run(["get", "ingress", "site-web"]);
      assert.match(ing.stdout, /site-web\s+\S*\s+web\.example\.com/);
      const hpa = await kubectl.run([
        "get",
        "hpa",
        "site-edge",
        "-o",
        "jsonpath={.spec.scaleTargetRef.name}",
      ]);
      assert.equal(hpa.stdout, "site-edge");
      const pods = await kubectl.run([
        "get",
        "pods",
        "-l",
        "app.oam.dev/name=site,app.oam.dev/component=web",
        "-o",
        "name",
      ]);
      assert.equal(pods.stdout.trim().split("\n").length, 2);
    } finally {
      await kubectl.dispose();
      await cluster.close();
    }
  },
});
