/**
 * The Open Application Model story on the embedded cluster, in its three roles: a developer
 * describes Components, an operator writes traits (scaling, exposure, monitoring), and an
 * Application joins them. The composer renders Deployments, Services, Ingresses and
 * HorizontalPodAutoscalers; the workload controllers take it from there (Application ->
 * Deployment -> ReplicaSet -> Pod). Then: scale by trait, expose, change, remove.
 *
 *   deno run -A examples/oam.ts               # play the story, then keep serving for kubectl
 *   deno run -A examples/oam.ts --demo-only   # play the story and exit (0 = every step passed)
 *   deno run -A examples/oam.ts --verbose     # also print the controllers' JSON-lines logs
 *
 * @module
 */
import type { KubeObject } from "../mod.ts";
import { runStory } from "./_story.ts";
import { type Application, applicationController, oamCrds } from "../controllers/oam/mod.ts";

const OAM = "core.oam.kubefold.dev/v1alpha1";
const APP = { apiVersion: OAM, kind: "Application" };
const DEPLOY = { apiVersion: "apps/v1", kind: "Deployment" };
const RS = { apiVersion: "apps/v1", kind: "ReplicaSet" };
const POD = { apiVersion: "v1", kind: "Pod" };
const SVC = { apiVersion: "v1", kind: "Service" };
const ING = { apiVersion: "networking.k8s.io/v1", kind: "Ingress" };
const HPA = { apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler" };

// deno-lint-ignore no-explicit-any
type Obj = KubeObject & { spec?: any; status?: any };
const obj = (kind: string, name: string, spec: unknown): KubeObject => ({
  apiVersion: OAM,
  kind,
  metadata: { name, namespace: "default" },
  spec,
});

const webComponent = (image: string) =>
  obj("Component", "web", {
    workload: { image, ports: [{ name: "http", containerPort: 80 }] },
  });
const shop = (web: { kind: string; name: string }[], withApi: boolean) =>
  obj("Application", "shop", {
    components: [
      { name: "web", componentName: "web", traits: web },
      ...(withApi
        ? [{
          name: "api",
          componentName: "api",
          traits: [{ kind: "ScalingTrait", name: "elastic" }, {
            kind: "MonitoringTrait",
            name: "scrape",
          }],
        }]
        : []),
    ],
  });

await runStory({
  name: "oam",
  crds: oamCrds as unknown as KubeObject[],
  controllers: [applicationController()],
  watch: [APP, DEPLOY, RS, POD, SVC, ING, HPA],
  hint: [
    "  kubectl get oam                      # Components, traits, Applications",
    "  kubectl get applications,deployments,replicasets,pods,services,ingresses,hpa",
    "  kubectl get application shop -o jsonpath='{.status.components}'",
    '  kubectl patch scalingtrait three --type merge -p \'{"spec":{"replicas":2}}\'',
  ].join("\n"),
}, async (s) => {
  const app = () => s.store<Application & KubeObject>(APP).get("default/shop");
  const list = (kind: typeof APP) => s.store<Obj>(kind).list();
  const get = (kind: typeof APP, name: string) => s.store<Obj>(kind).get(`default/${name}`);
  const health = (c: string) => app()?.status?.components.find((h) => h.name === c);
  const pods = (component: string) =>
    list(POD).filter((p) =>
      p.metadata?.labels?.["app.oam.dev/component"] === component &&
      !p.metadata.deletionTimestamp && p.status?.phase === "Running"
    );
  const create = async (o: KubeObject) =>
    s.must(`Cannot create ${o.kind} ${o.metadata?.name}`, await s.client.create(o));
  // A merge patch replaces lists whole (server-side apply would keep what the create set).
  const setComponents = async (o: KubeObject) =>
    s.must(
      "Cannot change Application shop",
      await s.client.patch(APP, "shop", {
        namespace: s.namespace,
        patch: { type: "merge", body: { spec: o.spec } },
      }),
    );
  const apply = async (o: KubeObject) =>
    s.must(
      `Cannot apply ${o.kind} ${o.metadata?.name}`,
      await s.client.apply(o, { fieldManager: "story", force: true }),
    );

  s.say("step 1: the developer describes two Components: web (nginx, port 80), api (port 8080)");
  await create(webComponent("nginx:1.27"));
  await create(obj("Component", "api", {
    workload: {
      image: "shop/api:1.0",
      ports: [{ name: "http", containerPort: 8080 }],
      env: [{ name: "LOG_LEVEL", value: "info" }],
      resources: { requests: { cpu: "100m", memory: "128Mi" } },
    },
  }));
  s.say("        the operator writes traits: three replicas, 2-6 autoscaled, public, scraped");
  await create(obj("ScalingTrait", "three", { replicas: 3 }));
  await create(obj("ScalingTrait", "elastic", { autoscale: { minReplicas: 2, maxReplicas: 6 } }));
  await create(obj("ExposeTrait", "public", { host: "shop.example.com", path: "/" }));
  await create(obj("MonitoringTrait", "scrape", { path: "/metrics" }));

  s.say("step 2: the Application shop joins them: web + three, api + elastic + scrape");
  await create(shop([{ kind: "ScalingTrait", name: "three" }], true));
  await s.until(
    "Deployments, ReplicaSets, 3 web pods and 1 api pod Running",
    () => list(RS).length === 2 && pods("web").length === 3 && pods("api").length === 1,
  );
  await s.until(
    "HPA shop-api (2-6) and the api pods' scrape annotations",
    () =>
      get(HPA, "shop-api")?.spec?.maxReplicas === 6 &&
      pods("api")[0]?.metadata?.annotations?.["prometheus.io/scrape"] === "true",
  );
  await s.until(
    "Application Running, every component healthy",
    () =>
      app()?.status?.phase === "Running" &&
      (app()?.status?.components ?? []).every((c) => c.healthy),
  );
  for (const c of app()?.status?.components ?? []) {
    const traits = c.traits.map((t) => `${t.kind}/${t.name}`).join(", ");
    s.say(`    ${c.name}: ${c.message} [${traits}]`);
  }

  s.say("step 3: the operator scales by trait: three -> 5 replicas");
  await apply(obj("ScalingTrait", "three", { replicas: 5 }));
  await s.until(
    "5 web pods Running, status 5/5",
    () =>
      pods("web").length === 5 && health("web")?.readyReplicas === 5 && !!health("web")?.healthy,
  );

  s.say("step 4: expose web: attach the public ExposeTrait");
  await setComponents(
    shop([{ kind: "ScalingTrait", name: "three" }, { kind: "ExposeTrait", name: "public" }], true),
  );
  await s.until("Ingress shop-web routes shop.example.com/ to Service shop-web:80", () => {
    const rule = get(ING, "shop-web")?.spec?.rules?.[0];
    return rule?.host === "shop.example.com" &&
      rule.http?.paths?.[0]?.backend?.service?.name === "shop-web" &&
      get(SVC, "shop-web")?.spec?.ports?.[0]?.port === 80;
  });
  await s.until("web reports its endpoint", () => health("web")?.endpoint === "shop.example.com/");

  s.say("step 5: the developer changes web's image to nginx:1.28");
  await apply(webComponent("nginx:1.28"));
  await s.until(
    "web rolled to nginx:1.28: 5 new pods Running, healthy",
    () =>
      pods("web").length === 5 &&
      pods("web").every((p) => p.spec?.containers?.[0]?.image === "nginx:1.28") &&
      !!health("web")?.healthy,
  );

  s.say("step 6: remove api from the Application: its Deployment, Service and HPA are collected");
  await setComponents(
    shop([{ kind: "ScalingTrait", name: "three" }, { kind: "ExposeTrait", name: "public" }], false),
  );
  await s.until(
    "shop-api's Deployment, Service and HPA gone, its pods too",
    () =>
      !get(DEPLOY, "shop-api") && !get(SVC, "shop-api") && !get(HPA, "shop-api") &&
      pods("api").length === 0,
  );
  await s.until(
    "Application Running with one component",
    () => app()?.status?.components.length === 1 && app()?.status?.phase === "Running",
  );

  s.say("step 7: delete the Application: everything it rendered goes with it");
  s.must("Cannot delete shop", await s.client.delete(APP, "shop", { namespace: s.namespace }));
  await s.until(
    "no Deployment, ReplicaSet, pod, Service or Ingress of shop left",
    () =>
      list(DEPLOY).length === 0 && list(RS).length === 0 && pods("web").length === 0 &&
      !get(SVC, "shop-web") && !get(ING, "shop-web"),
  );
  return 7;
});
