/**
 * The Application controller on the embedded cluster: what an Application stops asking for
 * leaves the children it keeps (server-side apply prunes the controller's applied fields).
 */
import assert from "node:assert/strict";
import { E, type KubeObject } from "../../../mod.ts";
import { filter, firstValueFrom } from "../../../lib/deps.ts";
import { scaledClock } from "../../../lib/cluster/mod.ts";
import { applicationController, oamCrds } from "../../../controllers/oam/mod.ts";
import { withCluster } from "../workloads/_cluster.ts";

const OAM = "core.oam.kubefold.dev/v1alpha1";
const def = (kind: string, name: string, spec: unknown): KubeObject => ({
  apiVersion: OAM,
  kind,
  metadata: { name },
  spec,
});
type Deployment = KubeObject & {
  spec: {
    template: {
      metadata: { annotations?: Record<string, string> };
      spec: { containers: { image: string; ports?: unknown[]; command?: string[] }[] };
    };
  };
};

Deno.test({
  name:
    "a detached MonitoringTrait's annotations and a Component's dropped command and ports leave the Deployment, and reconciling it again writes nothing",
  fn: () =>
    withCluster(async (t) => {
      const writes = () =>
        Object.entries(t.cluster.server.requestCounts())
          .filter(([k]) => /^(create|patch|update|delete) deployments/.test(k))
          .reduce((n, [, v]) => n + v, 0);
      const merge = async (kind: string, name: string, body: unknown) => {
        const r = await t.client.patch({ apiVersion: OAM, kind }, name, {
          namespace: "default",
          patch: { type: "merge", body },
        });
        assert.ok(E.isRight(r), JSON.stringify(r));
      };
      const app = () =>
        t.get<KubeObject & { status?: { phase?: string } }>(OAM, "Application", "shop");
      const pod = async () =>
        (await t.get<Deployment>("apps/v1", "Deployment", "shop-web"))?.spec.template;
      await t.create(def("Component", "web", {
        workload: { image: "nginx:1.27", command: ["nginx"], ports: [{ containerPort: 80 }] },
      }));
      await t.create(def("MonitoringTrait", "scrape", {}));
      await t.create(def("Application", "shop", {
        components: [{
          name: "web",
          componentName: "web",
          traits: [{ kind: "MonitoringTrait", name: "scrape" }],
        }],
      }));
      await t.until(
        "scrape annotations",
        async () => (await pod())?.metadata.annotations?.["prometheus.io/scrape"] === "true",
      );

      await merge("Application", "shop", {
        spec: { components: [{ name: "web", componentName: "web", traits: [] }] },
      });
      await t.until(
        "no scrape annotations",
        async () => (await pod())?.metadata.annotations === undefined,
      );

      await merge("Component", "web", { spec: { workload: { command: null, ports: null } } });
      await t.until(
        "no container ports",
        async () => (await pod())?.spec.containers[0].ports === undefined,
      );
      const container = (await pod())?.spec.containers[0];
      assert.equal(container?.command, undefined);
      assert.equal(container?.image, "nginx:1.27");
      await t.until(
        "no Service",
        async () => (await t.get("v1", "Service", "shop-web")) === undefined,
      );

      // Rolled out, then reconciled again (a label on the Application): no Deployment write.
      await t.until("Running", async () => (await app())?.status?.phase === "Running");
      const before = writes();
      const reconciled = firstValueFrom(t.cluster.manager.records$.pipe(
        filter((r) => r.controller === "oam-application" && r.key === "default/shop"),
      ));
      await merge("Application", "shop", { metadata: { labels: { touched: "yes" } } });
      assert.equal((await reconciled).ops, 0);
      assert.equal(writes(), before);
    }, {
      clock: scaledClock({ speed: 600 }),
      crds: oamCrds as unknown as KubeObject[],
      controllers: [applicationController()],
    }),
});
